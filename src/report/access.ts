/**
 * The access review from what was read live (access-read.ts) and what the manifests
 * declare: every principal × project with its level and how it is held, each user's last
 * login, each project's admins, and the findings (findings.ts). Pure: the clock is given.
 *
 * How access is held:
 * - direct: the user is on one of the project's six lists (roles);
 * - organizationTeam: the organization team is on the project's maintainers, developers or
 *   reporters (the API does not list an organization team's members: the team is the
 *   principal);
 * - userTeam: the user is a member of a user team whose projects include this one. The API
 *   names no level for a user team's projects: the row's level is `member`, graded read.
 *
 * A user's rows and their line in the users table carry the user's display name and e-mail
 * from the users list already read (no call per user), and every row the day a review first
 * saw it (access-since.ts: the API gives no grant date).
 */
import type { AccessLevel } from "../api/schemas.js";
import { AccessLevels, TeamLevels } from "../api/schemas.js";
import type {
  LiveOrganization,
  LiveOrgTeam,
  LiveProject,
  LiveTeam,
  LiveUser,
} from "../engine/readers.js";
import { grantExpiries } from "../expiry/index.js";
import type { DesiredState } from "../manifest/types.js";
import { earliestSince, setSince, type SeenBefore } from "./access-since.js";
import { findings } from "./findings.js";
import { failuresThatMatter, lastLoginOf, loginFailureWords, type LoginsRead } from "./logins.js";
import { daysSince } from "./span.js";
import type { AccessProject, AccessRow, AccessUser, Finding, Grade } from "./types.js";

/** The level of a user team's projects (the API names none). */
export const TEAM_MEMBER_LEVEL = "member";

const GRADE_OF: Record<AccessLevel | typeof TEAM_MEMBER_LEVEL, Grade> = {
  admins: "admin",
  controllers: "write",
  editors: "write",
  maintainers: "write",
  developers: "write",
  reporters: "read",
  member: "read",
};
const RANK: Record<Grade, number> = { read: 1, write: 2, admin: 3 };

/** The grade of a level (admin, write, read). */
export const gradeOf = (level: string): Grade => GRADE_OF[level as keyof typeof GRADE_OF] ?? "read";

/** The higher of two grades. */
export const higher = (a: Grade | null, b: Grade): Grade =>
  a === null || RANK[b] > RANK[a] ? b : a;

/** What the access review is made from. */
export interface AccessInput {
  state: DesiredState;
  parentOrganization: string;
  organizations: readonly LiveOrganization[];
  users: readonly LiveUser[];
  /** The last-login searches: what they answered and which failed (logins.ts). */
  logins: LoginsRead;
  teams: readonly LiveTeam[];
  orgTeams: readonly LiveOrgTeam[];
  projects: readonly LiveProject[];
  nowMs: number;
  inactiveDays: number;
  /** Username globs of service accounts (`*` matches any run of characters). */
  serviceAccountPatterns: readonly string[];
  /** The review given with `--since`: its rows' first-seen days are carried. */
  previous?: SeenBefore;
}

/** The access review's tables and findings. */
export interface AccessData {
  rows: AccessRow[];
  users: AccessUser[];
  projects: AccessProject[];
  findings: Finding[];
}

/** A username glob as a regular expression (`*` any run, case-insensitive). */
export function globMatcher(patterns: readonly string[]): (name: string) => boolean {
  const res = patterns.map(
    (p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`, "i"),
  );
  return (name) => res.some((r) => r.test(name));
}

/** Declared access, as sets of `slug|level|name` keys. */
function declaredSets(state: DesiredState) {
  const users = new Set<string>();
  const orgTeams = new Set<string>();
  for (const p of state.projects)
    for (const level of AccessLevels) {
      for (const u of p.access[level].users) users.add(`${p.slug}|${level}|${u}`);
      for (const t of p.access[level].organizationTeams) orgTeams.add(`${p.slug}|${level}|${t}`);
    }
  const members = new Set(state.teams.flatMap((t) => t.members.map((m) => `${t.name}|${m}`)));
  return { users, orgTeams, members, projects: new Set(state.projects.map((p) => p.slug)) };
}

const compareRows = (a: AccessRow, b: AccessRow) =>
  a.project.localeCompare(b.project) ||
  AccessLevels.indexOf(a.level as AccessLevel) - AccessLevels.indexOf(b.level as AccessLevel) ||
  a.principal.localeCompare(b.principal) ||
  (a.via.team ?? "").localeCompare(b.via.team ?? "");

/** The user's display name (or first and last name) and e-mail, those the API gave. */
function identity(u: LiveUser | undefined): { name?: string; email?: string } {
  if (u === undefined) return {};
  const name = u.displayName || [u.firstName, u.lastName].filter(Boolean).join(" ");
  return { ...(name ? { name } : {}), ...(u.email ? { email: u.email } : {}) };
}

/** A deactivated account: status inactive (phctl's field) or `active` "false" (the spec's). */
export const isDeactivated = (u: LiveUser): boolean =>
  u.status === "inactive" || String(u.active) === "false";

/** Why some last logins are unknown (the searches that failed), or undefined: all known. */
function unknownLogins(input: AccessInput) {
  const failed = failuresThatMatter(input.logins, input.users);
  return failed.length === 0
    ? undefined
    : { organizations: failed.map((f) => f.organization), reason: loginFailureWords(failed) };
}

/**
 * The last day the manifests grant a row's access (src/expiry): the grant's own `expires`,
 * the team membership's for a user team's row, and the user's own — the earliest of those
 * that apply. No row gets a date the manifests do not write.
 */
function grantEnds(state: DesiredState) {
  const e = grantExpiries(state);
  const earliest = (...days: (string | undefined)[]) =>
    days.filter((d): d is string => d !== undefined).sort()[0];
  return {
    of(slug: string, level: string, who: string, via: AccessRow["via"]): { expires?: string } {
      const own = e.projects
        .get(slug)
        ?.get(who)
        ?.find((g) => g.level === level)?.expires;
      const member =
        via.kind === "userTeam" && via.team !== undefined && who.startsWith("user/")
          ? e.teams.get(via.team)?.get(who.slice("user/".length))
          : undefined;
      const user = who.startsWith("user/") ? e.users.get(who.slice("user/".length)) : undefined;
      const day = earliest(via.kind === "userTeam" ? undefined : own, member, user);
      return day === undefined ? {} : { expires: day };
    },
  };
}

/** Build the access review's tables and findings. */
export function buildAccess(input: AccessInput): AccessData {
  const declared = declaredSets(input.state);
  const userByName = new Map(input.users.map((u) => [u.username, u]));
  const orgTeamOrg = new Map(input.orgTeams.map((t) => [t.path, t.org_name]));
  const login = (username: string): Pick<AccessRow, "lastLogin"> => {
    const u = userByName.get(username);
    const last = u === undefined ? undefined : lastLoginOf(input.logins, u);
    return last === undefined ? {} : { lastLogin: last };
  };
  const rows: AccessRow[] = [];
  const ends = grantEnds(input.state);
  const userRow = (
    username: string,
    p: LiveProject,
    level: string,
    via: AccessRow["via"],
    isDeclared: boolean,
  ) =>
    rows.push({
      principal: username,
      principalKind: "user",
      organization: userByName.get(username)?.organization ?? null,
      project: p.projectSlug,
      projectOrganization: p.organization,
      level,
      grade: gradeOf(level),
      via,
      declared: isDeclared,
      ...login(username),
      ...identity(userByName.get(username)),
      ...ends.of(p.projectSlug, level, `user/${username}`, via),
    });

  for (const p of input.projects) {
    for (const level of AccessLevels)
      for (const u of p.roles[level])
        userRow(
          u,
          p,
          level,
          { kind: "direct" },
          declared.users.has(`${p.projectSlug}|${level}|${u}`),
        );
    for (const level of TeamLevels)
      for (const t of p.roles.organizationTeams[level])
        rows.push({
          principal: t,
          principalKind: "organizationTeam",
          organization: orgTeamOrg.get(t) ?? null,
          project: p.projectSlug,
          projectOrganization: p.organization,
          level,
          grade: gradeOf(level),
          via: { kind: "organizationTeam", team: t },
          declared: declared.orgTeams.has(`${p.projectSlug}|${level}|${t}`),
          ...ends.of(p.projectSlug, level, `team/${t}`, { kind: "organizationTeam", team: t }),
        });
  }
  const bySlug = new Map(input.projects.map((p) => [p.projectSlug, p]));
  for (const team of input.teams)
    for (const slug of team.projects) {
      const p = bySlug.get(slug);
      if (!p) continue;
      for (const u of team.userNames)
        userRow(
          u,
          p,
          TEAM_MEMBER_LEVEL,
          { kind: "userTeam", team: team.name },
          declared.members.has(`${team.name}|${u}`),
        );
    }
  rows.sort(compareRows);
  setSince(rows, new Date(input.nowMs).toISOString().slice(0, 10), input.previous);
  const since = earliestSince(rows);

  const isService = globMatcher(input.serviceAccountPatterns);
  const reach = new Map<string, { projects: Set<string>; highest: Grade | null }>();
  for (const r of rows) {
    if (r.principalKind !== "user") continue;
    const x = reach.get(r.principal) ?? { projects: new Set<string>(), highest: null };
    x.projects.add(r.project);
    x.highest = higher(x.highest, r.grade);
    reach.set(r.principal, x);
  }
  const declaredUsers = new Set(input.state.users.map((u) => u.username));
  const users: AccessUser[] = input.users
    .map((u): AccessUser => {
      const last = lastLoginOf(input.logins, u);
      return {
        username: u.username,
        organization: u.organization,
        role: u.role,
        status: u.status,
        declared: declaredUsers.has(u.username),
        serviceAccount: isService(u.username),
        ...(last === undefined
          ? {}
          : {
              lastLogin: last,
              daysSinceLogin: last === null ? null : daysSince(last, input.nowMs),
            }),
        projects: reach.get(u.username)?.projects.size ?? 0,
        highest: reach.get(u.username)?.highest ?? null,
        ...identity(u),
        deactivated: isDeactivated(u),
        ...(since.has(u.username)
          ? { accessSince: since.get(u.username)!, sinceBasis: "first-seen" as const }
          : {}),
      };
    })
    .sort((a, b) => a.username.localeCompare(b.username));

  const principals = new Map<string, Set<string>>();
  for (const r of rows) {
    const set = principals.get(r.project) ?? new Set<string>();
    set.add(`${r.principalKind}|${r.principal}`);
    principals.set(r.project, set);
  }
  const projects: AccessProject[] = input.projects
    .map((p) => ({
      project: p.projectSlug,
      organization: p.organization,
      declared: declared.projects.has(p.projectSlug),
      admins: p.roles.admins.length,
      principals: principals.get(p.projectSlug)?.size ?? 0,
    }))
    .sort((a, b) => a.project.localeCompare(b.project));

  return {
    rows,
    users,
    projects,
    findings: findings({
      rows,
      users,
      projects,
      organizations: input.organizations,
      parentOrganization: input.parentOrganization,
      inactiveDays: input.inactiveDays,
      loginsUnknown: unknownLogins(input),
      nowMs: input.nowMs,
      created: new Map(input.users.map((u) => [u.username, u.dateCreated])),
    }),
  };
}
