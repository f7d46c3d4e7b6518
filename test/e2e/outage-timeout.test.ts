/**
 * `--outage-timeout` on every command that talks to the service (plan, apply, drift, export,
 * api, doctor): against a loopback port nothing listens on, each one gives up after the
 * deadline it was given — exit 1 and the outage line — instead of waiting out the default
 * 2 minutes; phctl.yaml's `outageTimeout:` does the same without the flag.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { phctl } from "../helpers/cli.js";
import { copyExamples } from "../helpers/examples.js";

// The time it says is the time measured since the last answer: on a loaded machine the
// deadline's timer may fire a little late, and the line then says so (1.1 s, 1.2 s).
const GAVE_UP =
  /has not answered for 1(\.\d)? s \(last: connection refused \(ECONNREFUSED\)\); gave up waiting/;
let url: string;
let dir: string;

/** A loopback URL whose port nothing listens on (taken, then let go). */
async function deadUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

/** Run phctl against the dead URL; the time it took, in seconds. */
async function timed(args: string[], cwd = dir) {
  const t0 = performance.now();
  const r = await phctl([...args, "--api-url", url], { PHCTL_TOKEN: "a-token-1234" }, cwd);
  return { ...r, seconds: (performance.now() - t0) / 1000 };
}

beforeAll(async () => {
  url = await deadUrl();
  // The examples' phctl.yaml says outageTimeout: 2m: the flag wins over it.
  dir = mkdtempSync(join(tmpdir(), "phctl-outage-"));
  copyExamples(join(dir, "examples"));
});

describe("--outage-timeout", () => {
  // Commands that read with several calls at once meet the outage gate at once; a lone call
  // (api, export, and plan's first read of the organization list) closes it after a second
  // of trouble.
  const commands: [string, string[]][] = [
    ["drift", ["drift", "examples"]],
    ["plan", ["plan", "examples"]],
    ["apply", ["apply", "examples", "--auto-approve"]],
    ["api", ["api", "GET", "/v1/licenses"]],
    ["export", ["export", "--organization", "acme", "--out", "exported"]],
  ];

  it.each(commands)(
    "%s --outage-timeout 1s gives up after 1 s: exit 1, the outage line",
    async (_, args) => {
      const r = await timed([...args, "--outage-timeout", "1s"]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(GAVE_UP);
      expect(r.stderr).not.toMatch(/unknown option|at .*\.js:\d+/);
      expect(r.seconds).toBeLessThan(10);
    },
  );

  it("export, api and doctor take it too: a bad value is refused before anything is sent", async () => {
    const runs = await Promise.all([
      timed(["export", "--organization", "acme", "--out", "exported", "--outage-timeout", "soon"]),
      timed(["api", "GET", "/v1/licenses", "--outage-timeout", "soon"]),
      timed(["doctor", "--outage-timeout", "soon"]),
      timed(["drift", "examples", "--outage-timeout", "soon"]),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        "phctl: --outage-timeout must be a duration such as 90s, 2m or 1h30m (got soon)\n",
      );
    }
    const doctor = await timed(["doctor", "--outage-timeout", "1s"]);
    expect(doctor.code, doctor.stderr).toBe(1);
    expect(doctor.stdout).toContain("phctl cannot work with this service as it is");
  });

  it("every one of them lists it in its help", async () => {
    for (const command of ["plan", "apply", "drift", "export", "api", "doctor"]) {
      const r = await phctl([command, "--help"], {});
      expect(r.stdout, command).toMatch(/--outage-timeout <duration>\s+how long to wait out a service that stopped\s+answering/); // prettier-ignore
    }
  });
});

describe("outageTimeout: in phctl.yaml", () => {
  it("drift takes the config's when no flag says", async () => {
    const own = mkdtempSync(join(tmpdir(), "phctl-outage-yaml-"));
    writeFileSync(join(own, "phctl.yaml"), "organization: acme\noutageTimeout: 1s\n");
    writeFileSync(
      join(own, "org.yaml"),
      "apiVersion: phctl/v1\nkind: Organization\nmetadata:\n  name: acme-partner\nspec: {}\n",
    );
    const r = await timed(["drift", "."], own);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(GAVE_UP);
    expect(r.seconds).toBeLessThan(10);
  }, 20_000);
});
