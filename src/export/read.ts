/**
 * Read what `phctl export` writes: one organization's customer organizations, users (with
 * their service accounts), teams and projects (detail, git group, subgroups, repositories, mirrors, artifact
 * repositories), through the plan's memoised readers so that an export costs the calls a
 * no-change plan of the exported manifests costs, and no more:
 *   organizations + users + services per user + team pages + project list
 *   + per project: detail (roles, teams, licenses, links) + artifact repositories
 *   + per project with a git group (known from the detail's links, no 404 probe):
 *     group + subgroups + repositories + mirror pages.
 * Fork sources outside the exported projects are looked up only when a fork needs one.
 * `only` narrows every list to the keys asked for (what `drift --adopt` suggests for a live
 * object no manifest declares).
 */
import type { ApiClient } from "../api/client.js";
import { userError } from "../errors.js";
import { globToRegExp } from "../engine/planner.js";
import { parentOf } from "../engine/organization-check.js";
import { ReadContext } from "../engine/read-context.js";
import {
  readArtifactRepos,
  readGroup,
  readMirrors,
  readOrganizations,
  readProject,
  readProjects,
  readRepositories,
  readSubgroups,
  readTeams,
  readUsers,
  readUserServices,
  type LiveArtifactRepo,
  type LiveGroup,
  type LiveMirror,
  type LiveProject,
  type LiveRepository,
  type LiveServices,
  type LiveSubgroup,
  type LiveTeam,
  type LiveUser,
} from "../engine/readers.js";

/** One project as read live, everything export needs to write its manifest. */
export interface ProjectSnapshot {
  detail: LiveProject;
  /** Undefined: the project has no git group (its manifest gets no `git` section). */
  group?: LiveGroup;
  subgroups: LiveSubgroup[];
  repositories: LiveRepository[];
  mirrors: LiveMirror[];
  artifacts: LiveArtifactRepo[];
}

/** A repository some fork names as its source, with the project that holds it. */
export interface ForkSource {
  project: string;
  record: LiveRepository;
}

/** The live state of one organization, as export reads it (plain data, no client). */
export interface Snapshot {
  /** The organization asked for. */
  organization: string;
  /** The token's parent organization (phctl.yaml's `organization`). */
  parent: string;
  /**
   * Customer organizations in scope, sorted: every organization under the parent when the
   * parent is exported, else the one exported (users and projects name them).
   */
  organizations: string[];
  users: { user: LiveUser; services: LiveServices | undefined }[];
  teams: LiveTeam[];
  projects: ProjectSnapshot[];
  /** Fork sources by gitRepoID: every repository read (exported projects, and sources looked up). */
  repositoriesById: Map<number, ForkSource>;
}

export interface ReadOptions {
  organization: string;
  /** Glob over project slugs (`*` within a segment); all projects when absent. */
  projects?: string;
  /**
   * Keys or globs of the top-level objects to read (`user/jdoe`, `project/tf-*`,
   * `organization/*`); everything in scope when absent. Objects not matched cost no call.
   */
  only?: readonly string[];
}

/** Does `key` match one of the `only` keys or globs (all keys when there are none)? */
export function selected(only: readonly string[] | undefined, key: string): boolean {
  return !only || only.length === 0 || only.some((g) => g === key || globToRegExp(g).test(key));
}

/** Read one organization. Throws a user error when the token does not see it. */
export async function readSnapshot(api: ApiClient, o: ReadOptions): Promise<Snapshot> {
  const ctx = new ReadContext(api);
  const orgs = await readOrganizations(ctx);
  const org = orgs.find((x) => x.name === o.organization);
  if (!org) {
    const known = orgs.map((x) => x.name).sort();
    const parent = parentOf(orgs);
    throw userError(
      "WRONG_ORGANIZATION",
      `organization ${o.organization} is not visible to this token${parent ? `, which belongs to organization ${parent}` : ""} (it sees: ${known.join(", ") || "none"}): pass --organization ${parent ?? "<one of those>"}, or use a token of ${o.organization} (PHCTL_TOKEN or --token-file); nothing was read beyond the organization list`,
    );
  }
  const parent = org.parentOrganization ?? org.name;
  // A parent organization exports everything under it; a child organization its own objects.
  const inScope = (x: { organization: string; parentOrganization?: string }) =>
    org.parentOrganization === null
      ? (x.parentOrganization ?? parent) === parent
      : x.organization === org.name;
  const wanted = o.projects ? globToRegExp(o.projects) : undefined;

  const [users, teams, list] = await Promise.all([
    readUsers(ctx),
    readTeams(ctx),
    readProjects(ctx),
  ]);
  const scopedUsers = users.filter((u) => inScope(u) && selected(o.only, `user/${u.username}`));
  const slugs = list
    .filter(
      (p) =>
        inScope(p) &&
        (!wanted || wanted.test(p.projectSlug)) &&
        selected(o.only, `project/${p.projectSlug}`),
    )
    .map((p) => p.projectSlug);
  const organizations = orgs
    .filter((x) =>
      org.parentOrganization === null ? x.parentOrganization === parent : x.name === org.name,
    )
    .map((x) => x.name)
    .filter((name) => selected(o.only, `organization/${name}`))
    .sort(cmp);

  const [withServices, projects] = await Promise.all([
    Promise.all(
      scopedUsers.map(async (user) => ({
        user,
        services: await readUserServices(ctx, user.username),
      })),
    ),
    Promise.all(slugs.map((slug) => readProjectSnapshot(ctx, slug))),
  ]);
  const present = projects.filter((p): p is ProjectSnapshot => p !== undefined);
  const repositoriesById = new Map<number, ForkSource>();
  for (const p of present)
    for (const r of p.repositories)
      repositoriesById.set(r.gitRepoID, { project: p.detail.projectSlug, record: r });
  await findForkSources(ctx, list, slugs, present, repositoriesById);
  return {
    organization: o.organization,
    parent,
    organizations,
    users: withServices.sort((a, b) => cmp(a.user.username, b.user.username)),
    teams: teams
      .filter((t) => t.parentOrganization === parent && selected(o.only, `team/${t.name}`))
      .sort((a, b) => cmp(a.name, b.name)),
    projects: present.sort((a, b) => cmp(a.detail.projectSlug, b.detail.projectSlug)),
    repositoriesById,
  };
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function readProjectSnapshot(
  ctx: ReadContext,
  slug: string,
): Promise<ProjectSnapshot | undefined> {
  const detail = await readProject(ctx, slug);
  if (!detail) return undefined;
  const hasGroup = detail.links.gitGroup !== null;
  const [group, subgroups, repositories, mirrors, artifacts] = await Promise.all([
    hasGroup ? readGroup(ctx, slug) : Promise.resolve(undefined),
    hasGroup ? readSubgroups(ctx, slug) : Promise.resolve([]),
    hasGroup ? readRepositories(ctx, slug) : Promise.resolve([]),
    hasGroup ? readMirrors(ctx, slug) : Promise.resolve([]),
    readArtifactRepos(ctx, slug),
  ]);
  return {
    detail,
    ...(group ? { group } : {}),
    subgroups,
    repositories,
    mirrors,
    artifacts,
  };
}

/**
 * Forks of repositories outside the exported projects (`--projects`, or another organization
 * of the parent): read the other projects' repository lists, one project at a time, until
 * every source is found. Costs nothing when every source was read already.
 */
async function findForkSources(
  ctx: ReadContext,
  list: readonly { projectSlug: string }[],
  exported: readonly string[],
  projects: readonly ProjectSnapshot[],
  byId: Map<number, ForkSource>,
): Promise<void> {
  const missing = () =>
    projects.some((p) =>
      p.repositories.some((r) => r.gitSourceRepoID !== 0 && !byId.has(r.gitSourceRepoID)),
    );
  const done = new Set(exported);
  for (const { projectSlug } of list) {
    if (!missing()) return;
    if (done.has(projectSlug)) continue;
    for (const r of await readRepositories(ctx, projectSlug))
      byId.set(r.gitRepoID, { project: projectSlug, record: r });
  }
}
