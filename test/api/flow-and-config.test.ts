import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FlowControl, sleep, Throttle } from "../../src/api/limit.js";
import { Credentials } from "../../src/api/auth.js";
import { resolveConfig } from "../../src/cli/config.js";
import { PhctlError } from "../../src/errors.js";

describe("FlowControl", () => {
  it("never runs more attempts at once than the concurrency limit", async () => {
    const flow = new FlowControl(2, 0);
    let active = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 8 }, () =>
        flow.run(async () => {
          active++;
          peak = Math.max(peak, active);
          await sleep(10);
          active--;
        }),
      ),
    );
    expect(peak).toBe(2);
  });

  it("throttles request starts to maxRps", async () => {
    const t = new Throttle(50);
    const t0 = performance.now();
    for (let i = 0; i < 6; i++) await t.wait();
    // 6 starts at 50/s: the last one no earlier than 5 × 20 ms after the first.
    expect(performance.now() - t0).toBeGreaterThanOrEqual(95);
  });

  it("sleep rejects when its signal aborts", async () => {
    const ac = new AbortController();
    const p = sleep(10_000, ac.signal);
    ac.abort(new Error("stop"));
    await expect(p).rejects.toThrow("stop");
  });
});

describe("Credentials", () => {
  it("puts the bearer and PRIVATE-TOKEN headers on, and never serialises the tokens", () => {
    const c = new Credentials("admin-secret-1", "git-secret-2");
    expect(c.headers("admin")).toEqual({ authorization: "Bearer admin-secret-1" });
    expect(c.headers("git")).toEqual({ "private-token": "git-secret-2" });
    expect(JSON.stringify({ c })).toBe('{"c":"[credentials]"}');
    expect(String(Object.keys(c))).toBe("");
    expect(() => new Credentials("a-token", undefined).headers("git")).toThrow(/PHCTL_GIT_TOKEN/);
  });
});

describe("resolveConfig", () => {
  const dir = mkdtempSync(join(tmpdir(), "phctl-config-"));

  it("takes --api-url over PHCTL_API_URL and the token file over PHCTL_TOKEN", () => {
    const file = join(dir, "tok");
    writeFileSync(file, "\n  from-file-token \nsecond line\n");
    const cfg = resolveConfig(
      { apiUrl: "http://flag:1", tokenFile: file },
      {
        PHCTL_API_URL: "http://env:2",
        PHCTL_TOKEN: "env-token",
        PHCTL_GIT_TOKEN: "g",
        PHCTL_MAX_RPS: "5",
      },
    );
    expect(cfg).toEqual({
      apiUrl: "http://flag:1",
      token: "from-file-token",
      gitApiUrl: undefined,
      gitToken: "g",
      maxRps: 5,
      maxRpsFrom: "PHCTL_MAX_RPS",
      concurrency: undefined,
    });
  });

  it("without any API URL resolves to the embedded server (no token needed)", () => {
    expect(resolveConfig({}, {}).apiUrl).toBeUndefined();
  });

  it("says how to give a token, and names a bad flag", () => {
    expect(() => resolveConfig({}, { PHCTL_API_URL: "http://x" })).toThrow(
      "no token for http://x: set PHCTL_TOKEN or pass --token-file FILE",
    );
    const empty = join(dir, "empty");
    writeFileSync(empty, "\n\n");
    expect(() => resolveConfig({ tokenFile: empty }, {})).toThrow(`--token-file ${empty} is empty`);
    expect(() => resolveConfig({ tokenFile: join(dir, "nope") }, {})).toThrow(/ENOENT/);
    let e: unknown;
    try {
      resolveConfig({ maxRps: "fast" }, {});
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(PhctlError);
    expect((e as PhctlError).message).toBe(
      "--max-rps must be 0 (no throttle) or a number of requests per second from 0.1 to 10,000 (got fast)",
    );
  });
});
