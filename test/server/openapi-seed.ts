/**
 * The seed of the agreement test's world (openapi-world.ts): a parent organization acme
 * with customers (one without personal projects or external contributions), organization
 * teams, users with and without accounts, a team, and projects — web with everything
 * (subgroups, repositories with commits whose shas share a prefix, a commit blocker,
 * storage, bundles, a mirror, artifacts, pipelines, a wiki), p2, groupless ones, an
 * archived one.
 */
export const SHA1 = "abcdef1234567890abcdef1234567890abcdef12";
const SHA2 = "abcdef1999999999999999999999999999999999";
const user = (username: string, organization = "acme", services = {}) => ({
  username,
  firstName: username,
  lastName: "Example",
  externalEmail: `${username}@example.org`,
  organization,
  dateLastAccessed: "2026-01-15T10:00:00.000Z",
  services,
});

export const SEED = {
  parentOrganization: "acme",
  organizations: [
    { name: "acme-eu", parent: "acme" },
    {
      name: "acme-np",
      parent: "acme",
      allowPersonalProjects: false,
      allowExternalContribution: false,
    },
  ],
  orgTeams: [
    { organization: "acme", name: "Platform", path: "platform" },
    { organization: "acme-eu", name: "Ops", path: "ops" },
  ],
  users: [
    user("alice", "acme", { git: {}, wiki: {}, artifactservice: {}, irc: {}, servicedesk: {} }),
    user("bob", "acme", { email: { mailplan: "retention" }, git: {} }),
    user("carol", "acme-np"),
    user("dave", "acme-eu", { email: { mailplan: "non-retention" }, wiki: { status: "inactive" } }),
    user("erin"),
  ],
  teams: [{ name: "core", members: ["alice"], projects: ["web"], gitservice: true }],
  projects: [
    {
      slug: "web",
      name: "Web",
      licenses: ["MIT"],
      access: { admins: ["alice"], developers: ["bob"] },
      orgTeams: { developers: ["platform"] },
      wiki: true,
      git: {
        subgroups: ["svc/api"],
        repositories: [
          {
            name: "app",
            persistentStorage: true,
            commitBlocker: { author: ["example.org"] },
            commits: [
              {
                sha: SHA1,
                title: "one",
                authorEmail: "alice@example.org",
                refs: ["main"],
                created: "2026-01-10T10:00:00.000Z",
              },
              {
                sha: SHA2,
                title: "two",
                authorEmail: "bob@example.org",
                created: "2026-01-11T10:00:00.000Z",
              },
            ],
          },
          { name: "lib", subgroup: "svc", enableForking: false },
          { name: "cli" },
          { name: "gone", status: "deleted" },
        ],
        bundles: [{ frequency: "daily" }, { frequency: "weekly", repository: "app" }],
      },
      mirrors: [
        {
          repoURLFrom: "https://github.com/acme/web.git",
          repoURLTo: "ssh://git@git.example.org/acme/web/app.git",
        },
      ],
      artifacts: [
        {
          name: "bin",
          files: [{ path: "releases/a.tgz", status: "active" }, { path: "docs/readme.txt" }],
        },
      ],
      pipelines: [
        {
          status: "success",
          ref: "main",
          sha: SHA1,
          created: "2026-01-10T10:00:00.000Z",
          duration: 60,
          bundle: true,
          jobs: [{ name: "build", stage: "build", status: "success" }],
        },
        {
          status: "failed",
          ref: "main",
          sha: SHA2,
          created: "2026-01-11T10:00:00.000Z",
          duration: 30,
        },
      ],
    },
    { slug: "p2", name: "P2", git: { repositories: [{ name: "tool" }] } },
    { slug: "bare", name: "Bare" },
    { slug: "bare2", name: "Bare 2" },
    { slug: "bare3", name: "Bare 3" },
    { slug: "old", name: "Old", status: "archived" },
  ],
};
