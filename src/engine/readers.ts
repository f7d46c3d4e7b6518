/**
 * The live reads kinds share, each memoised in the ReadContext so that a project's detail
 * (roles, licenses) or its repository list is fetched once per plan, whichever kinds use it.
 * Lists use `all=true` where the API has it, else the largest pages (the client decides).
 * Reads under a project happen only for projects that exist live (no 404 round trips).
 */
import type { Static } from "@sinclair/typebox";
import type * as S from "../api/schemas.js";
import type { ReadContext } from "./read-context.js";
import { orAbsent } from "./read-context.js";

export type LiveUser = Static<typeof S.User>;
export type LiveTeam = Static<typeof S.Team>;
export type LiveOrgTeam = Static<typeof S.OrgTeam>;
export type LiveOrganization = Static<typeof S.Organization>;
export type LiveProjectItem = Static<typeof S.ProjectListItem>;
export type LiveProject = Static<typeof S.Project>;
export type LiveGroup = Static<typeof S.GitGroup>;
export type LiveSubgroup = Static<typeof S.Subgroup>;
export type LiveRepository = Static<typeof S.Repository>;
export type LiveMirror = Static<typeof S.Mirror>;
export type LiveArtifactRepo = Static<typeof S.ArtifactRepo>;
export type LiveBundle = Static<typeof S.Bundle>;
export type LiveServices = Static<typeof S.UserServicesRecord>;

export const readOrganizations = (ctx: ReadContext): Promise<LiveOrganization[]> =>
  ctx.once("organizations", async () => ctx.count(await ctx.api.call("organizations.list")));

export const readUsers = (ctx: ReadContext): Promise<LiveUser[]> =>
  ctx.once("users", async () => ctx.count(await ctx.api.listAll("users.list")));

/** A user's service accounts (one call per user: the API has no bulk form). */
export const readUserServices = (
  ctx: ReadContext,
  username: string,
): Promise<LiveServices | undefined> =>
  ctx.once(`services/${username}`, async () => {
    const r = await orAbsent(ctx.api.call("users.services", { params: { username } }));
    return r ? ctx.count(r.data) : undefined;
  });

export const readTeams = (ctx: ReadContext): Promise<LiveTeam[]> =>
  ctx.once("teams", async () => ctx.count(await ctx.api.listAll("teams.list")));

export const readOrgTeams = (ctx: ReadContext): Promise<LiveOrgTeam[]> =>
  ctx.once("orgTeams", async () => ctx.count(await ctx.api.listAll("orgTeams.list")));

export const readLicenseCatalogue = (ctx: ReadContext): Promise<string[]> =>
  ctx.once("licenses", async () =>
    ctx.count(await ctx.api.call("licenses.list")).map((l) => l.name),
  );

export const readProjects = (ctx: ReadContext): Promise<LiveProjectItem[]> =>
  ctx.once("projects", async () => ctx.count(await ctx.api.listAll("projects.list")));

/** The live projects by slug (from the one project list call). */
export const readProjectsBySlug = (ctx: ReadContext): Promise<Map<string, LiveProjectItem>> =>
  ctx.once(
    "projectsBySlug",
    async () => new Map((await readProjects(ctx)).map((p) => [p.projectSlug, p])),
  );

/** Does the project exist live? */
export async function projectExists(ctx: ReadContext, slug: string): Promise<boolean> {
  return (await readProjectsBySlug(ctx)).has(slug);
}

/** The project's detail (roles, organization teams, licenses, links), or undefined. */
export const readProject = (ctx: ReadContext, slug: string): Promise<LiveProject | undefined> =>
  ctx.once(`project/${slug}`, async () => {
    if (!(await projectExists(ctx, slug))) return undefined;
    const r = await orAbsent(ctx.api.call("projects.get", { params: { projectSlug: slug } }));
    return r ? ctx.count(r.data) : undefined;
  });

/** The project's git group, or undefined when it does not exist (yet). */
export const readGroup = (ctx: ReadContext, slug: string): Promise<LiveGroup | undefined> =>
  ctx.once(`group/${slug}`, async () => {
    if (!(await projectExists(ctx, slug))) return undefined;
    const r = await orAbsent(ctx.api.call("git.group.get", { params: { projectSlug: slug } }));
    return r ? ctx.count(r.data) : undefined;
  });

/** Reads that need the git group: empty when there is none. */
function underGroup<T>(
  ctx: ReadContext,
  slug: string,
  name: string,
  read: () => Promise<T[]>,
): Promise<T[]> {
  return ctx.once(`${name}/${slug}`, async () =>
    (await readGroup(ctx, slug)) ? ctx.count(await read()) : [],
  );
}

export const readSubgroups = (ctx: ReadContext, slug: string): Promise<LiveSubgroup[]> =>
  underGroup(ctx, slug, "subgroups", () =>
    ctx.api.listAll("git.subgroups.list", { params: { projectSlug: slug } }),
  );

/** Live (not deleted) repositories: active and archived. */
export const readRepositories = (ctx: ReadContext, slug: string): Promise<LiveRepository[]> =>
  underGroup(ctx, slug, "repos", () =>
    ctx.api.listAll("git.repos.list", { params: { projectSlug: slug } }),
  );

export const readBundles = (ctx: ReadContext, slug: string): Promise<LiveBundle[]> =>
  underGroup(
    ctx,
    slug,
    "bundles",
    async () => (await ctx.api.call("bundles.list", { params: { projectSlug: slug } })).data,
  );

export const readMirrors = (ctx: ReadContext, slug: string): Promise<LiveMirror[]> =>
  ctx.once(`mirrors/${slug}`, async () =>
    (await projectExists(ctx, slug))
      ? ctx.count(await ctx.api.listAll("mirrors.list", { params: { projectSlug: slug } }))
      : [],
  );

export const readArtifactRepos = (ctx: ReadContext, slug: string): Promise<LiveArtifactRepo[]> =>
  ctx.once(`artifacts/${slug}`, async () =>
    (await projectExists(ctx, slug))
      ? ctx.count(await ctx.api.listAll("artifacts.repos.list", { params: { projectSlug: slug } }))
      : [],
  );
