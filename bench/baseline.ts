/**
 * The per-resource baseline: what a Terraform provider for this API does on refresh — one
 * GET per resource in its state, at concurrency 10 (Terraform's default parallelism). The
 * resources are the objects phctl gives a key to (src/manifest/keys.ts), the way the gitlab
 * and github providers model memberships and access entries as resources of their own
 * (`gitlab_project_membership`, `github_team_membership`), each refreshed by its own Read.
 * Each path is the one that Read would use: the object's GET where the API has one, else the
 * parent's list that contains it (bench/README.md, "Baseline").
 */
import { ApiClient } from "../src/api/client.js";
import { KIND_OF, ORG, subgroupPaths, type Counts, type Organization } from "./generate.js";

export const BASELINE_CONCURRENCY = 10;

const times = (n: number, path: string): string[] => Array.from({ length: n }, () => path);

/** One GET per resource, by category of `Counts`. */
export type BaselinePaths = Record<keyof Counts, string[]>;

/**
 * The paths of the refresh. Ids (repositories, mirrors, artifact repositories) are read
 * beforehand and not measured, as such a tool keeps them in its state.
 */
export async function baselinePaths(org: Organization, api: ApiClient): Promise<BaselinePaths> {
  const p = Object.fromEntries(
    Object.keys(KIND_OF).map((k) => [k, []]),
  ) as unknown as BaselinePaths;
  for (const u of org.seed.users ?? []) {
    p.users.push(`/v1/users/${u.username}`);
    for (const service of Object.keys(u.services ?? {}))
      p.userServices.push(`/v1/users/${u.username}/${service}`);
  }
  const inOrg = `parentOrganization=${ORG}`;
  for (const t of org.seed.teams ?? []) {
    p.teams.push(`/v1/teams/${t.name}?${inOrg}`);
    // No GET of one membership: the team's member list, once per membership.
    p.teamMembers.push(...times(t.members?.length ?? 0, `/v1/teams/${t.name}/users?${inOrg}`));
  }
  const ids = await Promise.all(
    (org.seed.projects ?? []).map(async (x) => {
      const P = `/v1/projects/${x.slug}`;
      const [repos, mirrors, arts] = (await Promise.all([
        api.rawAll(`${P}/git/repo`),
        api.rawAll(`${P}/git/mirrors`),
        api.rawAll(`${P}/artifactservice/repos`),
      ])) as [{ gitRepoID: number }[], { mirrorID: string }[], { id: number }[]];
      return { x, P, repos, mirrors, arts };
    }),
  );
  for (const { x, P, repos, mirrors, arts } of ids) {
    p.projects.push(P);
    // No GET of one access entry: the level's member list, once per entry.
    for (const [level, users] of Object.entries(x.access ?? {}))
      p.accessEntries.push(...times(users.length, `${P}/${level}`));
    // No GET of one license: the project's license list, once per license.
    p.projectLicenses.push(...times(x.licenses?.length ?? 0, `${P}/licenses`));
    p.gitGroups.push(`${P}/git/groups`);
    // No GET of one subgroup: the subgroup list, once per subgroup.
    p.subgroups.push(...times(subgroupPaths(x.git?.subgroups ?? []).length, `${P}/git/subgroups`));
    for (const r of repos) p.repositories.push(`${P}/git/repo/${r.gitRepoID}`);
    for (const m of mirrors) p.mirrors.push(`${P}/git/mirrors/${m.mirrorID}`);
    for (const a of arts) p.artifactRepositories.push(`${P}/artifactservice/repo/${a.id}`);
  }
  return p;
}

/** One refresh: every path once, concurrency 10; resolves to its wall time, ms. */
export async function runBaseline(
  paths: BaselinePaths,
  apiUrl: string,
  token: string,
): Promise<number> {
  const client = new ApiClient({ apiUrl, token, concurrency: BASELINE_CONCURRENCY });
  const started = performance.now();
  try {
    await Promise.all(
      Object.values(paths)
        .flat()
        .map(async (path) => {
          const r = await client.raw("GET", path);
          if (r.status !== 200) throw new Error(`baseline GET ${path}: ${r.status}`);
        }),
    );
    return performance.now() - started;
  } finally {
    await client.close();
  }
}
