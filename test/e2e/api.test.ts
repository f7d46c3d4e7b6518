/**
 * `phctl api` end to end: the built CLI (`node dist/cli/main.js`, run `npm run build` first)
 * against the reference server on loopback. Every output of every run is captured, and the
 * last test checks that no token ever appeared in any of them.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync, existsSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const MAIN = join(import.meta.dirname, "../../dist/cli/main.js");
const SECRET = "e2e-api-secret-7c1d9a0b5e";
const GIT_SECRET = "e2e-git-secret-33f0aa81c2";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
const captured: Run[] = [];

let s: TestServer;
let dir: string;

function phctl(
  args: string[],
  o: { env?: Record<string, string | undefined>; input?: string; cwd?: string } = {},
): Promise<Run> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PHCTL_API_URL: s.url,
    PHCTL_TOKEN: SECRET,
    PHCTL_GIT_TOKEN: GIT_SECRET,
    NO_COLOR: "1",
    ...o.env,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [MAIN, ...args],
      { env: env, cwd: o.cwd ?? dir, timeout: 60_000 },
      (err, stdout, stderr) => {
        const run = {
          code: err ? ((err as { code?: number }).code ?? 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        };
        captured.push(run);
        resolve(run);
      },
    );
    if (o.input !== undefined) child.stdin?.end(o.input);
    else child.stdin?.end();
  });
}

beforeAll(async () => {
  s = await startServer({
    tokens: [
      ...Object.values(TOKENS),
      { secret: SECRET, role: "system-admin", parentOrganization: "acme" },
      { secret: GIT_SECRET, role: "member", parentOrganization: "acme" },
    ],
  });
  dir = mkdtempSync(join(tmpdir(), "phctl-api-e2e-"));
});

afterAll(async () => {
  await s.close();
});

describe("phctl api", () => {
  it("prints the JSON body of a GET and exits 0", async () => {
    const r = await phctl(["api", "GET", "/v1/licenses"]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as { name: string }[];
    expect(body.map((l) => l.name)).toContain("MIT");
    expect(r.stdout).toContain('\n  {\n    "name"');
    expect(r.stderr).toBe("");
  });

  it("sends --data inline, from @file and from stdin", async () => {
    const a = await phctl([
      "api",
      "POST",
      "/v1/organization",
      "--data",
      '{"organization":"e2e-a"}',
    ]);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout).data.name).toBe("e2e-a");
    const file = join(dir, "org.json");
    writeFileSync(file, JSON.stringify({ organization: "e2e-b" }));
    const b = await phctl(["api", "post", "v1/organization", "-d", `@${file}`]);
    expect(b.code).toBe(0);
    expect(JSON.parse(b.stdout).data.name).toBe("e2e-b");
    const c = await phctl(["api", "POST", "/v1/organization", "--data", "@-"], {
      input: '{"organization":"e2e-c"}',
    });
    expect(c.code).toBe(0);
    const list = await phctl(["api", "GET", "/v1/organization/list"]);
    const names = (JSON.parse(list.stdout) as { name: string }[]).map((o) => o.name);
    expect(names).toEqual(expect.arrayContaining(["e2e-a", "e2e-b", "e2e-c"]));
  });

  it("exits 1 on a non-2xx with the server's message on one stderr line", async () => {
    const r = await phctl([
      "api",
      "POST",
      "/v1/organization",
      "--data",
      '{"organization":"e2e-a"}',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "phctl: POST /v1/organization (organizations.create): 409 CONFLICT: organization e2e-a already exists [organization: organization e2e-a already exists]\n",
    );
    expect(JSON.parse(r.stdout).status.code).toBe(409);
    const nf = await phctl(["api", "GET", "/v1/nowhere"]);
    expect(nf.code).toBe(1);
    expect(nf.stderr).toBe("phctl: GET /v1/nowhere: 404 NOT_FOUND: no operation GET /v1/nowhere\n");
  });

  it("passes --query parameters, repeated keys as lists", async () => {
    const r = await phctl([
      "api",
      "GET",
      "/v1/licenses?x=0",
      "-q",
      "a=1",
      "--query",
      "b=2",
      "-q",
      "b=3",
    ]);
    expect(r.code).toBe(0);
    const last = s.server.requestLog.filter((e) => e.operation === "licenses.list").at(-1)!;
    expect(last.url).toBe("/v1/licenses?x=0&a=1&b=2&b=3");
  });

  it("refuses bad input before calling", async () => {
    const bad = await phctl(["api", "POST", "/v1/organization", "--data", "{nope"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^phctl: --data is not JSON: /);
    const method = await phctl(["api", "FETCH", "/v1/licenses"]);
    expect(method.stderr).toBe("phctl: method FETCH is not one of GET, POST, PUT, PATCH, DELETE\n");
    const pag = await phctl(["api", "POST", "/v1/organization", "--paginate"]);
    expect(pag.stderr).toBe("phctl: --paginate needs GET\n");
  });

  it("with --verbose, reports retries and a metrics summary on stderr", async () => {
    s.server.faults.add({ kind: "status503", operation: "licenses.list", times: 2 });
    const r = await phctl(["api", "GET", "/v1/licenses", "--verbose"]);
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split("\n");
    expect(lines[0]).toMatch(
      /^phctl: retry GET \/v1\/licenses \(licenses\.list\) in \d+ ms after 503 \(attempt 2\)$/,
    );
    expect(lines[1]).toMatch(/attempt 3/);
    expect(lines).toContain("phctl: api: retries by reason: 503 ×2");
    expect(lines.some((l) => /^phctl: api: 1 call, 3 requests, 2 retries, 0 errors/.test(l))).toBe(
      true,
    );
  });

  it("with --json, writes the retries and metrics as JSON lines", async () => {
    s.server.faults.add({ kind: "status503", operation: "licenses.list" });
    const r = await phctl(["api", "GET", "/v1/licenses", "--json"]);
    const events = r.stderr
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { event: string });
    expect(events.map((e) => e.event)).toEqual(["api.retry", "api.metrics"]);
    expect(events[1]).toMatchObject({ calls: 1, retries: 1 });
  });

  it("a POST whose connection dropped is reported as ambiguous and not re-sent", async () => {
    const before = s.server.requestLog.filter((e) => e.method === "POST").length;
    s.server.faults.add({ kind: "dropAfter", method: "POST" });
    const r = await phctl([
      "api",
      "POST",
      "/v1/organization",
      "--data",
      '{"organization":"e2e-drop"}',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^phctl: POST \/v1\/organization \(organizations\.create\): AMBIGUOUS: connection failed: .* \(it may have taken effect; not retried — re-read before trying again\)\n$/,
    );
    expect(s.server.requestLog.filter((e) => e.method === "POST").length).toBe(before + 1);
  });

  it("--paginate follows every page and prints one merged array", async () => {
    seed(s.server.ctx, {
      parentOrganization: "acme",
      teams: Array.from({ length: 130 }, (_, i) => ({ name: `e2e-team-${i}` })),
    });
    const before = s.server.requestLog.length;
    const r = await phctl(["api", "GET", "/v1/teams", "--paginate"]);
    expect(r.code).toBe(0);
    const teams = JSON.parse(r.stdout) as { name: string }[];
    expect(teams.filter((t) => t.name.startsWith("e2e-team-"))).toHaveLength(130);
    expect(s.server.requestLog.slice(before).map((e) => e.url)).toEqual([
      "/v1/teams?page=1&limit=1000",
      "/v1/teams?page=2&limit=100",
    ]);
    // Without --paginate: the first page as the server sends it.
    const one = await phctl(["api", "GET", "/v1/teams"]);
    expect(JSON.parse(one.stdout).pagination).toMatchObject({ page: 1, limit: 10, total: 130 });
  });

  it("--paginate on a list that is not paged prints it as it came", async () => {
    const r = await phctl(["api", "GET", "/v1/licenses", "--paginate"]);
    expect(r.code).toBe(0);
    expect(Array.isArray(JSON.parse(r.stdout))).toBe(true);
  });

  it("reads the token from --token-file; without any token it says how to give one", async () => {
    const file = join(dir, "token");
    writeFileSync(file, `${SECRET}\n`);
    chmodSync(file, 0o600);
    const ok = await phctl(["api", "GET", "/v1/licenses", "--token-file", file], {
      env: { PHCTL_TOKEN: undefined },
    });
    expect(ok.code).toBe(0);
    const none = await phctl(["api", "GET", "/v1/licenses"], { env: { PHCTL_TOKEN: undefined } });
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(
      `phctl: no token for ${s.url}: set PHCTL_TOKEN or pass --token-file FILE\n`,
    );
    const wrong = await phctl(["api", "GET", "/v1/licenses"], {
      env: { PHCTL_TOKEN: "e2e-wrong-token-0b7e4417" },
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      "phctl: GET /v1/licenses (licenses.list): 401 UNAUTHORIZED: invalid token — the token was not accepted: set a valid one in PHCTL_TOKEN or pass --token-file FILE\n",
    );
    expect(wrong.stdout + wrong.stderr).not.toContain("e2e-wrong-token-0b7e4417");
  });

  it("sends delivery-metrics calls with PRIVATE-TOKEN to the git API URL", async () => {
    const r = await phctl([
      "api",
      "GET",
      "/git-api/groups/4242/dora/metrics",
      "-q",
      "metric=deployment_frequency",
      "--verbose",
    ]);
    // Authenticated (not 401): the group simply does not exist.
    expect(r.code).toBe(1);
    // --verbose: the metrics summary first, then the error line.
    expect(r.stderr).toMatch(/^phctl: api: 1 call, 1 request, 0 retries, 1 error in /);
    expect(r.stderr.split("\n").find((l) => l.startsWith("phctl: GET"))).toMatch(
      /^phctl: GET \/git-api\/groups\/\{id\}\/dora\/metrics \(dora\.group\): 404 NOT_FOUND: /,
    );
    const last = s.server.requestLog.filter((e) => e.operation === "dora.group").at(-1)!;
    expect(last.url).toBe("/git-api/groups/4242/dora/metrics?metric=deployment_frequency");
  });

  it("the delivery-metrics API needs PHCTL_GIT_TOKEN", async () => {
    const r = await phctl(
      ["api", "GET", "/git-api/projects/1/dora/metrics", "-q", "metric=deployment_frequency"],
      { env: { PHCTL_GIT_TOKEN: undefined } },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "phctl: the delivery-metrics API needs a token: set PHCTL_GIT_TOKEN (and --git-api-url)\n",
    );
  });

  it("without an API URL it starts the embedded server on .phctl/embedded.sqlite and says so", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "phctl-embedded-"));
    const env = { PHCTL_API_URL: undefined, PHCTL_TOKEN: undefined };
    const a = await phctl(["api", "POST", "/v1/organization", "-d", '{"organization":"emb-1"}'], {
      cwd,
      env,
    });
    expect(a.code).toBe(0);
    expect(a.stderr).toBe(
      "phctl: no API URL configured (--api-url or PHCTL_API_URL): using the embedded reference server on .phctl/embedded.sqlite\n",
    );
    expect(existsSync(join(cwd, ".phctl", "embedded.sqlite"))).toBe(true);
    // The database persists between runs.
    const b = await phctl(["api", "GET", "/v1/organization/list", "--verbose"], { cwd, env });
    expect(b.code).toBe(0);
    expect((JSON.parse(b.stdout) as { name: string }[]).map((o) => o.name)).toContain("emb-1");
    // The generated development token is never printed.
    expect(a.stdout + a.stderr + b.stdout + b.stderr).not.toMatch(/phdev_/);
  });

  it("no token ever appears in any captured output", () => {
    expect(captured.length).toBeGreaterThan(15);
    const secrets = [SECRET, GIT_SECRET, ...Object.values(TOKENS).map((t) => t.secret)];
    for (const run of captured) {
      for (const secret of secrets) {
        expect(run.stdout).not.toContain(secret);
        expect(run.stderr).not.toContain(secret);
      }
      expect(run.stdout + run.stderr).not.toMatch(/phdev_|Bearer [^*]|private-token: [^*]/i);
    }
  });
});
