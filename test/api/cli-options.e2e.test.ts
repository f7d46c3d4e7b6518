/**
 * The client options end to end: the built CLI (`node dist/cli/main.js`, `npm run build`
 * first) against the reference server on loopback. Numeric options fail with one line
 * naming the flag; the throttle comes from --max-rps, else PHCTL_MAX_RPS, else phctl.yaml
 * (the `api.metrics` JSON line says which); --verbose reads latency from send to answer,
 * with the wait before sending apart.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { phctl, type Run } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let s: TestServer;
let dir: string;
const env = () => ({ PHCTL_API_URL: s.url, PHCTL_TOKEN: TOKENS.admin.secret });

beforeAll(async () => {
  // 20 ms a request: latencies must read as that, not as the time spent queueing.
  s = await startServer({ latencyMs: 20 });
  dir = mkdtempSync(join(tmpdir(), "phctl-options-"));
  writeFileSync(join(dir, "phctl.yaml"), "organization: acme\nmaxRps: 500\n");
  writeFileSync(
    join(dir, "users.yaml"),
    "apiVersion: phctl/v1\nkind: User\nmetadata: { name: opt-user }\nspec: { firstName: O, lastName: U, externalEmail: opt-user@example.org }\n",
  );
});
afterAll(() => s.close());

/** The throttle the `api.metrics` line of a `--json` run reports. */
function throttleOf(r: Run): unknown {
  const line = r.stderr.split("\n").find((l) => l.includes('"event":"api.metrics"'));
  if (!line) throw new Error(`no api.metrics line in: ${r.stderr}`);
  return (JSON.parse(line) as { throttle: unknown }).throttle;
}

describe("numeric options", () => {
  it("fail with one line naming the flag (exit 1), before anything is sent", async () => {
    const before = s.server.requestLog.length;
    const runs = await Promise.all([
      phctl(["plan", dir, "--concurrency", "1.5"], env(), dir),
      phctl(["plan", dir, "--concurrency", "0"], env(), dir),
      phctl(["export", "--organization", "acme", "--concurrency", "65"], env(), dir),
      phctl(["--max-rps", "0.01", "api", "GET", "/v1/licenses"], env(), dir),
      phctl(["api", "GET", "/v1/licenses"], { ...env(), PHCTL_MAX_RPS: "fast" }, dir),
    ]);
    expect(runs.map((r) => [r.code, r.stderr])).toEqual([
      [1, "phctl: --concurrency must be a whole number from 1 to 64 (got 1.5)\n"],
      [1, "phctl: --concurrency must be a whole number from 1 to 64 (got 0)\n"],
      [1, "phctl: --concurrency must be a whole number from 1 to 64 (got 65)\n"],
      [
        1,
        "phctl: --max-rps must be 0 (no throttle) or a number of requests per second from 0.1 to 10,000 (got 0.01)\n",
      ],
      [
        1,
        "phctl: PHCTL_MAX_RPS must be 0 (no throttle) or a number of requests per second from 0.1 to 10,000 (got fast)\n",
      ],
    ]);
    expect(s.server.requestLog.length).toBe(before);
  });
});

describe("the throttle", () => {
  it("--max-rps (before or after the command) over PHCTL_MAX_RPS over phctl.yaml", async () => {
    const [yaml, fromEnv, flag, flagFirst, api] = await Promise.all([
      phctl(["--json", "plan", dir], env(), dir),
      phctl(["--json", "plan", dir], { ...env(), PHCTL_MAX_RPS: "600" }, dir),
      phctl(["--json", "plan", dir, "--max-rps", "700"], { ...env(), PHCTL_MAX_RPS: "600" }, dir),
      phctl(["--json", "--max-rps", "0", "plan", dir], env(), dir),
      // api reads no manifests: the working directory's phctl.yaml.
      phctl(["--json", "api", "GET", "/v1/licenses"], env(), dir),
    ]);
    expect(throttleOf(yaml)).toEqual({ maxRps: 500, from: "phctl.yaml" });
    expect(throttleOf(fromEnv)).toEqual({ maxRps: 600, from: "PHCTL_MAX_RPS" });
    expect(throttleOf(flag)).toEqual({ maxRps: 700, from: "--max-rps" });
    expect(throttleOf(flagFirst)).toEqual({ maxRps: 0, from: "--max-rps" });
    expect(throttleOf(api)).toEqual({ maxRps: 500, from: "phctl.yaml" });
  });

  it("--verbose: latency from send to answer near the service's, the wait before sending apart", async () => {
    const r = await phctl(["--verbose", "--max-rps", "50", "plan", dir], env(), dir);
    expect(r.code).toBe(0);
    const lines = r.stderr.split("\n");
    expect(lines).toContain("phctl: api: throttled to 50 requests per second (--max-rps)");
    expect(
      lines.some((l) =>
        /^phctl: api: waiting to be sent \(throttle, concurrency slot\): p50 /.test(l),
      ),
    ).toBe(true);
    const users = lines.find((l) => l.startsWith("phctl: api:   users.list ×1 "));
    const p50 = Number(/send to answer p50 ([\d.]+) ms/.exec(users ?? "")?.[1]);
    // 20 ms ± 25 % on the server: read as that (not seconds of queueing), with slack for a busy machine.
    expect(p50).toBeGreaterThanOrEqual(14);
    expect(p50).toBeLessThan(250);
  });
});
