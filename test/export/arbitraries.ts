/**
 * Random small organizations as seed documents (users with accounts, teams, projects with
 * access, subgroups, repositories, forks, mirrors, artifact repositories): what the export
 * property tests seed.
 */
import fc from "fast-check";
import type { SeedDocument, SeedProject, SeedUser } from "../../src/server/seed.js";

const name = fc.constantFrom("alpha", "beta", "gamma", "delta", "omega");
const tristate = fc.constantFrom("enabled", "private", "disabled" as const);
const bool = fc.boolean();

const user = (i: number): fc.Arbitrary<SeedUser> =>
  fc
    .record({
      role: fc.constantFrom("member", "projects-admin", "users-admin" as const),
      status: fc.constantFrom("active", "inactive" as const),
      git: fc.option(fc.record({ status: fc.constantFrom("active", "inactive") }), {
        nil: undefined,
      }),
      wiki: fc.option(fc.constant({}), { nil: undefined }),
      displayName: fc.option(fc.constant(`Nick ${i}`), { nil: undefined }),
      partner: bool,
    })
    .map((u) => ({
      username: `user${i}`,
      firstName: "First",
      lastName: `Last${i}`,
      externalEmail: `user${i}@example.org`,
      role: u.role,
      status: u.status,
      ...(u.displayName ? { displayName: u.displayName } : {}),
      ...(u.partner ? { organization: "acme-partner" } : {}),
      services: { ...(u.git ? { git: u.git } : {}), ...(u.wiki ? { wiki: u.wiki } : {}) },
    }));

const repo = fc.record({
  name,
  subgroup: fc.constantFrom("", "docs", "tools/ci"),
  issueTracking: tristate,
  mergeRequests: tristate,
  requiresDCO: bool,
  enableLFS: bool,
  status: fc.constantFrom("active", "archived" as const),
});

const project = (i: number, users: number): fc.Arbitrary<SeedProject> =>
  fc
    .record({
      visibility: fc.constantFrom("public", "private" as const),
      status: fc.constantFrom("active", "archived" as const),
      git: bool,
      repos: fc.uniqueArray(repo, { maxLength: 3, selector: (r) => `${r.subgroup}/${r.name}` }),
      admins: fc.subarray([...Array(users).keys()]),
      developers: fc.subarray([...Array(users).keys()]),
      mirrorEnabled: fc.option(bool, { nil: undefined }),
      artifacts: fc.subarray(["releases", "nightly"]),
      team: bool,
    })
    .map((p) => {
      const slug = `p${i}`;
      const repos = p.repos;
      const first = repos[0];
      return {
        slug,
        name: `Project ${i}`,
        visibility: p.visibility,
        status: p.status,
        access: {
          admins: p.admins.map((u) => `user${u}`),
          developers: p.developers.map((u) => `user${u}`),
        },
        ...(p.team ? { orgTeams: { maintainers: ["acme/leads"] } } : {}),
        ...(p.git
          ? {
              git: {
                subgroups: ["docs", "tools/ci"],
                repositories: [
                  ...repos,
                  ...(i > 0
                    ? [{ name: "fork", forkOf: { project: "p0", name: "base" } }]
                    : [{ name: "base" }]),
                ],
              },
              ...(first && p.mirrorEnabled !== undefined
                ? {
                    mirrors: [
                      {
                        repoURLFrom: `https://github.com/example/${slug}.git`,
                        repoURLTo: `ssh://git@git.example.org/acme/${p.visibility === "private" ? "private/" : ""}${slug}/${first.subgroup ? `${first.subgroup}/` : ""}${first.name}.git`,
                        refSpaceFrom: "refs/heads/*",
                        refSpaceTo: "refs/heads/*",
                        frequency: "daily" as const,
                        enabled: p.mirrorEnabled,
                      },
                    ],
                  }
                : {}),
            }
          : {}),
        artifacts: p.artifacts.map((n) => ({ name: n })),
      };
    });

/** A random organization: 1–4 users, 1–3 projects, a team, a partner organization. */
export const organization: fc.Arbitrary<SeedDocument> = fc
  .record({ users: fc.integer({ min: 1, max: 4 }), projects: fc.integer({ min: 1, max: 3 }) })
  .chain(({ users, projects }) =>
    fc.record({
      users: fc.tuple(...[...Array(users).keys()].map(user)),
      projects: fc.tuple(...[...Array(projects).keys()].map((i) => project(i, users))),
      teamMembers: fc.subarray([...Array(users).keys()]),
    }),
  )
  .map(({ users, projects, teamMembers }) => {
    // p0 holds the fork source `base` whenever another project forks it.
    const p0 = projects[0];
    if (projects.some((p) => p.git) && !p0.git) p0.git = { repositories: [{ name: "base" }] };
    return {
      parentOrganization: "acme",
      organizations: [{ name: "acme-partner", parent: "acme" }],
      orgTeams: [{ organization: "acme", name: "Leads", path: "acme/leads" }],
      users,
      teams: [{ name: "team", wiki: true, members: teamMembers.map((u) => `user${u}`) }],
      projects,
    };
  });
