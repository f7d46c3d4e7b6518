/**
 * The world the agreement test runs in: a reference server with a seeded parent
 * organization (projects with git groups, repositories, commits, mirrors, artifacts,
 * pipelines, bundles, users with accounts, teams, organization teams), and the values that
 * name its objects — the hints the arbitraries prefer, so generated requests reach past
 * "not found" into each operation's own rules.
 */
import { buildServer, type PhServer } from "../../src/server/app.js";
import type { TokenSpec } from "../../src/server/options.js";
import type { Hints } from "./openapi-arb.js";
import { SEED, SHA1 } from "./openapi-seed.js";

export const TOKENS = {
  admin: { secret: "oa-admin", role: "system-admin", parentOrganization: "acme" },
  member: { secret: "oa-member", role: "member", parentOrganization: "acme" },
} as const satisfies Record<string, TokenSpec>;

export interface World {
  server: PhServer;
  hints: Record<string, unknown[]>;
  /** Hints per operation, over the shared ones. */
  opHints: Record<string, Hints>;
}

type Get = (url: string) => Promise<any>;

export async function startWorld(): Promise<World> {
  const server = await buildServer({
    tokens: Object.values(TOKENS),
    checkResponses: true,
    control: true,
    // Jobs stay open for the whole run: a second identical request is "already queued".
    queueDelayMs: 60_000,
  });
  const auth = { authorization: `Bearer ${TOKENS.admin.secret}` };
  const seeded = await server.app.inject({
    method: "POST",
    url: "/_control/seed",
    headers: auth,
    payload: SEED,
  });
  if (seeded.statusCode !== 200) throw new Error(`seed: ${seeded.statusCode} ${seeded.body}`);
  const get: Get = async (url) => {
    const r = await server.app.inject({ method: "GET", url, headers: auth });
    if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body}`);
    return r.json();
  };
  return { server, ...(await hintsOf(get)) };
}

async function hintsOf(get: Get): Promise<Omit<World, "server">> {
  const orgs = (await get("/v1/organization/list")) as { id: number; name: string }[];
  const orgId = (n: string) => orgs.find((o) => o.name === n)!.id;
  const teams = (await get("/v1/organization/teams?limit=100")).data as { id: string }[];
  const repos = [
    ...(await get("/v1/projects/web/git/repo?all=true")).data,
    ...(await get("/v1/projects/web/git/repo?all=true&status=deleted")).data,
  ] as {
    gitRepoID: number;
    name: string;
    httpURI: string;
    persistentStorage: { filesystemId: number } | null;
  }[];
  const app = repos.find((r) => r.name === "app")!;
  const lib = repos.find((r) => r.name === "lib")!;
  const cli = repos.find((r) => r.name === "cli")!;
  const subgroups = (await get("/v1/projects/web/git/subgroups?all=true")).data as { id: number }[];
  const group = (await get("/v1/projects/web/git/groups")).data as { id: number };
  const mirrors = (await get("/v1/projects/web/git/mirrors")).data as { mirrorID: string }[];
  const arts = (await get("/v1/projects/web/artifactservice/repos?all=true")).data as {
    id: number;
  }[];
  const bundles = (await get("/v1/projects/web/git/bundles")).data as { id: number }[];
  const pipelines = (await get("/v1/projects/web/pipelines")) as {
    id: number;
    bundleId: number | null;
  }[];
  const mirrorId = Number(mirrors[0].mirrorID);
  const day = ["2026-01-01", "2026-01-31T00:00:00Z"];
  const hints: Record<string, unknown[]> = {
    projectSlug: ["web", "web", "web", "web", "p2", "bare"],
    username: ["alice", "bob", "carol", "dave"],
    teamname: ["core"],
    parentOrganization: ["acme"],
    organization: ["acme", "acme-eu", "nowhere"],
    teamid: teams.map((t) => Number(t.id)),
    orgPathId: ["platform", "ops"],
    repoID: repos.map((r) => r.gitRepoID),
    groupID: [group.id, ...subgroups.map((s) => s.id)],
    mirrorID: [mirrorId],
    artifactRepoID: arts.map((a) => a.id),
    filePath: ["releases/a.tgz", "docs", "docs/readme.txt"],
    bundleId: bundles.map((b) => b.id),
    pipelineId: pipelines.filter((p) => p.bundleId !== null).map((p) => p.id),
    pipelinesid: pipelines.map((p) => p.id),
    filesystemId: [app.persistentStorage!.filesystemId],
    orgid: [orgId("acme-eu")],
    "queueid:entitlement": [],
    "queueid:orgTeam": [],
    "queueid:transfer": [],
    "queueid:rename": [],
    sha: [SHA1.slice(0, 7), SHA1.slice(0, 7), SHA1, "HEAD", "main"],
    id: [String(app.gitRepoID), "acme/web/app", "acme/web", String(group.id)],
    startDate: day,
    endDate: day,
    start_date: ["2026-01-01", "2024-01-01", "2026-03-01"],
    end_date: ["2026-01-31"],
    createdAt: ["2026-01-01 TO 2030-12-31", "2026-01-01"],
    last_login: ["2026-01-15", "2026-01-01 TO 2026-02-01"],
    name: ["core", "app", "cli", "app-fork", "bin", "fresh"],
    externalEmail: ["alice@example.org", "new@example.org"],
    org_id: [orgId("acme-eu"), 999_999],
    oldproject: ["old", "web"],
    repoPathFrom: [
      app.httpURI,
      lib.httpURI,
      "https://git.example.org/acme/web/nope.git",
      "ftp://x",
    ],
    repoPathNew: [null, "svc", "nope"],
    repoURLFrom: ["https://github.com/acme/web.git", "ftp://x"],
    repoURLTo: [
      "ssh://git@git.example.org/acme/web/other.git",
      "ssh://git@git.example.org/acme/web/app.git",
      "https://x.org/a.git",
    ],
    mirrorIds: [[mirrorId]],
    "mirrorIds[]": [mirrorId, 999_999],
    "userNames[]": ["alice", "nobody"],
    "environment_tiers[]": ["production"],
    "shas[]": [[SHA1, "HEAD", "zzz"]],
    destinationFilePath: ["releases/new.tgz", "releases/a.tgz", "docs", "releases/a.tgz/x", "../x"],
    sourceFilePath: ["dist/a.tgz"],
    domain: ["example.org", "Example.COM", "not a domain"],
    since: ["2026-01-01", null, "soon"],
    subGroups: ["svc", "svc/api", "new/deeper"],
    path: ["web2", "private", "svc"],
    new_name: ["acme", "acme-renamed"],
    personalProjectLimit: [1, 50],
    repoGitURL: ["https://github.com/acme/x.git", "ssh://git@x/y.git"],
    metric: ["deployment_frequency"],
    frequency: ["daily"],
  };
  const opHints: Record<string, Hints> = {
    "projects.archive": { projectSlug: ["p2", "web"] },
    "projects.restore": { projectSlug: ["web", "web", "old", "old-again"], oldproject: ["old"] },
    "projects.create": { projectSlug: ["web", "systems", "fresh"], name: ["New one", "!!!"] },
    "git.group.create": {
      projectSlug: ["bare", "bare2", "bare3", "web"],
      // A whole body (hints by the name "" are bodies): the reserved path.
      "": [{ path: "private" }],
    },
    "git.repos.commit": { repoID: [app.gitRepoID] },
    "git.repos.replace": {
      repoID: [app.gitRepoID, cli.gitRepoID],
      name: ["cli", "app", "renamed"],
    },
    "git.repos.patch": { repoID: [app.gitRepoID, cli.gitRepoID], name: ["cli", "app", "renamed"] },
    "users.git.create": {
      username: ["erin", "dave", "carol", "alice"],
      personalProjectLimit: [50, 50, 1],
    },
    "wiki.create": { projectSlug: ["p2", "web"] },
    "projects.licenses.add": { name: ["MIT", "Apache-2.0", "NOPE"] },
    "projects.licenses.remove": { name: ["MIT", "NOPE"] },
    "storage.updateStatus": { repoID: [app.gitRepoID, lib.gitRepoID] },
  };
  const jobs: Record<string, string> = {
    "users.entitlementStatus": "entitlement",
    "orgTeams.queueStatus": "orgTeam",
    "users.transferStatus": "transfer",
    "organizations.renameStatus": "rename",
  };
  // The status operations ask about the jobs answered so far (the arrays fill as the run goes).
  for (const [op, kind] of Object.entries(jobs))
    opHints[op] = { queueid: hints[`queueid:${kind}`] };
  return { hints, opHints };
}
