/**
 * The access review's findings, each a count and the rows behind it. Pure; every finding is
 * listed, also with no rows (a review that shows "0" says it was checked):
 *
 * - inactive-with-write: users whose last login is at least `--inactive` days ago and who
 *   still hold write or admin anywhere (one row per user: their highest level);
 * - never-logged-in: users with no login at all (one row per user);
 * - projects-under-two-admins: projects with one admin or none (one row per project);
 * - live-only-access: access the manifests do not declare (one row per access row);
 * - customer-write-on-parent: users, or organization teams, of a customer organization
 *   (one with a parent) with write or admin on a project of the parent organization;
 * - service-account-admin: users matching a service-account pattern who hold admins.
 *
 * The two login findings need the last logins: when an organization's could not be read,
 * they are unknown — `count: null` and `unknown` says which search failed — and list only
 * the rows found among the users whose last login was read. Never 0 for unknown.
 */
import type { LiveOrganization } from "../engine/readers.js";
import { daysSince } from "./span.js";
import type {
  AccessProject,
  AccessRow,
  AccessUser,
  Finding,
  FindingId,
  FindingRow,
  FindingUnknown,
} from "./types.js";

/** What the findings are computed from. */
export interface FindingsInput {
  rows: readonly AccessRow[];
  users: readonly AccessUser[];
  projects: readonly AccessProject[];
  organizations: readonly LiveOrganization[];
  parentOrganization: string;
  inactiveDays: number;
  /** Why some users' last logins are unknown; undefined when all were read. */
  loginsUnknown: FindingUnknown | undefined;
  nowMs: number;
  /** When each user was created (ISO), for the never-logged-in rows. */
  created: ReadonlyMap<string, string>;
}

/** The title of each finding, for people (N: the --inactive days). */
export function findingTitle(id: FindingId, inactiveDays: number): string {
  switch (id) {
    case "inactive-with-write":
      return `Users inactive for ${inactiveDays} days or more who hold write or admin`;
    case "never-logged-in":
      return "Users who never logged in";
    case "projects-under-two-admins":
      return "Projects with fewer than two admins";
    case "live-only-access":
      return "Access granted live but absent from the manifests";
    case "customer-write-on-parent":
      return "Customer organizations with write on the parent organization's projects";
    case "service-account-admin":
      return "Service accounts with admin";
  }
}

const via = (r: AccessRow) =>
  r.via.kind === "direct"
    ? "directly"
    : r.via.kind === "userTeam"
      ? `through user team ${r.via.team}`
      : `through organization team ${r.via.team}`;

const day = (iso: string) => iso.slice(0, 10);

/** The rows that hold write or admin, by user. */
function writeRowsByUser(rows: readonly AccessRow[]): Map<string, AccessRow[]> {
  const out = new Map<string, AccessRow[]>();
  for (const r of rows) {
    if (r.principalKind !== "user" || r.grade === "read") continue;
    const list = out.get(r.principal) ?? [];
    list.push(r);
    out.set(r.principal, list);
  }
  return out;
}

/** The findings that need last logins: unknown when some could not be read. */
export const LOGIN_FINDINGS: ReadonlySet<FindingId> = new Set([
  "inactive-with-write",
  "never-logged-in",
]);

function inactive(i: FindingsInput): FindingRow[] {
  const writes = writeRowsByUser(i.rows);
  return i.users
    .filter(
      (u) =>
        typeof u.lastLogin === "string" &&
        daysSince(u.lastLogin, i.nowMs) >= i.inactiveDays &&
        writes.has(u.username),
    )
    .map((u) => {
      const held = writes.get(u.username)!;
      const top = held.find((r) => r.grade === "admin") ?? held[0];
      const n = new Set(held.map((r) => r.project)).size;
      return {
        principal: u.username,
        project: top.project,
        level: top.level,
        detail: `last login ${day(u.lastLogin!)} (${daysSince(u.lastLogin!, i.nowMs)} days ago); write or admin on ${n} project${n === 1 ? "" : "s"}`,
      };
    });
}

function neverLoggedIn(i: FindingsInput): FindingRow[] {
  return i.users
    .filter((u) => u.lastLogin === null)
    .map((u) => {
      const created = i.created.get(u.username);
      return {
        principal: u.username,
        detail: `created ${created ? day(created) : "at an unknown date"}; reaches ${u.projects} project${u.projects === 1 ? "" : "s"}${u.highest ? ` (highest: ${u.highest})` : ""}`,
      };
    });
}

function underTwoAdmins(i: FindingsInput): FindingRow[] {
  const admins = new Map<string, string[]>();
  for (const r of i.rows)
    if (r.level === "admins" && r.principalKind === "user")
      admins.set(r.project, [...(admins.get(r.project) ?? []), r.principal]);
  return i.projects
    .filter((p) => p.admins < 2)
    .map((p) => ({
      project: p.project,
      level: "admins",
      detail:
        p.admins === 0 ? "no admin" : `one admin: ${(admins.get(p.project) ?? []).join(", ")}`,
    }));
}

function liveOnly(i: FindingsInput): FindingRow[] {
  const declaredProjects = new Set(i.projects.filter((p) => p.declared).map((p) => p.project));
  return i.rows
    .filter((r) => !r.declared)
    .map((r) => ({
      principal: r.principal,
      project: r.project,
      level: r.level,
      detail: `${r.level} ${via(r)}; ${declaredProjects.has(r.project) ? "not in the project's manifest" : r.via.kind === "userTeam" ? "team membership not in the manifests" : "the project is not declared"}`,
    }));
}

function customerWrite(i: FindingsInput): FindingRow[] {
  const customers = new Set(
    i.organizations.filter((o) => o.parentOrganization !== null).map((o) => o.name),
  );
  return i.rows
    .filter(
      (r) =>
        r.grade !== "read" &&
        r.organization !== null &&
        customers.has(r.organization) &&
        r.projectOrganization === i.parentOrganization,
    )
    .map((r) => ({
      principal: r.principal,
      project: r.project,
      level: r.level,
      detail: `${r.principalKind === "user" ? "user" : "organization team"} of ${r.organization}, ${r.level} ${via(r)}`,
    }));
}

function serviceAdmin(i: FindingsInput): FindingRow[] {
  const service = new Set(i.users.filter((u) => u.serviceAccount).map((u) => u.username));
  return i.rows
    .filter((r) => r.principalKind === "user" && r.grade === "admin" && service.has(r.principal))
    .map((r) => ({
      principal: r.principal,
      project: r.project,
      level: r.level,
      detail: `service account, ${r.level} ${via(r)}`,
    }));
}

const RULES: Record<FindingId, (i: FindingsInput) => FindingRow[]> = {
  "inactive-with-write": inactive,
  "never-logged-in": neverLoggedIn,
  "projects-under-two-admins": underTwoAdmins,
  "live-only-access": liveOnly,
  "customer-write-on-parent": customerWrite,
  "service-account-admin": serviceAdmin,
};

/** Every finding, in a fixed order, with its rows (users of unknown last login have none). */
export function findings(i: FindingsInput): Finding[] {
  return (Object.keys(RULES) as FindingId[]).map((id) => {
    const rows = RULES[id](i);
    const title = findingTitle(id, i.inactiveDays);
    return i.loginsUnknown && LOGIN_FINDINGS.has(id)
      ? { id, title, count: null, unknown: i.loginsUnknown, rows }
      : { id, title, count: rows.length, rows };
  });
}

/**
 * The identity of a finding's row (what `--since` compares): the user for the per-user
 * findings (their detail changes every day), the project for the admins one, else the
 * principal, project and level.
 */
export function findingRowKey(id: FindingId, r: FindingRow): string {
  if (id === "inactive-with-write" || id === "never-logged-in") return r.principal ?? "";
  if (id === "projects-under-two-admins") return r.project ?? "";
  return `${r.principal ?? ""}|${r.project ?? ""}|${r.level ?? ""}`;
}
