/**
 * The access review's body. The first screen is the decision: each finding that has rows
 * (or changed since the previous review, `--since`) by severity with its count, its change
 * and its top offenders, linked to their users and projects; then one line naming the checks
 * that found nothing, so a reader sees that they ran. Then the charts; then the long tables, grouped (rows per
 * finding, access per project, users per organization) and folded when long, with an anchor
 * on every user (`#user-…`) and project (`#project-…`). Printed, the folded tables are left
 * out: the print is the findings.
 */
import type {
  AccessChanges,
  AccessProject,
  AccessReport,
  AccessRow,
  AccessUser,
  Finding,
  FindingRow,
} from "../../report/types.js";
import { bySeverity, severityOf } from "../../report/finding-severity.js";
import { grantsChart, lastLoginChart } from "./access-charts.js";
import { findingCount, sinceText, unknownNote } from "../report-tables.js";
import { linkTo, projectId, userId } from "./anchors.js";
import { count, lastLogin } from "./format.js";
import {
  FOLD_ROWS,
  fold,
  h,
  notPrinted,
  table,
  type Column,
  type Html,
  type Part,
} from "./html.js";
import { section } from "./sections.js";

/** Offenders shown per finding on the first screen. */
export const TOP_OFFENDERS = 5;

/** The users and projects that have an anchor in the page (others are shown as text). */
interface Anchors {
  users: ReadonlySet<string>;
  projects: ReadonlySet<string>;
}
/** Set by `accessBody` for the report being rendered (rendering is synchronous). */
let anchors: Anchors = { users: new Set(), projects: new Set() };
/** A username, linked to its row in the users table when it has one. */
const userLink = (name: string | undefined): Part =>
  name === undefined ? "—" : anchors.users.has(name) ? linkTo(userId(name), name) : name;
/** A project slug, linked to its access when it has some. */
const projectLink = (slug: string | undefined): Part =>
  slug === undefined ? "—" : anchors.projects.has(slug) ? linkTo(projectId(slug), slug) : slug;

const dash = (v: string | undefined) => v ?? "—";
const yesNo = (b: boolean) => (b ? "yes" : "no");

/** How an access is held, in words. */
export function heldVia(r: AccessRow): string {
  if (r.via.kind === "direct") return "directly";
  const what = r.via.kind === "userTeam" ? "user team" : "organization team";
  return r.via.team ? `through ${what} ${r.via.team}` : `through a ${what}`;
}

/** How a finding row's field shows: users and projects as links to their anchors. */
const FIELD_CELL: Partial<Record<keyof FindingRow, (v: string | undefined) => Part>> = {
  principal: userLink,
  project: projectLink,
};

/** A finding's columns: those of its fields that some row has, and why. */
function findingColumns(rows: readonly FindingRow[]): Column<FindingRow>[] {
  const fields = [
    ["principal", "Principal"],
    ["project", "Project"],
    ["level", "Level"],
  ] as const;
  return [
    ...fields
      .filter(([f]) => rows.some((r) => r[f] !== undefined))
      .map(([f, head]) => ({ head, cell: (r: FindingRow) => (FIELD_CELL[f] ?? dash)(r[f]) })),
    { head: "Why", cell: (r) => r.detail },
  ];
}

/** Why a finding is unknown, and the rows found all the same (never "None."). */
const unknownFinding = (f: Finding): Html =>
  h`<p class="failed" data-finding-unknown="${f.id}">${unknownNote(f)}</p>`;

function finding(f: Finding, prefix = "finding"): Html {
  const cls = f.count === null ? "finding unknown" : f.count ? "finding has-rows" : "finding";
  const rows = f.rows.length
    ? fold(
        `${count(f.rows.length)} row${f.rows.length === 1 ? "" : "s"}`,
        table(`${prefix}-${f.id}`, findingColumns(f.rows), f.rows, { label: f.title }),
        { open: f.rows.length <= FOLD_ROWS },
      )
    : "";
  return h`<section class="${cls}" id="${prefix}-${f.id}" data-finding="${f.id}">
    <h3>${f.title} <span class="count">${f.count === null ? findingCount(f) : count(f.count)}</span></h3>
    ${f.count === null ? h`${unknownFinding(f)}${rows}` : f.count ? rows : h`<p class="ok">None.</p>`}
  </section>`;
}

/** A finding's rows new, resolved and not checked since the previous review (0s without --since). */
function changeOf(report: AccessReport, f: Finding): [number, number, number] {
  const s = report.since;
  const rowsOf = (list: readonly Finding[] | undefined) =>
    list?.find((x) => x.id === f.id)?.rows.length ?? 0;
  return [rowsOf(s?.newFindings), rowsOf(s?.resolvedFindings), rowsOf(s?.notChecked)];
}

/** What changed in a finding since the previous review, in words (empty without --since). */
function findingChange(report: AccessReport, f: Finding): string {
  const s = report.since;
  if (!s) return "";
  const [added, gone, unchecked] = changeOf(report, f);
  const parts = [
    ...(added ? [`+${count(added)} new`] : []),
    ...(gone ? [`${count(gone)} resolved`] : []),
    ...(unchecked ? [`${count(unchecked)} not checked`] : []),
  ];
  return `${parts.length ? parts.join(", ") : "no change"} since ${s.previousGeneratedAt.slice(0, 10)}`;
}

/** One offender: who, where, at what level, and why, each linked to its anchor. */
function offender(r: FindingRow): Html {
  const who = r.principal === undefined ? "" : h`<strong>${userLink(r.principal)}</strong>`;
  const where = r.project === undefined ? "" : h`${who ? " on " : ""}${projectLink(r.project)}`;
  const level = r.level === undefined ? "" : h` <span class="level">${r.level}</span>`;
  return h`<li>${who}${where}${level} <span class="why">${r.detail}</span></li>`;
}

/** A finding on the first screen: severity, title, count, change and top offenders. */
function decision(report: AccessReport, f: Finding): Html {
  const sev = severityOf(f.id, f.severity);
  const n = f.count === null ? findingCount(f) : count(f.count);
  const change = findingChange(report, f);
  const more = f.rows.length > TOP_OFFENDERS ? h`<a class="more" href="#finding-${f.id}">all ${count(f.rows.length)} rows</a>` : ""; // prettier-ignore
  return h`<li class="decision" data-decision="${f.id}" data-severity="${sev}">
    <p class="decision-head"><span class="sev sev-${sev}">${sev}</span> <a href="#finding-${f.id}">${f.title}</a>
    <span class="count${f.count ? " has-rows" : ""}"">${n}</span>${change ? h` <span class="change" data-change>${change}</span>` : ""}</p>
    ${f.count === null ? unknownFinding(f) : ""}
    ${f.rows.length ? h`<ol class="top">${f.rows.slice(0, TOP_OFFENDERS).map(offender)}</ol>${more}` : f.count === 0 ? h`<p class="ok">None.</p>` : ""}
  </li>`;
}

/**
 * A finding that is no news: no rows, known to have none, and no change since the previous
 * review (a drop to none is news, and keeps its card).
 */
const nothingNew = (report: AccessReport, f: Finding): boolean =>
  f.count === 0 && !f.rows.length && changeOf(report, f).every((n) => n === 0);

/**
 * The first screen: the findings that are news by severity, the most severe first, then one
 * line naming (and linking) the checks that found nothing, so that they do not push the
 * real findings off the screen and a reader still sees every check ran.
 */
function decisions(report: AccessReport): Html {
  const findings = bySeverity(report.findings);
  const quiet = findings.filter((f) => nothingNew(report, f));
  const since = report.since ? ` (no change since ${report.since.previousGeneratedAt.slice(0, 10)})` : ""; // prettier-ignore
  const line = quiet.length
    ? h`<li class="nothing-found" data-nothing-found><strong>Nothing found${since}:</strong> ${quiet.map((f, i) => h`${i ? ", " : ""}<a href="#finding-${f.id}" data-nothing="${f.id}">${f.title}</a>`)}.</li>`
    : "";
  return h`<ol class="decisions" data-decisions>${findings.filter((f) => !nothingNew(report, f)).map((f) => decision(report, f))}${line}</ol>`; // prettier-ignore
}

/** Every finding's rows, by severity (the first screen shows each one's top offenders). */
function findingRows(report: AccessReport): Html {
  return h`${bySeverity(report.findings).map((f) => finding(f))}`;
}

const ROW_COLUMNS: Column<AccessRow>[] = [
  { head: "Principal", cell: (r) => (r.principalKind === "user" ? userLink(r.principal) : r.principal) }, // prettier-ignore
  { head: "Kind", cell: (r) => (r.principalKind === "user" ? "user" : "organization team") },
  { head: "Organization", cell: (r) => dash(r.organization ?? undefined) },
  { head: "Project", cell: (r) => r.project },
  { head: "Level", cell: (r) => r.level },
  { head: "Held", cell: heldVia },
  { head: "Declared", cell: (r) => yesNo(r.declared) },
  { head: "Last login", cell: (r) => (r.principalKind === "user" ? lastLogin(r.lastLogin) : "—") }, // prettier-ignore
  { head: "Name", cell: (r) => dash(r.name) },
  { head: "E-mail", cell: (r) => dash(r.email) },
  { head: "Since", cell: (r) => sinceText(r.since, r.sinceBasis) || "—" },
  { head: "Expires", cell: (r) => r.expires ?? "—" },
];

function changes(c: AccessChanges): Html {
  const sub = (title: string, list: Finding[], prefix: string) =>
    h`<h3>${title}</h3>${list.length ? bySeverity(list).map((f) => finding(f, prefix)) : h`<p class="ok">None.</p>`}`; // prettier-ignore
  const rows = (name: string, title: string, list: AccessRow[]) =>
    h`<h3>${title} <span class="count">${count(list.length)}</span></h3>
    ${fold(`${count(list.length)} principal × project`, table(name, ROW_COLUMNS, list, { label: `${title} access` }), { open: list.length <= FOLD_ROWS })}
    ${list.length > FOLD_ROWS ? notPrinted(list.length, title) : ""}`;
  return h`<p>Since the review of ${c.previousGeneratedAt.slice(0, 10)}.</p>
    ${rows("granted", "Granted", c.granted)}
    ${rows("revoked", "Revoked", c.revoked)}
    ${sub("New findings", c.newFindings, "new")}${sub("Resolved findings", c.resolvedFindings, "resolved")}
    ${c.notChecked?.length ? sub("Not checked (neither new nor resolved)", c.notChecked, "unchecked") : ""}`;
}

const PROJECT_COLUMNS: Column<AccessProject>[] = [
  { head: "Project", cell: (p) => p.project },
  { head: "Organization", cell: (p) => p.organization },
  { head: "Declared", cell: (p) => yesNo(p.declared) },
  { head: "Admins", cell: (p) => count(p.admins), numeric: true },
  { head: "Principals", cell: (p) => count(p.principals), numeric: true },
];

const USER_COLUMNS: Column<AccessUser>[] = [
  { head: "User", cell: (u) => u.username },
  { head: "Organization", cell: (u) => u.organization },
  { head: "Role", cell: (u) => u.role },
  { head: "Status", cell: (u) => u.status },
  { head: "Declared", cell: (u) => yesNo(u.declared) },
  { head: "Service account", cell: (u) => yesNo(u.serviceAccount) },
  { head: "Last login", cell: (u) => lastLogin(u.lastLogin) },
  { head: "Days", cell: (u) => (typeof u.daysSinceLogin === "number" ? count(u.daysSinceLogin) : u.daysSinceLogin === undefined ? "unknown" : "—"), numeric: true }, // prettier-ignore
  { head: "Projects", cell: (u) => count(u.projects), numeric: true },
  { head: "Highest", cell: (u) => u.highest ?? "none" },
  { head: "Name", cell: (u) => dash(u.name) },
  { head: "E-mail", cell: (u) => dash(u.email) },
  { head: "Access since", cell: (u) => sinceText(u.accessSince, u.sinceBasis) || "—" },
];

/** Each project with its access rows, folded when the review is long. */
function projectGroups(report: AccessReport): Html {
  const byProject = new Map<string, AccessRow[]>();
  for (const r of report.rows) byProject.set(r.project, [...(byProject.get(r.project) ?? []), r]);
  const listed = new Set(report.projects.map((p) => p.project));
  const open = report.rows.length <= FOLD_ROWS;
  const group = (slug: string, facts: Part, rows: readonly AccessRow[]) =>
    fold(
      h`<strong>${slug}</strong> <span class="facts">${facts}</span>`,
      table("rows", ROW_COLUMNS, rows, { label: `access to ${slug}` }),
      { open, id: projectId(slug), attrs: h` data-project="${slug}"` },
    );
  const facts = (p: AccessProject) =>
    PROJECT_COLUMNS.slice(1).map((c, i) => h`${i ? " · " : ""}${c.head}: ${c.cell(p)}`);
  return h`${report.projects.map((p) => group(p.project, facts(p), byProject.get(p.project) ?? []))}
    ${[...byProject].filter(([slug]) => !listed.has(slug)).map(([slug, rows]) => group(slug, "not in the project list", rows))}
    ${open ? "" : notPrinted(report.rows.length, "Access per project")}`;
}

/** Users per organization, each row with its anchor, folded when the review is long. */
function userGroups(report: AccessReport): Html {
  const byOrg = new Map<string, AccessUser[]>();
  for (const u of report.users) byOrg.set(u.organization, [...(byOrg.get(u.organization) ?? []), u]); // prettier-ignore
  const open = report.users.length <= FOLD_ROWS;
  return h`${[...byOrg].map(([org, users]) =>
    fold(
      h`<strong>${org}</strong> <span class="facts">${count(users.length)} user${users.length === 1 ? "" : "s"}</span>`,
      table("users", USER_COLUMNS, users, {
        label: `users of ${org}`,
        rowId: (u) => userId(u.username),
      }),
      { open, attrs: h` data-organization="${org}"` },
    ),
  )}${open ? "" : notPrinted(report.users.length, "Users")}`;
}

/** The access review's sections. */
export function accessBody(report: AccessReport): Html {
  anchors = {
    users: new Set(report.users.map((u) => u.username)),
    projects: new Set(report.rows.map((r) => r.project)),
  };
  // Every section is built from the access read; without last logins, the findings and the
  // users table are still true but incomplete (no inactive users), which they say.
  const body = (title: string, name: string, f: () => Html, notes: string[] = []) =>
    section(report, name, title, f, { needs: ["access"], notes });
  return h`${body("Findings", "findings", () => decisions(report), ["lastLogin"])}
  ${body("Overview", "overview", () => h`<div class="charts">${lastLoginChart(report)}${grantsChart(report)}</div>`)}
  ${report.since ? body("Changes since the previous review", "since", () => changes(report.since as AccessChanges)) : ""}
  ${body("Finding rows", "finding-rows", () => findingRows(report), ["lastLogin"])}
  ${body(`Projects (${count(report.projects.length)}) and their access (${count(report.rows.length)} principal × project)`, "projects", () => projectGroups(report))}
  ${body(`Users (${count(report.users.length)})`, "users", () => userGroups(report), ["lastLogin"])}`;
}
