/**
 * `phctl report access --propose` end to end: the built CLI against the reference server on
 * loopback (seeded with last logins) and the fake GitHub or GitLab (GITHUB_API_URL,
 * CI_API_V4_URL) holding the config's repository. Findings become one pull/merge request per
 * project — the grant removed or declared in place, every other line as it was, the
 * project's admins as reviewers, the label, the finding in the body — and a second run sends
 * no write; a changed finding refreshes the open request instead of opening another; a
 * grant a Defaults layer gives is removed by an override in the project's own file;
 * `--dry-run` sends nothing; and the service sees exactly the access review's calls.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed, type SeedUser } from "../../src/server/seed.js";
import { phctl } from "../helpers/cli.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { GITLAB_TOKENS, startFakeGitLab, type FakeGitLab } from "../helpers/fake-gitlab.js";
import type { LoggedRequest } from "../helpers/fake-platform.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const DAY = 86_400_000;
const REVIEW_TOKEN = {
  secret: "propose-token-41c9e2",
  role: "system-admin",
  parentOrganization: "acme",
} as const;
const ago = (days: number) =>
  new Date(Date.now() - days * DAY).toISOString().replace(/\.\d{3}Z$/, "Z");
const user = (username: string, days: number): SeedUser => ({
  username,
  firstName: username,
  lastName: "Test",
  externalEmail: `${username}@example.org`,
  dateLastAccessed: ago(days),
});
const LABEL = "phctl-access-review";
const REPO = "acme/config";

const PROJECT = (slug: string, access: string, extra = "") => `apiVersion: phctl/v1
kind: Project
metadata:
  name: ${slug}${extra}
spec:
  title: ${slug.toUpperCase()} # the ${slug} project
  access:
${access}`;

const FILES = {
  "config/phctl.yaml": "organization: acme\n",
  "config/alpha.yaml": PROJECT("alpha", "    admins: [alice, olive]\n    developers: [dave]\n"),
  "config/beta.yaml": PROJECT("beta", "    admins:\n      - alice\n      - erin\n"),
  "config/gamma.yaml": PROJECT("gamma", "    admins: [alice, dave]\n"),
};

interface Scenario {
  t: TestServer;
  dir: string;
  env: Record<string, string>;
}

/** The reference server seeded like `files` declare (plus last logins), and a checkout of them. */
async function scenario(
  files: Record<string, string>,
  projects: { slug: string; access: Record<string, string[]> }[],
): Promise<Scenario> {
  const t = await startServer({ tokens: [...Object.values(TOKENS), REVIEW_TOKEN] });
  seed(t.server.ctx, {
    parentOrganization: "acme",
    users: [
      user("alice", 2),
      user("olive", 200),
      user("olga", 300),
      user("carol", 5),
      user("dave", 3),
      user("erin", 1),
    ],
    projects: projects.map((p) => ({ slug: p.slug, name: p.slug.toUpperCase(), access: p.access })), // prettier-ignore
  });
  const dir = mkdtempSync(join(tmpdir(), "phctl-propose-"));
  execFileSync("git", ["init", "-q", dir]);
  mkdirSync(join(dir, "config"));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  const env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: REVIEW_TOKEN.secret };
  return { t, dir, env };
}

const LIVE = [
  { slug: "alpha", access: { admins: ["alice", "olive"], developers: ["dave"] } },
  { slug: "beta", access: { admins: ["alice", "erin"] } },
  { slug: "gamma", access: { admins: ["alice", "dave"] } },
];

const writes = (log: readonly LoggedRequest[]) => log.filter((r) => r.method !== "GET");

async function grant(t: TestServer, project: string, level: string, username: string) {
  const r = await t.call("POST", `/v1/projects/${project}/${level}/users/${username}`);
  expect(r.status).toBeLessThan(300);
  if (r.body?.statusUrl) await t.waitJob(new URL(r.body.statusUrl, t.url).pathname);
}

/**
 * A scenario and a fake GitHub holding `files` on main, for one describe block (its hooks
 * registered here); `propose` runs the CLI against both.
 */
function onGitHub(
  files: Record<string, string>,
  live: Parameters<typeof scenario>[1],
  collaborators?: string[],
) {
  const c = {} as { s: Scenario; gh: FakeGitHub; ciEnv: Record<string, string> };
  beforeAll(async () => {
    c.s = await scenario(files, live);
    c.gh = await startFakeGitHub();
    c.gh.git.seedBranch(REPO, "main", files);
    if (collaborators) c.gh.git.setCollaborators(REPO, collaborators);
    c.ciEnv = { ...c.s.env, GITHUB_API_URL: c.gh.url, GITHUB_REPOSITORY: REPO, GITHUB_TOKEN: GITHUB_TOKENS.write }; // prettier-ignore
  });
  afterAll(async () => {
    await c.s.t.close();
    await c.gh.close();
  });
  const propose = () =>
    phctl(["report", "access", "config", "--format", "json", "--propose"], c.ciEnv, c.s.dir);
  return { c, propose };
}

describe("report access --propose on GitHub", () => {
  let s: Scenario;
  let gh: FakeGitHub;
  let ciEnv: Record<string, string>;
  beforeAll(async () => {
    s = await scenario(FILES, LIVE);
    gh = await startFakeGitHub();
    gh.git.seedBranch(REPO, "main", FILES);
    gh.git.setCollaborators(REPO, ["alice", "dave", "erin", "olive"]);
    ciEnv = {
      ...s.env,
      GITHUB_ACTIONS: "true",
      GITHUB_API_URL: gh.url,
      GITHUB_REPOSITORY: REPO,
      GITHUB_TOKEN: GITHUB_TOKENS.write,
      GITHUB_REF_NAME: "main",
    };
    // carol is granted live only, through the API: absent from the manifests.
    await grant(s.t, "beta", "developers", "carol");
  });
  afterAll(async () => {
    await s.t.close();
    await gh.close();
  });
  const propose = (extra: string[] = [], env = ciEnv) =>
    phctl(["report", "access", "config", "--format", "json", "--propose", ...extra], env, s.dir);

  it("--dry-run prints the requests and sends nothing to the platform", async () => {
    const r = await propose(["--dry-run"]);
    expect(r.code).toBe(0);
    expect(gh.requests).toEqual([]);
    expect(r.stderr).toContain("Access review: project alpha (branch phctl/access-review/alpha");
    expect(r.stderr).toContain("Access review: project beta (branch phctl/access-review/beta");
    expect(r.stderr).not.toContain("project gamma");
    expect(r.stderr).toContain("2 request(s) would be opened (--dry-run: nothing sent)");
    // Outside CI too: no platform variable, no token needed.
    const local = await propose(["--dry-run"], s.env);
    expect(local.code).toBe(0);
    expect(local.stderr).toContain("2 request(s) would be opened");
    const alone = await phctl(["report", "access", "config", "--dry-run"], s.env, s.dir);
    expect([alone.code, alone.stderr.trim().split("\n").length]).toEqual([1, 1]);
    expect(alone.stderr).toContain("--dry-run goes with --propose");
  });

  it("opens one pull request per project with findings: the edit in place, admins as reviewers, the label, the finding", async () => {
    const r = await propose();
    expect(r.stderr).toMatch(
      /propose: 2 opened, 0 refreshed, 0 unchanged, 0 closed, 0 declined before, 0 failed/,
    );
    expect(r.code).toBe(0);
    const pulls = gh.git.pulls(REPO);
    expect(pulls.map((p) => [p.head, p.base, p.state, p.labels])).toEqual([
      ["phctl/access-review/alpha", "main", "open", [LABEL]],
      ["phctl/access-review/beta", "main", "open", [LABEL]],
    ]);
    const [alpha, beta] = pulls;
    // olive is the one removed: she is no reviewer of her own removal.
    expect(alpha.reviewers).toEqual(["alice"]);
    expect(beta.reviewers).toEqual(["alice", "erin"]);
    expect(alpha.title).toBe("Access review: project alpha");
    expect(alpha.body).toMatch(/\| alpha \| olive \| admins \| remove \| inactive: /);
    expect(beta.body).toMatch(/\| beta \| carol \| developers \| keep \(declare\) \| granted live/);

    const onAlpha = gh.git.files(REPO, "phctl/access-review/alpha")!;
    expect(onAlpha["config/alpha.yaml"]).toBe(
      FILES["config/alpha.yaml"].replace("admins: [alice, olive]", "admins: [alice]"),
    );
    const onBeta = gh.git.files(REPO, "phctl/access-review/beta")!;
    expect(onBeta["config/beta.yaml"]).toBe(
      FILES["config/beta.yaml"] + "    developers: [carol]\n",
    );
    // Each branch is main plus its own project's edit only.
    for (const [branch, file] of [
      ["phctl/access-review/alpha", "config/alpha.yaml"],
      ["phctl/access-review/beta", "config/beta.yaml"],
    ] as const) {
      const onBranch = gh.git.files(REPO, branch)!;
      expect({ ...onBranch, [file]: FILES[file] }).toEqual(FILES);
    }
    // Nothing in the working tree was written.
    for (const [path, text] of Object.entries(FILES))
      expect(readFileSync(join(s.dir, path), "utf8")).toBe(text);
  });

  it("a second run opens nothing and sends no write", async () => {
    const before = gh.requests.length;
    const r = await propose();
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /propose: 0 opened, 0 refreshed, 2 unchanged, 0 closed, 0 declined before, 0 failed/,
    );
    const sent = gh.requests.slice(before);
    expect(writes(sent)).toEqual([]);
    expect(sent.map((x) => x.path.split("?")[0])).toEqual([`/repos/${REPO}/pulls`]);
    expect(gh.git.pulls(REPO)).toHaveLength(2);
  });

  it("a changed finding refreshes the open pull request, never a second one", async () => {
    await grant(s.t, "beta", "reporters", "dave");
    const before = gh.requests.length;
    const r = await propose();
    expect(r.stderr).toMatch(
      /propose: 0 opened, 1 refreshed, 1 unchanged, 0 closed, 0 declined before, 0 failed/,
    );
    expect(r.code).toBe(0);
    const pulls = gh.git.pulls(REPO);
    expect(pulls.map((p) => [p.number, p.head, p.state])).toEqual([
      [1, "phctl/access-review/alpha", "open"],
      [2, "phctl/access-review/beta", "open"],
    ]);
    expect(pulls[1].body).toMatch(/\| beta \| dave \| reporters \| keep \(declare\) \|/);
    expect(gh.git.files(REPO, "phctl/access-review/beta")!["config/beta.yaml"]).toBe(
      FILES["config/beta.yaml"] + "    developers: [carol]\n    reporters: [dave]\n",
    );
    // alpha's request was left alone: writes only for beta (tree, commit, ref, pull).
    const sent = writes(gh.requests.slice(before));
    expect(sent.map((x) => `${x.method} ${decodeURIComponent(x.path)}`)).toEqual([
      `POST /repos/${REPO}/git/trees`,
      `POST /repos/${REPO}/git/commits`,
      `PATCH /repos/${REPO}/git/refs/heads/phctl/access-review/beta`,
      `PATCH /repos/${REPO}/pulls/2`,
    ]);
  });

  it("a partial review proposes nothing: one line, exit 1, no platform call", async () => {
    await s.t.call("POST", "/_control/faults", {
      body: { faults: [{ kind: "status403", operation: "metrics.usersSearch", times: 50 }] },
    });
    try {
      const before = gh.requests.length;
      const r = await propose(["--allow-partial"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain("--propose: the review is partial");
      expect(r.stderr).not.toMatch(/phctl: propose: /);
      expect(gh.requests.length).toBe(before);
    } finally {
      await s.t.call("DELETE", "/_control/faults");
    }
  }, 120_000);

  it("the service sees exactly the access review's calls", async () => {
    const log = s.t.server.requestLog;
    const calls = async (args: string[]) => {
      const from = log.length;
      const r = await phctl(["report", "access", "config", "--format", "json", ...args], ciEnv, s.dir); // prettier-ignore
      expect(r.code).toBe(0);
      return log.slice(from).map((e) => `${e.method} ${e.url}`).sort(); // prettier-ignore
    };
    const review = await calls([]);
    expect(review.length).toBeGreaterThan(0);
    expect(await calls(["--propose"])).toEqual(review);
  });
  it("a request whose findings are gone is closed with a comment saying why, once", async () => {
    // olive's admin grant on alpha went, live and in the manifests (the request merged by hand).
    const r0 = await s.t.call("DELETE", "/v1/projects/alpha/admins/users/olive");
    expect(r0.status).toBeLessThan(300);
    if (r0.body?.statusUrl) await s.t.waitJob(new URL(r0.body.statusUrl, s.t.url).pathname);
    const alpha = join(s.dir, "config/alpha.yaml");
    writeFileSync(alpha, FILES["config/alpha.yaml"].replace("admins: [alice, olive]", "admins: [alice]")); // prettier-ignore
    try {
      const before = gh.requests.length;
      const r = await propose();
      expect(r.stderr).toMatch(
        /propose: 0 opened, 0 refreshed, 1 unchanged, 1 closed, 0 declined before, 0 failed/,
      );
      expect(r.stderr).toContain("propose: closed #1 Access review: project alpha: nothing in it stands any more"); // prettier-ignore
      expect(r.code).toBe(0);
      expect(writes(gh.requests.slice(before)).map((x) => `${x.method} ${x.path}`)).toEqual([
        `PATCH /repos/${REPO}/pulls/1`,
        `POST /repos/${REPO}/issues/1/comments`,
      ]);
      expect(gh.git.pulls(REPO).map((p) => [p.number, p.state])).toEqual([
        [1, "closed"],
        [2, "open"],
      ]);
      expect(gh.comments(REPO, 1).map((c) => c.body)).toEqual([
        expect.stringMatching(/^phctl's access review no longer proposes this/),
      ]);
      // phctl's own closing is no decline: the body keeps no digest.
      expect(gh.git.pulls(REPO)[0].body).toContain("<!-- phctl-propose withdrawn -->");
      const again = await propose();
      expect(again.stderr).toMatch(/propose: 0 opened, 0 refreshed, 1 unchanged, 0 closed, 0 declined before, 0 failed/); // prettier-ignore
    } finally {
      writeFileSync(alpha, FILES["config/alpha.yaml"]);
    }
    // The finding back as it was: proposed again, in a new request (#1 was phctl's closing).
    await grant(s.t, "alpha", "admins", "olive");
    const back = await propose();
    expect(back.stderr).toMatch(/propose: 1 opened, 0 refreshed, 1 unchanged, 0 closed, 0 declined before, 0 failed/); // prettier-ignore
    expect(gh.git.pulls(REPO).map((p) => [p.number, p.head, p.state])).toEqual([
      [1, "phctl/access-review/alpha", "closed"],
      [2, "phctl/access-review/beta", "open"],
      [3, "phctl/access-review/alpha", "open"],
    ]);
  });
});

describe("report access --propose: a grant a Defaults layer gives", () => {
  const LAYERED = {
    "config/phctl.yaml": "organization: acme\n",
    "config/defaults.yaml": `apiVersion: phctl/v1
kind: Defaults
metadata: { name: contractors }
spec:
  select: { kind: Project, matchLabels: { vendor: contract } }
  values:
    access:
      developers: [olga]
`,
    "config/delta.yaml": PROJECT("delta", "    admins: [alice, dave]\n", "\n  labels: { vendor: contract }"), // prettier-ignore
    "config/epsilon.yaml": PROJECT("epsilon", "    admins: [alice, dave]\n", "\n  labels: { vendor: contract }"), // prettier-ignore
  };
  const { c, propose } = onGitHub(LAYERED, [
    { slug: "delta", access: { admins: ["alice", "dave"], developers: ["olga"] } },
    { slug: "epsilon", access: { admins: ["alice", "dave"], developers: ["olga"] } },
  ]);

  it("is removed by an override in the project's own file; the layer stays as it was", async () => {
    const r = await propose();
    expect(r.stderr).toMatch(
      /propose: 2 opened, 0 refreshed, 0 unchanged, 0 closed, 0 declined before, 0 failed/,
    );
    expect(r.code).toBe(0);
    const pulls = c.gh.git.pulls(REPO);
    expect(pulls.map((p) => p.head)).toEqual(["phctl/access-review/delta", "phctl/access-review/epsilon"]); // prettier-ignore
    for (const slug of ["delta", "epsilon"] as const) {
      const file = `config/${slug}.yaml` as const;
      const onBranch = c.gh.git.files(REPO, `phctl/access-review/${slug}`)!;
      expect(onBranch[file]).toBe(`${LAYERED[file]}    developers: [{ $remove: olga }]\n`);
      expect({ ...onBranch, [file]: LAYERED[file] }).toEqual(LAYERED);
    }
  });

  it("a pull request people closed is not opened again while it would propose the same; once the proposal changes, its branch is reset and a new one opened; a reviewer GitHub refuses is said, the pull request stands", async () => {
    const closed = await fetch(`${c.gh.url}/repos/${REPO}/pulls/1`, {
      method: "PATCH",
      headers: { authorization: `token ${GITHUB_TOKENS.write}` },
      body: JSON.stringify({ state: "closed" }),
    });
    expect(closed.status).toBe(200);
    const declined = await propose();
    expect(declined.stderr).toMatch(/propose: 0 opened, 0 refreshed, 1 unchanged, 0 closed, 1 declined before, 0 failed/); // prettier-ignore
    expect(declined.stderr).toContain("propose: Access review: project delta: not opened again: #1 proposed the same and was closed without merging"); // prettier-ignore
    expect(declined.code).toBe(0);
    expect(c.gh.git.pulls(REPO)).toHaveLength(2);

    // A new finding on delta: carol granted live only. The proposal changed: a new request.
    await grant(c.s.t, "delta", "reporters", "carol");
    c.gh.git.setCollaborators(REPO, ["alice"]);
    const r = await propose();
    expect(r.stderr).toMatch(/propose: 1 opened, 0 refreshed, 1 unchanged, 0 closed, 0 declined before, 0 failed/); // prettier-ignore
    expect(r.stderr).toMatch(/propose: #3: reviewers alice, dave not requested: 422 Reviews may only be requested from collaborators/); // prettier-ignore
    expect(r.code).toBe(0);
    const pulls = c.gh.git.pulls(REPO);
    expect(pulls.map((p) => [p.number, p.head, p.state, p.labels])).toEqual([
      [1, "phctl/access-review/delta", "closed", [LABEL]],
      [2, "phctl/access-review/epsilon", "open", [LABEL]],
      [3, "phctl/access-review/delta", "open", [LABEL]],
    ]);
    // The branch is the base plus the new proposal only.
    expect(c.gh.git.files(REPO, "phctl/access-review/delta")!["config/delta.yaml"]).toBe(
      `${LAYERED["config/delta.yaml"]}    developers: [{ $remove: olga }]\n    reporters: [carol]\n`,
    );
  });
});

describe("report access --propose on GitLab", () => {
  let s: Scenario;
  let gl: FakeGitLab;
  let ciEnv: Record<string, string>;
  const PROJECT_PATH = "acme/config";
  beforeAll(async () => {
    s = await scenario(FILES, LIVE);
    gl = await startFakeGitLab();
    gl.git.seedBranch(PROJECT_PATH, "main", FILES);
    gl.git.setMembers(PROJECT_PATH, [
      { id: 11, username: "alice" },
      { id: 12, username: "erin" },
    ]);
    ciEnv = {
      ...s.env,
      GITLAB_CI: "true",
      CI_API_V4_URL: gl.apiUrl,
      CI_PROJECT_ID: PROJECT_PATH,
      CI_DEFAULT_BRANCH: "main",
      PHCTL_GITLAB_TOKEN: GITLAB_TOKENS.write,
    };
    await grant(s.t, "beta", "developers", "carol");
  });
  afterAll(async () => {
    await s.t.close();
    await gl.close();
  });
  const propose = (extra: string[] = []) =>
    phctl(["report", "access", "config", "--format", "json", "--propose", ...extra], ciEnv, s.dir); // prettier-ignore

  it("one merge request per project, again nothing, a changed finding refreshes it", async () => {
    const first = await propose();
    expect(first.stderr).toMatch(
      /propose: 2 opened, 0 refreshed, 0 unchanged, 0 closed, 0 declined before, 0 failed/,
    );
    expect(first.code).toBe(0);
    let mrs = gl.git.pulls(PROJECT_PATH);
    expect(mrs.map((m) => [m.number, m.head, m.base, m.state, m.labels, m.reviewers])).toEqual([
      [1, "phctl/access-review/alpha", "main", "open", [LABEL], ["alice"]],
      [2, "phctl/access-review/beta", "main", "open", [LABEL], ["alice", "erin"]],
    ]);
    expect(mrs[0].body).toMatch(/\| alpha \| olive \| admins \| remove \| inactive: /);
    expect(gl.git.files(PROJECT_PATH, "phctl/access-review/alpha")).toEqual({
      ...FILES,
      "config/alpha.yaml": FILES["config/alpha.yaml"].replace("admins: [alice, olive]", "admins: [alice]"), // prettier-ignore
    });
    expect(gl.git.files(PROJECT_PATH, "phctl/access-review/beta")).toEqual({
      ...FILES,
      "config/beta.yaml": `${FILES["config/beta.yaml"]}    developers: [carol]\n`,
    });

    let from = gl.requests.length;
    const second = await propose();
    expect(second.stderr).toMatch(
      /propose: 0 opened, 0 refreshed, 2 unchanged, 0 closed, 0 declined before, 0 failed/,
    );
    expect(gl.requests.slice(from).map((x) => `${x.method} ${x.path.split("?")[0]}`)).toEqual([
      `GET /api/v4/projects/${encodeURIComponent(PROJECT_PATH)}/merge_requests`,
    ]);

    await grant(s.t, "beta", "reporters", "dave");
    from = gl.requests.length;
    const third = await propose();
    expect(third.stderr).toMatch(
      /propose: 0 opened, 1 refreshed, 1 unchanged, 0 closed, 0 declined before, 0 failed/,
    );
    expect(third.code).toBe(0);
    expect(writes(gl.requests.slice(from)).map((x) => `${x.method} ${x.path}`)).toEqual([
      `POST /api/v4/projects/${encodeURIComponent(PROJECT_PATH)}/repository/commits`,
      `PUT /api/v4/projects/${encodeURIComponent(PROJECT_PATH)}/merge_requests/2`,
    ]);
    mrs = gl.git.pulls(PROJECT_PATH);
    expect(mrs.map((m) => [m.number, m.state])).toEqual([
      [1, "open"],
      [2, "open"],
    ]);
    expect(mrs[1].body).toMatch(/\| beta \| dave \| reporters \| keep \(declare\) \|/);
    expect(gl.git.files(PROJECT_PATH, "phctl/access-review/beta")!["config/beta.yaml"]).toBe(
      `${FILES["config/beta.yaml"]}    developers: [carol]\n    reporters: [dave]\n`,
    );
  });

  it("--max-requests: at most N opened or refreshed a run, the rest deferred to the next", async () => {
    await grant(s.t, "alpha", "reporters", "erin");
    await grant(s.t, "gamma", "developers", "carol");
    const capped = await propose(["--max-requests", "1"]);
    expect(capped.stderr).toMatch(
      /propose: 0 opened, 1 refreshed, 1 unchanged, 0 closed, 0 declined before, 0 failed/,
    );
    expect(capped.stderr).toContain("propose: 1 more deferred to the next run (--max-requests 1");
    expect(capped.code).toBe(0);
    expect(gl.git.pulls(PROJECT_PATH).map((m) => m.head)).not.toContain("phctl/access-review/gamma"); // prettier-ignore
    const next = await propose();
    expect(next.stderr).toMatch(
      /propose: 1 opened, 0 refreshed, 2 unchanged, 0 closed, 0 declined before, 0 failed/,
    );
    expect(gl.git.pulls(PROJECT_PATH).map((m) => [m.number, m.head])).toEqual([
      [1, "phctl/access-review/alpha"],
      [2, "phctl/access-review/beta"],
      [3, "phctl/access-review/gamma"],
    ]);
  });
  it("a merge request whose findings are gone is closed with a note", async () => {
    // carol's live-only grant on gamma went: gamma's merge request proposes nothing now.
    const r0 = await s.t.call("DELETE", "/v1/projects/gamma/developers/users/carol");
    expect(r0.status).toBeLessThan(300);
    if (r0.body?.statusUrl) await s.t.waitJob(new URL(r0.body.statusUrl, s.t.url).pathname);
    const from = gl.requests.length;
    const r = await propose();
    expect(r.stderr).toMatch(
      /propose: 0 opened, 0 refreshed, 2 unchanged, 1 closed, 0 declined before, 0 failed/,
    );
    expect(r.code).toBe(0);
    const project = encodeURIComponent(PROJECT_PATH);
    expect(writes(gl.requests.slice(from)).map((x) => `${x.method} ${x.path}`)).toEqual([
      `PUT /api/v4/projects/${project}/merge_requests/3`,
      `POST /api/v4/projects/${project}/merge_requests/3/notes`,
    ]);
    expect(gl.git.pulls(PROJECT_PATH).map((m) => [m.number, m.state])).toEqual([
      [1, "open"],
      [2, "open"],
      [3, "closed"],
    ]);
    expect(gl.notes(PROJECT_PATH, 3).map((n) => n.body)).toEqual([
      expect.stringMatching(/^phctl's access review no longer proposes this/),
    ]);
  });
  it("a merge request people closed is not opened again while it proposes the same", async () => {
    const project = encodeURIComponent(PROJECT_PATH);
    const closed = await fetch(`${gl.apiUrl}/projects/${project}/merge_requests/1`, {
      method: "PUT",
      headers: { "private-token": GITLAB_TOKENS.write, "content-type": "application/json" },
      body: JSON.stringify({ state_event: "close" }),
    });
    expect(closed.status).toBe(200);
    const from = gl.requests.length;
    const r = await propose();
    expect(r.stderr).toMatch(/propose: 0 opened, 0 refreshed, 1 unchanged, 0 closed, 1 declined before, 0 failed/); // prettier-ignore
    expect(r.stderr).toContain("not opened again: #1 proposed the same and was closed without merging"); // prettier-ignore
    expect(writes(gl.requests.slice(from))).toEqual([]);
    expect(gl.git.pulls(PROJECT_PATH).filter((m) => m.state === "open").map((m) => m.number)).toEqual([2]); // prettier-ignore
  });
});

describe("report access --propose: grants whose expires has passed", () => {
  const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
  const ENDED = day(-2);
  const LATER = day(300);
  const EXPIRING = {
    "config/phctl.yaml": "organization: acme\n",
    // carol's grant ended and is still live (the next apply removes it); dave's ended and is
    // gone live; erin's runs on.
    "config/alpha.yaml": PROJECT("alpha", `    admins: [alice]\n    developers: [dave, { user: carol, expires: ${ENDED} }]\n`), // prettier-ignore
    "config/beta.yaml": PROJECT("beta", `    admins: [alice, erin]\n    reporters:\n      - { user: dave, expires: ${ENDED} } # contractor\n      - carol\n`), // prettier-ignore
    "config/gamma.yaml": PROJECT("gamma", `    admins: [alice, { user: erin, expires: ${LATER} }]\n`), // prettier-ignore
  };
  const { c, propose } = onGitHub(
    EXPIRING,
    [
      { slug: "alpha", access: { admins: ["alice"], developers: ["dave", "carol"] } },
      { slug: "beta", access: { admins: ["alice", "erin"], reporters: ["carol"] } },
      { slug: "gamma", access: { admins: ["alice", "erin"] } },
      // Live, declared by another config of the repository (another key).
      { slug: "zeta", access: { admins: ["alice"], developers: ["olga"] } },
    ],
    ["alice", "erin"],
  );

  it("each ended entry is deleted in a pull request of its project, live or gone; the grant still live is not declared again; twice opens nothing", async () => {
    // Another config's standing request, for a project this config does not declare: not ours to close.
    c.gh.git.seedBranch(REPO, "phctl/access-review/zeta", EXPIRING);
    const other = await fetch(`${c.gh.url}/repos/${REPO}/pulls`, {
      method: "POST",
      headers: { authorization: `token ${GITHUB_TOKENS.write}` },
      body: JSON.stringify({ title: "Access review: project zeta", head: "phctl/access-review/zeta", base: "main", body: "another key's" }), // prettier-ignore
    });
    expect(other.status).toBe(201);
    const r = await propose();
    expect(r.stderr).toMatch(
      /propose: 2 opened, 0 refreshed, 0 unchanged, 0 closed, 0 declined before, 0 failed/,
    );
    expect(r.code).toBe(0);
    const [zeta, ...pulls] = c.gh.git.pulls(REPO);
    expect([zeta.head, zeta.state]).toEqual(["phctl/access-review/zeta", "open"]);
    expect(pulls.map((p) => [p.head, p.reviewers])).toEqual([
      ["phctl/access-review/alpha", ["alice"]],
      ["phctl/access-review/beta", ["alice", "erin"]],
    ]);
    expect(pulls[0].body).toMatch(
      new RegExp(`\\| alpha \\| carol \\| developers \\| delete the ended entry \\| expired on ${ENDED} \\(config/alpha\\.yaml:9\\)`), // prettier-ignore
    );
    expect(pulls[0].body).not.toContain("keep (declare)");
    expect(pulls[1].body).toMatch(/\| beta \| dave \| reporters \| delete the ended entry \|/);
    expect(c.gh.git.files(REPO, "phctl/access-review/alpha")).toEqual({
      ...EXPIRING,
      "config/alpha.yaml": EXPIRING["config/alpha.yaml"].replace(`, { user: carol, expires: ${ENDED} }`, ""), // prettier-ignore
    });
    expect(c.gh.git.files(REPO, "phctl/access-review/beta")).toEqual({
      ...EXPIRING,
      "config/beta.yaml": EXPIRING["config/beta.yaml"].replace(`      - { user: dave, expires: ${ENDED} } # contractor\n`, ""), // prettier-ignore
    });

    const before = c.gh.requests.length;
    const again = await propose();
    expect(again.stderr).toMatch(
      /propose: 0 opened, 0 refreshed, 2 unchanged, 0 closed, 0 declined before, 0 failed/,
    );
    expect(writes(c.gh.requests.slice(before))).toEqual([]);
  });
});
