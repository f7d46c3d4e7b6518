/**
 * The access review's findings, each a count, a severity and the rows behind it, most
 * severe first. Pure; every finding is listed, also with no rows (a review that shows "0"
 * says it was checked):
 *
 * - deactivated-with-access (high): deactivated accounts (status inactive) that still hold
 *   access anywhere (one row per user: their highest level, the projects in the detail);
 * - inactive-with-write (high): users whose last login is at least `--inactive` days ago and
 *   who still hold write or admin anywhere (one row per user: their highest level);
 * - customer-write-on-parent (high): users, or organization teams, of a customer
 *   organization (one with a parent) with write or admin on a project of the parent;
 * - service-account-admin (high): users matching a service-account pattern who hold admins;
 * - customer-write-without-expiry (medium): users of a customer organization holding write
 *   or admin that no `expires:` in the manifests ends (partners' access should end);
 * - never-logged-in (medium): users with no login at all (one row per user);
 * - live-only-access (medium): access the manifests do not declare (one row per access row);
 * - dormant-with-read (low): users whose last login is at least `--inactive` days ago and
 *   who hold read access only (one row per user);
 * - projects-under-two-admins (low): projects with one admin or none (one row per project).
 *
 * The three login findings need the last logins: when an organization's could not be read,
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
  Severity,
} from "./types.js";
import { FINDING_IDS } from "./types.js";
import { day, deactivated, dormantRead, via } from "./findings-accounts.js";

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

/** How urgent each finding is (README's table says why). */
export const SEVERITY: Record<FindingId, Severity> = {
  "deactivated-with-access": "high",
  "inactive-with-write": "high",
  "customer-write-on-parent": "high",
  "service-account-admin": "high",
  "customer-write-without-expiry": "medium",
  "never-logged-in": "medium",
  "live-only-access": "medium",
  "dormant-with-read": "low",
  "projects-under-two-admins": "low",
};

/** The title of each finding, for people (N: the --inactive days). */
export function findingTitle(id: FindingId, inactiveDays: number): string {
  switch (id) {
    case "deactivated-with-access":
      return "Deactivated accounts that still hold access";
    case "dormant-with-read":
      return `Users inactive for ${inactiveDays} days or more who hold read access only`;
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
    case "customer-write-without-expiry":
      return "Customer organizations' users with write or admin that never expires";
  }
}

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
  "dormant-with-read",
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

/**
 * Access the manifests do not declare. A grant whose `expires:` has passed is not declared
 * any more, but it was never "granted live only": the next apply removes it (plan shows it as
 * expired), so it is left out here.
 */
function liveOnly(i: FindingsInput): FindingRow[] {
  const declaredProjects = new Set(i.projects.filter((p) => p.declared).map((p) => p.project));
  const today = new Date(i.nowMs).toISOString().slice(0, 10);
  return i.rows
    .filter((r) => !r.declared && !(r.expires !== undefined && r.expires < today))
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

/** Users of a customer organization with write or admin that no `expires:` ends. */
function customerWithoutExpiry(i: FindingsInput): FindingRow[] {
  const customers = new Set(
    i.organizations.filter((o) => o.parentOrganization !== null).map((o) => o.name),
  );
  return i.rows
    .filter(
      (r) =>
        r.principalKind === "user" &&
        r.grade !== "read" &&
        r.organization !== null &&
        customers.has(r.organization) &&
        r.expires === undefined,
    )
    .map((r) => ({
      principal: r.principal,
      project: r.project,
      level: r.level,
      detail: `user of ${r.organization}, ${r.level} ${via(r)}, with no end: add expires: to the grant`,
    }));
}

const RULES: Record<FindingId, (i: FindingsInput) => FindingRow[]> = {
  "customer-write-without-expiry": customerWithoutExpiry,
  "deactivated-with-access": deactivated,
  "dormant-with-read": dormantRead,
  "inactive-with-write": inactive,
  "never-logged-in": neverLoggedIn,
  "projects-under-two-admins": underTwoAdmins,
  "live-only-access": liveOnly,
  "customer-write-on-parent": customerWrite,
  "service-account-admin": serviceAdmin,
};

/**
 * Every finding, most severe first (FINDING_IDS), with its rows (users of unknown last login
 * have none).
 */
export function findings(i: FindingsInput): Finding[] {
  return FINDING_IDS.map((id) => {
    const rows = RULES[id](i);
    const head = { id, title: findingTitle(id, i.inactiveDays), severity: SEVERITY[id] };
    return i.loginsUnknown && LOGIN_FINDINGS.has(id)
      ? { ...head, count: null, unknown: i.loginsUnknown, rows }
      : { ...head, count: rows.length, rows };
  });
}

/**
 * The identity of a finding's row (what `--since` compares): the user for the per-user
 * findings (their detail changes every day), the project for the admins one, else the
 * principal, project and level.
 */
export function findingRowKey(id: FindingId, r: FindingRow): string {
  if (
    id === "inactive-with-write" ||
    id === "never-logged-in" ||
    id === "dormant-with-read" ||
    id === "deactivated-with-access"
  )
    return r.principal ?? "";
  if (id === "projects-under-two-admins") return r.project ?? "";
  return `${r.principal ?? ""}|${r.project ?? ""}|${r.level ?? ""}`;
}
