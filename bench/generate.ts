/**
 * Synthetic organizations for the benchmarks: the same organization as a seed document (for
 * `phctl serve --seed` / `seed()`) and as manifest files, exactly in sync — a no-change plan
 * of one against the other is empty.
 *
 * Every project has a git group, 3 subgroups (`docs`, `tools` and `tools/ci` in it),
 * repositories spread over them, one mirror, one artifact repository, a license and access
 * lists (admins, maintainers, developers, reporters). Every user has a git account; teams
 * have members. `Counts` are the resources (every keyed object), by category.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadManifestTexts } from "../src/pipeline/load.js";
import type { DesiredState } from "../src/manifest/types.js";
import type {
  SeedDocument,
  SeedProject,
  SeedRepository,
  SeedTeam,
  SeedUser,
} from "../src/server/seed.js";

export type Size = "S" | "M" | "L";

export interface Shape {
  users: number;
  teams: number;
  projects: number;
  /** Total repositories (spread evenly over the projects). */
  repos: number;
}

export const SIZES: Record<Size, Shape> = {
  S: { users: 200, teams: 10, projects: 50, repos: 500 },
  M: { users: 2_000, teams: 50, projects: 500, repos: 5_000 },
  L: { users: 10_000, teams: 200, projects: 2_000, repos: 20_000 },
};

export const ORG = "acme";
const SUBGROUPS = ["docs", "tools/ci"];
const MIRRORS_PER_PROJECT = 1;
/** Access levels whose adds are queued (src/kinds/project-access.ts QUEUED_LEVELS). */
const QUEUED_LEVELS = ["maintainers", "developers", "reporters"] as const;
const ARTIFACTS_PER_PROJECT = 1;

/**
 * The resources of an organization: every object phctl gives a key to (src/manifest/keys.ts),
 * which is also what a Terraform provider for this API would hold in its state, one
 * resource each (bench/README.md, "Baseline").
 */
export interface Counts {
  users: number;
  /** One per declared service account (`user/<u>/service/git`). */
  userServices: number;
  teams: number;
  /** `team/<t>/member/<u>`. */
  teamMembers: number;
  projects: number;
  /** `project/<p>/access/<level>/user/<u>`. */
  accessEntries: number;
  /** `project/<p>/license/<id>`. */
  projectLicenses: number;
  gitGroups: number;
  subgroups: number;
  repositories: number;
  mirrors: number;
  artifactRepositories: number;
}

/** The phctl kind (src/kinds/*) of each category of `Counts`. */
export const KIND_OF: Record<keyof Counts, string> = {
  users: "User",
  userServices: "UserService",
  teams: "Team",
  teamMembers: "TeamMember",
  projects: "Project",
  accessEntries: "ProjectAccess",
  projectLicenses: "ProjectLicense",
  gitGroups: "GitGroup",
  subgroups: "Subgroup",
  repositories: "Repository",
  mirrors: "Mirror",
  artifactRepositories: "ArtifactRepo",
};

/** Categories of objects with an identity of their own in the API (ids, a GET of their own). */
export const IDENTITY: readonly (keyof Counts)[] = [
  "users",
  "teams",
  "projects",
  "gitGroups",
  "subgroups",
  "repositories",
  "mirrors",
  "artifactRepositories",
];

export interface Organization {
  shape: Shape;
  seed: SeedDocument;
  /** Manifest files relative to the manifest root, phctl.yaml included. */
  files: { file: string; content: string }[];
  counts: Counts;
  /** Resources: the sum of `counts` (every keyed object; what the baseline refreshes). */
  resources: number;
  /** The `IDENTITY` part of `counts`: users, teams, projects, groups, subgroups, repos, … */
  identityObjects: number;
  /** The fewest calls the API allows for a no-change plan of this organization (README). */
  callsMin: number;
  /** The fewest calls an export of this organization needs (README). */
  exportCallsMin: number;
  /**
   * Creates that go through the entitlement queue (apply waits for the job): git service
   * accounts, and access at maintainers, developers and reporters (admins are immediate).
   */
  queuedJobs: number;
}

export const slugOf = (p: number) => `p${p}`;
const userOf = (i: number) => `user${i}`;

/**
 * Every subgroup a list of paths makes: `tools/ci` is a subgroup `ci` in a subgroup `tools`,
 * and phctl manages both (`project/<p>/subgroup/tools`, `…/subgroup/tools/ci`).
 */
export function subgroupPaths(paths: readonly string[]): string[] {
  const all = new Set<string>();
  for (const p of paths) {
    const parts = p.split("/");
    for (let i = 1; i <= parts.length; i++) all.add(parts.slice(0, i).join("/"));
  }
  return [...all];
}

/** Repository `r` of a project: subgroup and name. */
function repoOf(r: number): { name: string; subgroup: string } {
  if (r === 0) return { name: "main", subgroup: "" };
  const where = r % 5 === 1 ? "docs" : r % 5 === 2 ? "tools/ci" : "";
  return { name: `repo${r}`, subgroup: where };
}

/** calls_min of a no-change plan (see bench/README.md). */
export function callsMin(c: {
  users: number;
  teams: number;
  projects: number;
  mirrorsPerProject: number;
}): number {
  return (
    1 + // organization list
    1 + // user list (all=true)
    c.users + // one service read per declared user with services
    Math.ceil(c.teams / 100) + // team pages
    1 + // project list (all=true)
    1 + // license catalogue
    c.projects * (5 + Math.max(1, Math.ceil(c.mirrorsPerProject / 100)))
  );
}

/**
 * calls_min of an export (see bench/README.md): what a no-change plan reads, but no license
 * catalogue, and every user of the organization has its services read (export cannot know
 * which have any).
 */
export function exportCallsMin(c: Parameters<typeof callsMin>[0]): number {
  return callsMin(c) - 1;
}

/**
 * calls_min of `phctl report access`: the organizations, users, team pages, organization
 * teams and projects listed once each; one detail read per project (its access lists and
 * organization teams, as plan reads them); one last-login search per organization.
 */
export function accessReportCallsMin(c: {
  teams: number;
  projects: number;
  organizations: number;
}): number {
  return 1 + 1 + Math.ceil(c.teams / 100) + 1 + 1 + c.projects + c.organizations;
}

/** Options of `generate()`; the benchmark's organizations use none. */
export interface GenerateOptions {
  /** Declare every user with `sendWelcome: true` (bench/crash.ts); the seed is unchanged. */
  sendWelcome?: boolean;
  /**
   * Seed synthetic activity with this PRNG seed (src/server/activity.ts): last logins spread
   * over a year (some never) and pipelines over 90 days, hence DORA series — what the report
   * benchmark reads. The manifests are unchanged.
   */
  activity?: number;
}

export function generate(shape: Shape, options: GenerateOptions = {}): Organization {
  const welcome = options.sendWelcome ? "  sendWelcome: true\n" : "";
  const users: SeedUser[] = [];
  const userDocs: string[] = [];
  for (let i = 0; i < shape.users; i++) {
    const u = userOf(i);
    users.push({
      username: u,
      firstName: `F${i}`,
      lastName: `L${i}`,
      externalEmail: `${u}@example.org`,
      services: { git: { status: "active" } },
    });
    userDocs.push(
      `apiVersion: phctl/v1\nkind: User\nmetadata: { name: ${u} }\nspec:\n  firstName: F${i}\n  lastName: L${i}\n  externalEmail: ${u}@example.org\n${welcome}  services:\n    git: { status: active }\n`,
    );
  }

  const teams: SeedTeam[] = [];
  const teamDocs: string[] = [];
  const perTeam = Math.min(50, Math.max(2, Math.floor(shape.users / shape.teams)));
  for (let t = 0; t < shape.teams; t++) {
    const members = Array.from({ length: perTeam }, (_, k) =>
      userOf((t * perTeam + k) % shape.users),
    );
    const unique = [...new Set(members)];
    teams.push({
      name: `team${t}`,
      gitservice: true,
      artifactservice: false,
      wiki: false,
      members: unique,
    });
    teamDocs.push(
      `apiVersion: phctl/v1\nkind: Team\nmetadata: { name: team${t} }\nspec:\n  services: { gitservice: true, artifactservice: false, wiki: false }\n  members: [${unique.join(", ")}]\n`,
    );
  }

  const reposPerProject = Math.max(1, Math.round(shape.repos / shape.projects));
  const projects: SeedProject[] = [];
  const projectFiles: { file: string; content: string }[] = [];
  const u = (i: number) => userOf(i % shape.users);
  for (let p = 0; p < shape.projects; p++) {
    const slug = slugOf(p);
    const access = {
      admins: [u(p)],
      maintainers: [u(p + 1), u(p + 2)],
      developers: [u(p + 3), u(p + 4)],
      reporters: [u(p + 5)],
    };
    const repos: SeedRepository[] = [];
    const repoLines: string[] = [];
    for (let r = 0; r < reposPerProject; r++) {
      const { name, subgroup } = repoOf(r);
      if (r === 0) {
        repos.push({ name, issueTracking: "enabled", mergeRequests: "enabled" });
        repoLines.push(`      - { name: ${name}, issueTracking: enabled, mergeRequests: enabled }`);
      } else {
        repos.push(subgroup ? { name, subgroup } : { name });
        repoLines.push(`      - { name: ${name}${subgroup ? `, subgroup: ${subgroup}` : ""} }`);
      }
    }
    const mirrors = Array.from({ length: MIRRORS_PER_PROJECT }, (_, m) => ({
      repoURLFrom: `https://github.com/example/${slug}-${m}.git`,
      repoURLTo: `ssh://git@git.example.org/${ORG}/${slug}/main.git`,
      refSpaceFrom: "refs/heads/*",
      refSpaceTo: "refs/heads/*",
      frequency: "daily" as const,
    }));
    const artifacts = Array.from({ length: ARTIFACTS_PER_PROJECT }, (_, a) => ({
      name: `releases${a}`,
      repoType: "generic",
    }));
    projects.push({
      slug,
      name: `Project ${p}`,
      description: `Project number ${p}`,
      licenses: ["Apache-2.0"],
      access,
      git: { path: slug, subgroups: SUBGROUPS, repositories: repos },
      mirrors,
      artifacts,
    });
    projectFiles.push({
      file: `projects/${slug}.yaml`,
      content: `apiVersion: phctl/v1
kind: Project
metadata: { name: ${slug} }
spec:
  title: Project ${p}
  description: Project number ${p}
  licenses: [Apache-2.0]
  access:
    admins: [${access.admins.join(", ")}]
    maintainers: [${access.maintainers.join(", ")}]
    developers: [${access.developers.join(", ")}]
    reporters: [${access.reporters.join(", ")}]
  git:
    group: { path: ${slug} }
    subgroups: [${SUBGROUPS.join(", ")}]
    repositories:
${repoLines.join("\n")}
    mirrors:
${mirrors
  .map(
    (m) =>
      `      - { from: "${m.repoURLFrom}", to: "${m.repoURLTo}", refSpaceFrom: "refs/heads/*", refSpaceTo: "refs/heads/*", frequency: daily }`,
  )
  .join("\n")}
  artifacts:
    repositories:
${artifacts.map((a) => `      - { name: ${a.name}, type: generic }`).join("\n")}
`,
    });
  }

  const sum = <T>(xs: readonly T[], f: (x: T) => number) => xs.reduce((a, x) => a + f(x), 0);
  const counts: Counts = {
    users: users.length,
    userServices: sum(users, (x) => Object.keys(x.services ?? {}).length),
    teams: teams.length,
    teamMembers: sum(teams, (t) => t.members?.length ?? 0),
    projects: projects.length,
    accessEntries: sum(projects, (p) => sum(Object.values(p.access ?? {}), (l) => l.length)),
    projectLicenses: sum(projects, (p) => p.licenses?.length ?? 0),
    gitGroups: projects.length,
    subgroups: sum(projects, (p) => subgroupPaths(p.git?.subgroups ?? []).length),
    repositories: sum(projects, (p) => p.git?.repositories?.length ?? 0),
    mirrors: sum(projects, (p) => p.mirrors?.length ?? 0),
    artifactRepositories: sum(projects, (p) => p.artifacts?.length ?? 0),
  };
  const shapeOfCalls = {
    users: shape.users,
    teams: shape.teams,
    projects: shape.projects,
    mirrorsPerProject: MIRRORS_PER_PROJECT,
  };
  return {
    shape,
    seed: {
      parentOrganization: ORG,
      users,
      teams,
      projects,
      ...(options.activity !== undefined ? { activity: { seed: options.activity } } : {}),
    },
    files: [
      { file: "phctl.yaml", content: `organization: ${ORG}\n` },
      { file: "users.yaml", content: userDocs.join("---\n") },
      { file: "teams.yaml", content: teamDocs.join("---\n") },
      ...projectFiles,
    ],
    counts,
    resources: Object.values(counts).reduce((a, b) => a + b, 0),
    identityObjects: sum(IDENTITY, (k) => counts[k]),
    callsMin: callsMin(shapeOfCalls),
    exportCallsMin: exportCallsMin(shapeOfCalls),
    queuedJobs:
      counts.userServices +
      sum(projects, (p) => sum(QUEUED_LEVELS, (l) => p.access?.[l]?.length ?? 0)),
  };
}

/** Write the manifests and the seed document (seed.json) under a new temp directory. */
export function writeOrganization(org: Organization, dir?: string): { dir: string; seed: string } {
  const root = dir ?? mkdtempSync(join(tmpdir(), "phctl-bench-"));
  const manifests = join(root, "manifests");
  for (const f of org.files) {
    const path = join(manifests, f.file);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, f.content);
  }
  const seed = join(root, "seed.json");
  writeFileSync(seed, JSON.stringify(org.seed));
  return { dir: manifests, seed };
}

/** The organization's manifests loaded in this process (what phctl would plan from). */
export function desiredState(org: Organization): DesiredState {
  const { state, diagnostics } = loadManifestTexts(
    org.files.map((f) => (f.file === "phctl.yaml" ? { ...f, config: true } : f)),
  );
  if (!state) throw new Error(`generated manifests do not load: ${JSON.stringify(diagnostics[0])}`);
  return state;
}

/**
 * The same manifests with an `expires:` (far ahead: none due, none ending soon) on one
 * developer and one reporter of every project and one member of every team.
 */
export function withExpiries(text: string, date = "2099-12-31"): string {
  return text
    .replace(/^(\s+developers: \[)([^,\]]+)/gm, `$1{ user: $2, expires: ${date} }`)
    .replace(/^(\s+reporters: \[)([^,\]]+)/gm, `$1{ user: $2, expires: ${date} }`)
    .replace(/^(\s+members: \[)([^,\]]+)/gm, `$1{ user: $2, expires: ${date} }`);
}
