/**
 * The access review as tables (report-tables.ts lists them with the delivery ones): the
 * findings with their severity, each finding's rows, what changed since `--since`, every
 * principal × project and every user — with the users' names and e-mails and since when
 * each access is held. CSV gets every column (new ones last, so a spreadsheet's columns keep
 * their places); markdown the compact form: name and e-mail in one cell, `since` in words,
 * a finding's empty columns left out. Pure.
 */
import type { AccessReport, AccessRow, AccessUser, Finding } from "../report/types.js";
import { login, n, t, unknown, UNKNOWN, yes, type Cell, type ReportTable } from "./report-cells.js";

const via = (r: AccessRow) =>
  r.via.kind === "direct"
    ? "direct"
    : `${r.via.kind === "userTeam" ? "user team" : "organization team"} ${r.via.team ?? ""}`;

/** What a `since` rests on, in words: "first seen" (the API gives no grant date). */
export const sinceWords = (basis: string | undefined): string =>
  basis === "first-seen" || basis === undefined ? "first seen" : basis.replace(/-/g, " ");

/** A `since` for people: "first seen 2025-05-01"; empty in a report made before it. */
export const sinceText = (since: string | undefined, basis: string | undefined): string =>
  since === undefined ? "" : `${sinceWords(basis)} ${since}`;

/** The line above the tables with `since`: what the day means. */
export const SINCE_NOTE =
  "Since: the day a review first saw the access (the API gives no grant date); --since carries it from review to review, so the access may be older, never newer.";

/** A user's display name and e-mail in one cell ("Ada Lovelace <ada@example.org>"). */
export const whoText = (x: { name?: string; email?: string }): string =>
  [x.name, x.email ? `<${x.email}>` : undefined].filter(Boolean).join(" ");

function accessRowCells(r: AccessRow): Cell[] {
  return [
    t(r.principal),
    t(r.principalKind === "user" ? "user" : "organization team"),
    t(r.organization),
    t(r.project),
    t(r.level),
    t(via(r)),
    yes(r.declared),
    r.principalKind === "user" ? login(r.lastLogin) : t(""),
    t(r.name),
    t(r.email),
    t(r.since),
    t(r.sinceBasis),
    t(r.expires),
  ];
}

/** The access rows for people: name and e-mail in one cell, `since` in words. */
function accessCompact(rows: readonly AccessRow[], change?: readonly string[]) {
  return {
    headers: [...(change ? ["Change"] : []), ...ACCESS_COMPACT],
    rows: rows.map((r, i) => [
      ...(change ? [change[i]] : []),
      r.principal,
      r.principalKind === "user" ? whoText(r) : "organization team",
      r.organization ?? "",
      r.project,
      r.level,
      via(r),
      r.declared ? "yes" : "no",
      r.principalKind === "user" ? login(r.lastLogin).text : "",
      sinceText(r.since, r.sinceBasis),
      r.expires ?? "",
    ]),
  };
}

/** A finding's count for people: the number, or "unknown" (never 0 for it). */
export const findingCount = (f: Finding): string => (f.count === null ? UNKNOWN : String(f.count));

/** Why a finding is unknown, as every format says it: "unknown: the last-login search …". */
export const unknownWords = (f: Finding): string =>
  f.unknown ? `${UNKNOWN}: ${f.unknown.reason}` : f.count === null ? UNKNOWN : "";
// New columns go last: a spreadsheet's columns keep their places.
const ACCESS_HEADERS = [
  "Principal",
  "Kind",
  "Organization",
  "Project",
  "Level",
  "Held",
  "Declared",
  "Last login",
  "Name",
  "E-mail",
  "Since",
  "Since basis",
  "Expires",
];
const ACCESS_COMPACT = [
  "Principal",
  "Name and e-mail",
  "Organization",
  "Project",
  "Level",
  "Held",
  "Declared",
  "Last login",
  "Since",
  "Expires",
];

/** What an unknown finding says above its rows: why, and what was found all the same. */
export const unknownNote = (f: Finding): string =>
  `${unknownWords(f)}.${f.rows.length ? ` Found among the users whose last login was read: ${f.rows.length}.` : ""}`;

function findingTable(
  name: string,
  title: string,
  f: Finding,
  users: ReadonlyMap<string, AccessUser>,
): ReportTable {
  const who = (p: string | undefined) => (p === undefined ? undefined : users.get(p));
  // For people, only the columns some row fills (a project finding has no principal).
  const columns = [
    ["Principal", (r: Finding["rows"][number]) => r.principal ?? ""],
    ["Name and e-mail", (r: Finding["rows"][number]) => whoText(who(r.principal) ?? {})],
    ["Project", (r: Finding["rows"][number]) => r.project ?? ""],
    ["Level", (r: Finding["rows"][number]) => r.level ?? ""],
  ] as const;
  const used = columns.filter(([, cell]) => f.rows.some((r) => cell(r) !== ""));
  return {
    name,
    title,
    headers: ["Principal", "Project", "Level", "Detail", "Name", "E-mail"],
    rows: f.rows.map((r) => [
      t(r.principal),
      t(r.project),
      t(r.level),
      t(r.detail),
      t(who(r.principal)?.name),
      t(who(r.principal)?.email),
    ]),
    compact: {
      headers: [...used.map(([h]) => h), "Detail"],
      rows: f.rows.map((r) => [...used.map(([, cell]) => cell(r)), r.detail]),
    },
    ...(f.count === null ? { note: unknownNote(f) } : {}),
  };
}

/** The access review's tables, in the order people read them. */
export function accessTables(r: AccessReport): ReportTable[] {
  const users = new Map(r.users.map((u) => [u.username, u]));
  const out: ReportTable[] = [
    {
      name: "findings",
      title: "Findings",
      // The note: why a count is unknown (CSV has no other place to say it).
      headers: ["Finding", "Count", "Note", "Severity"],
      rows: r.findings.map((f) => [
        { raw: f.id, text: f.title },
        f.count === null ? unknown : n(f.count),
        t(unknownWords(f)),
        t(f.severity),
      ]),
      compact: {
        headers: ["Finding", "Count", "Severity"],
        rows: r.findings.map((f) => [f.title, findingCount(f), f.severity ?? ""]),
      },
    },
    ...r.findings.map((f) =>
      findingTable(`finding-${f.id}`, `${f.title} (${findingCount(f)})`, f, users),
    ),
  ];
  if (r.since) {
    const s = r.since;
    out.push({
      name: "changes",
      title: `Changes since ${s.previousGeneratedAt.slice(0, 10)}`,
      headers: ["Change", ...ACCESS_HEADERS],
      rows: [
        ...s.granted.map((x) => [t("granted"), ...accessRowCells(x)]),
        ...s.revoked.map((x) => [t("revoked"), ...accessRowCells(x)]),
      ],
      compact: accessCompact(
        [...s.granted, ...s.revoked],
        [...s.granted.map(() => "granted"), ...s.revoked.map(() => "revoked")],
      ),
    });
    out.push({
      name: "finding-changes",
      title: "Findings since the previous review",
      headers: ["Change", "Finding", "Principal", "Project", "Level", "Detail"],
      rows: (
        [
          ["new", s.newFindings],
          ["resolved", s.resolvedFindings],
          ["not checked", s.notChecked ?? []],
        ] as const
      ).flatMap(([change, findings]) =>
        findings.flatMap((f) =>
          f.rows.map((x) => [
            t(change),
            { raw: f.id, text: f.title },
            t(x.principal),
            t(x.project),
            t(x.level),
            t(x.detail),
          ]),
        ),
      ),
    });
  }
  out.push(
    {
      name: "access",
      title: "Access",
      headers: ACCESS_HEADERS,
      rows: r.rows.map(accessRowCells),
      compact: accessCompact(r.rows),
      note: SINCE_NOTE,
    },
    usersTable(r.users),
    {
      name: "projects",
      title: "Projects",
      headers: ["Project", "Organization", "Declared", "Admins", "Principals"],
      rows: r.projects.map((p) => [
        t(p.project),
        t(p.organization),
        yes(p.declared),
        n(p.admins),
        n(p.principals),
      ]),
    },
  );
  return out;
}

function usersTable(users: readonly AccessUser[]): ReportTable {
  const days = (u: AccessUser) => (u.daysSinceLogin === undefined ? unknown : n(u.daysSinceLogin));
  const status = (u: AccessUser) => (u.deactivated ? "deactivated" : u.status);
  return {
    name: "users",
    title: "Users",
    headers: [
      "User",
      "Organization",
      "Role",
      "Status",
      "Declared",
      "Service account",
      "Last login",
      "Days since login",
      "Projects",
      "Highest",
      "Name",
      "E-mail",
      "Deactivated",
      "Access since",
      "Access since basis",
    ],
    rows: users.map((u) => [
      t(u.username),
      t(u.organization),
      t(u.role),
      t(u.status),
      yes(u.declared),
      yes(u.serviceAccount),
      login(u.lastLogin),
      days(u),
      n(u.projects),
      t(u.highest),
      t(u.name),
      t(u.email),
      u.deactivated === undefined ? t(null) : yes(u.deactivated),
      t(u.accessSince),
      t(u.accessSince === undefined ? undefined : u.sinceBasis),
    ]),
    compact: {
      headers: [
        "User",
        "Name and e-mail",
        "Organization",
        "Role",
        "Status",
        "Declared",
        "Service account",
        "Last login",
        "Days since login",
        "Projects",
        "Highest",
        "Access since",
      ],
      rows: users.map((u) => [
        u.username,
        whoText(u),
        u.organization,
        u.role,
        status(u),
        u.declared ? "yes" : "no",
        u.serviceAccount ? "yes" : "no",
        login(u.lastLogin).text,
        days(u).text,
        String(u.projects),
        u.highest ?? "",
        sinceText(u.accessSince, u.sinceBasis),
      ]),
    },
  };
}
