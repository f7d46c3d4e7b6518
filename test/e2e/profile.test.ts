/**
 * A service shaped differently, end to end: the reference server speaks the API profile
 * test/fixtures/api-profiles/shaped.yaml (lists in `items` with a renamed `paging` object
 * and paging parameters, the job id in `jobId`, other methods and paths for several
 * writes). Without the profile, plan, apply and export stop with exit 1 naming the
 * operation and the field, and nothing is written; with it (flag or phctl.yaml), apply
 * converges and plan shows no changes; an export made with it carries it (api-profile.yaml,
 * named by the exported phctl.yaml), so a plan of the export needs no flag.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadApiProfile } from "../../src/api/profile-load.js";
import { MAIN, phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { copyExamples } from "../helpers/examples.js";

const PROFILE = "test/fixtures/api-profiles/shaped.yaml";

let t: TestServer;
let dir: string;
let env: Record<string, string>;
let profile: string;

beforeAll(async () => {
  t = await startServer({ apiProfile: loadApiProfile(PROFILE) });
  dir = mkdtempSync(join(tmpdir(), "phctl-profile-"));
  copyExamples(join(dir, "examples"));
  profile = join(dir, "shaped.yaml");
  cpSync(PROFILE, profile);
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
});
afterAll(() => t.close());

const writes = () => t.server.requestLog.filter((e) => e.method !== "GET");
const LIST_MISMATCH =
  /^phctl: the service's answer to (users|teams|projects|orgTeams)\.list does not fit: \/data expected an array, got nothing \(the answer had: items, paging\) \(and 1 more\); if the service names the list differently, set envelope\.list\.items: items in an API profile \(apiProfile: in phctl\.yaml, or --api-profile FILE\)\n$/;

describe("without the profile", () => {
  it("plan, apply and export exit 1 naming the operation and field, and write nothing", async () => {
    const [plan, apply, exported] = await Promise.all([
      phctl(["plan", "examples"], env, dir),
      phctl(["apply", "examples", "--auto-approve"], env, dir),
      phctl(["export", "--organization", "acme", "--out", "out"], env, dir),
    ]);
    for (const r of [plan, apply, exported]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(LIST_MISMATCH);
    }
    expect(plan.stdout).toBe("");
    expect(existsSync(join(dir, "out"))).toBe(false);
    expect(writes()).toEqual([]);
  });
});

describe("with the profile", () => {
  it("apply converges, calling the profile's methods and paths", async () => {
    const r = await phctl(
      ["--api-profile", profile, "apply", "examples", "--auto-approve"],
      env,
      dir,
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Apply complete: \d+ done, 0 failed, 0 skipped/);
    const sent = new Set(writes().map((e) => `${e.method} ${e.operation} ${e.url.split("?")[0]}`));
    for (const call of [
      "POST users.create /v1/users/new",
      "PUT projects.create /v1/projects/new",
      "PUT git.repos.create /v1/projects/trusted-firmware-a/git/repositories",
      "POST git.group.create /v1/projects/trusted-firmware-a/git/group",
      "POST teams.create /v1/teams/new",
      "POST users.git.create /v1/users/jdoe/accounts/git",
    ])
      expect(sent).toContain(call);
    expect(t.server.requestLog.filter((e) => e.status === 404)).toEqual([]);
  });

  it("plan shows no changes, with --api-profile or apiProfile: in phctl.yaml", async () => {
    const config = join(dir, "examples", "phctl.yaml");
    writeFileSync(config, `${readFileSync(config, "utf8")}apiProfile: ../shaped.yaml\n`);
    const before = writes().length;
    const [flag, configured] = await Promise.all([
      phctl(["--api-profile", profile, "plan", "examples", "--detailed-exitcode"], env, dir),
      phctl(["plan", "--detailed-exitcode"], env, join(dir, "examples")),
    ]);
    for (const r of [flag, configured]) {
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/No changes\. Live state matches the manifests\./);
    }
    expect(writes().length).toBe(before);
  });

  it("export reads the service through the profile", async () => {
    const r = await phctl(
      ["--api-profile", profile, "export", "--organization", "acme", "--out", "exported"],
      env,
      dir,
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Exported 5 users, 2 teams and 3 projects of acme/);
  });

  it("the exported directory carries the profile: validate and plan read it without the flag", async () => {
    const out = join(dir, "exported-for-plan");
    const r = await phctl(
      ["--api-profile", profile, "export", "--organization", "acme", "--out", out],
      env,
      dir,
    );
    expect(r.code).toBe(0);
    expect(readFileSync(join(out, "api-profile.yaml"), "utf8")).toBe(readFileSync(profile, "utf8"));
    expect(readFileSync(join(out, "phctl.yaml"), "utf8")).toMatch(
      /^apiProfile: api-profile\.yaml /m,
    );
    const before = writes().length;
    // From another directory, no flag: only the exported phctl.yaml names the profile.
    const [validate, plan] = await Promise.all([
      phctl(["validate", out], env, tmpdir()),
      phctl(["plan", out, "--detailed-exitcode"], env, tmpdir()),
    ]);
    expect(validate.stderr).toBe("");
    expect(validate.code).toBe(0);
    expect(plan.stderr).toBe("");
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/No changes\. Live state matches the manifests\./);
    expect(writes().length).toBe(before);
  });
});

describe("phctl serve --api-profile", () => {
  it("serves the API in the profile's shape", async () => {
    const child = spawn(
      process.execPath,
      [MAIN, "serve", "--port", "0", "--token", "s3:system-admin:acme", "--api-profile", PROFILE],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      let out = "";
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on("data", (d: Buffer) => {
          out += String(d);
          const m = /listening on (\S+)/.exec(out);
          if (m && out.includes("API profile")) resolve(m[1]);
        });
        child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${out}`)));
      });
      expect(out).toContain(`serving the API as the API profile ${PROFILE} shapes it`);
      const res = await request(`${url}/v1/users?pageSize=1`, {
        headers: { authorization: "Bearer s3" },
      });
      const body = (await res.body.json()) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(["items", "paging"]);
      expect(body.paging).toMatchObject({ pageNumber: 1, pageSize: 1 });
    } finally {
      child.kill();
    }
  });
});
