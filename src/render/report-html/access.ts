/**
 * The access review's body: the findings first (each with its count and rows), what changed
 * since the previous review, charts, then every project, user and principal × project.
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
import { grantsChart, lastLoginChart } from "./access-charts.js";
import { findingCount, sinceText, unknownNote } from "../report-tables.js";
import { count, lastLogin } from "./format.js";
import { h, table, type Column, type Html } from "./html.js";
import { section } from "./sections.js";

const dash = (v: string | undefined) => v ?? "—";
const yesNo = (b: boolean) => (b ? "yes" : "no");

/** How an access is held, in words. */
export function heldVia(r: AccessRow): string {
  if (r.via.kind === "direct") return "directly";
  const what = r.via.kind === "userTeam" ? "user team" : "organization team";
  return r.via.team ? `through ${what} ${r.via.team}` : `through a ${what}`;
}

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
      .map(([f, head]) => ({ head, cell: (r: FindingRow) => dash(r[f]) })),
    { head: "Why", cell: (r) => r.detail },
  ];
}

/** Why a finding is unknown, and the rows found all the same (never "None."). */
const unknownFinding = (f: Finding): Html =>
  h`<p class="failed" data-finding-unknown="${f.id}">${unknownNote(f)}</p>`;

function finding(f: Finding, prefix = "finding"): Html {
  const cls = f.count === null ? "finding unknown" : f.count ? "finding has-rows" : "finding";
  const rows = f.rows.length ? table(`${prefix}-${f.id}`, findingColumns(f.rows), f.rows) : "";
  return h`<section class="${cls}" id="${prefix}-${f.id}" data-finding="${f.id}">
    <h3>${f.title} <span class="count">${f.count === null ? findingCount(f) : count(f.count)}</span></h3>
    ${f.count === null ? h`${unknownFinding(f)}${rows}` : f.count ? rows : h`<p class="ok">None.</p>`}
  </section>`;
}

function findings(report: AccessReport): Html {
  const cols: Column<Finding>[] = [
    { head: "Finding", cell: (f) => h`<a href="#finding-${f.id}">${f.title}</a>` },
    { head: "Rows", cell: (f) => (f.count === null ? findingCount(f) : count(f.count)), numeric: true }, // prettier-ignore
  ];
  return h`${table("findings", cols, report.findings)}${report.findings.map((f) => finding(f))}`;
}

const ROW_COLUMNS: Column<AccessRow>[] = [
  { head: "Principal", cell: (r) => r.principal },
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
];

function changes(c: AccessChanges): Html {
  const sub = (title: string, list: Finding[], prefix: string) =>
    h`<h3>${title}</h3>${list.length ? list.map((f) => finding(f, prefix)) : h`<p class="ok">None.</p>`}`; // prettier-ignore
  return h`<p>Since the review of ${c.previousGeneratedAt.slice(0, 10)}.</p>
    <h3>Granted <span class="count">${count(c.granted.length)}</span></h3>
    ${table("granted", ROW_COLUMNS, c.granted)}
    <h3>Revoked <span class="count">${count(c.revoked.length)}</span></h3>
    ${table("revoked", ROW_COLUMNS, c.revoked)}
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

/** The access review's sections. */
export function accessBody(report: AccessReport): Html {
  // Every section is built from the access read; without last logins, the findings and the
  // users table are still true but incomplete (no inactive users), which they say.
  const body = (title: string, name: string, f: () => Html, notes: string[] = []) =>
    section(report, name, title, f, { needs: ["access"], notes });
  return h`${body("Findings", "findings", () => findings(report), ["lastLogin"])}
  ${report.since ? body("Changes since the previous review", "since", () => changes(report.since as AccessChanges)) : ""}
  ${body("Overview", "overview", () => h`<div class="charts">${lastLoginChart(report)}${grantsChart(report)}</div>`)}
  ${body(`Projects (${count(report.projects.length)})`, "projects", () => table("projects", PROJECT_COLUMNS, report.projects))}
  ${body(`Users (${count(report.users.length)})`, "users", () => table("users", USER_COLUMNS, report.users), ["lastLogin"])}
  ${body(`All access (${count(report.rows.length)} principal × project)`, "rows", () => table("rows", ROW_COLUMNS, report.rows))}`;
}
