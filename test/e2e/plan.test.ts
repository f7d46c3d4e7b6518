/**
 * `phctl plan` and `phctl drift` end to end: the built CLI against the reference server on
 * loopback, with the examples as the config repository.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { phctl } from "../helpers/cli.js";
import { populate } from "../helpers/populate.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { copyExamples } from "../helpers/examples.js";

let t: TestServer;
let api: ApiClient;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  t = await startServer();
  api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  dir = mkdtempSync(join(tmpdir(), "phctl-plan-"));
  copyExamples(join(dir, "examples"));
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
});
afterAll(async () => {
  await api.close();
  await t.close();
});

const writes = () => t.server.requestLog.filter((e) => e.method !== "GET");

describe("phctl plan against an empty service", () => {
  it("plans every declared object with its manifest source; --detailed-exitcode exits 2", async () => {
    const before = writes().length;
    const r = await phctl(["plan", "examples", "--detailed-exitcode"], env, dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(
      /\+ project\/trusted-firmware-a \(Project\) will be created\n {4}examples\/projects\/trusted-firmware-a\.yaml:\d+/,
    );
    expect(r.stdout).toMatch(
      /\+ user\/jdoe \(User\) will be created\n {4}examples\/users\/acme\.yaml:\d+/,
    );
    expect(r.stdout).toMatch(
      /Plan: \d+ to create, 0 to update, 0 to delete; 0 tickets, 0 blocked\./,
    );
    expect(r.stdout).toMatch(/read \d+ objects in \d+ calls/);
    expect(writes().length).toBe(before); // planning never writes
  });

  it("--format json validates against schemas/plan.schema.json; --out stores the same plan", async () => {
    const r = await phctl(
      ["plan", "examples", "--format", "json", "--out", "saved.json"],
      env,
      dir,
    );
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout);
    const schema = JSON.parse(readFileSync("schemas/plan.schema.json", "utf8"));
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate(plan), JSON.stringify(validate.errors)).toBe(true);
    const saved = JSON.parse(readFileSync(join(dir, "saved.json"), "utf8"));
    expect(saved.entries).toEqual(plan.entries);
    expect(plan.entries.every((e: { source: unknown }) => e.source !== null)).toBe(true);
  });

  it("--format markdown starts with the verdict and the plan hash", async () => {
    const r = await phctl(["plan", "examples", "--format", "markdown"], env, dir);
    expect(r.stdout).toMatch(/^### phctl plan: .* · acme · plan `[0-9a-f]{12}`$/m);
    expect(r.stdout).toContain("| create |");
  });
});

describe("after the service matches the manifests", () => {
  beforeAll(async () => {
    const { state } = await loadManifests([join(dir, "examples")]);
    await populate(api, state!);
  });

  it("plan shows no changes and exits 0 with --detailed-exitcode; drift exits 0", async () => {
    const r = await phctl(["plan", "examples", "--detailed-exitcode"], env, dir);
    expect(r.stdout).toContain("No changes. Live state matches the manifests.");
    expect(r.code).toBe(0);
    expect((await phctl(["drift", "examples"], env, dir)).code).toBe(0);
  });

  it("drift exits 2 and names every drifted object and field", async () => {
    const repos = (await t.call("GET", "/v1/projects/trusted-firmware-a/git/repo")).body.data;
    const tfa = repos.find((x: { name: string }) => x.name === "tf-a-tests");
    expect(
      (
        await t.call("PATCH", `/v1/projects/trusted-firmware-a/git/repo/${tfa.gitRepoID}`, {
          body: { issueTracking: "disabled" },
        })
      ).status,
    ).toBe(200);
    expect(
      (await t.call("DELETE", "/v1/projects/trusted-firmware-a/maintainers/users/asmith")).status,
    ).toBe(200);
    const added = await t.call("POST", "/v1/projects/trusted-firmware-a/developers/users/bwong");
    await t.waitJob(`/v1/users/service/entitlement/queue/${added.body.queueid}/status`);
    const mirrors = (await t.call("GET", "/v1/projects/trusted-firmware-a/git/mirrors")).body.data;
    const m = await t.call("POST", "/v1/projects/trusted-firmware-a/git/mirrors/disable", {
      body: { mirrorIds: [Number(mirrors[0].mirrorID)], notes: "maintenance" },
    });
    expect(m.status).toBe(200);

    const r = await phctl(["drift", "examples"], env, dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(
      "~ project/trusted-firmware-a/repo/tf-a-tests (Repository) will be updated in place",
    );
    expect(r.stdout).toContain('~ issueTracking: "disabled" → "enabled"');
    expect(r.stdout).toContain(
      "+ project/trusted-firmware-a/access/maintainers/user/asmith (ProjectAccess) will be created",
    );
    expect(r.stdout).toContain(
      "- project/trusted-firmware-a/access/developers/user/bwong (ProjectAccess) will be DELETED",
    );
    expect(r.stdout).toMatch(
      /~ project\/trusted-firmware-a\/mirror\/.* \(Mirror\) will be updated in place/,
    );
    expect(r.stdout).toContain("~ enabled: false → true");
    expect(r.stderr).toContain("drift: 4 differences");
  });

  it("visibility and email changes are ticket and blocked entries, never sent", async () => {
    const project = join(dir, "examples/projects/trusted-firmware-a.yaml");
    writeFileSync(
      project,
      readFileSync(project, "utf8").replace("visibility: public", "visibility: private"),
    );
    const users = join(dir, "examples/users/acme.yaml");
    writeFileSync(
      users,
      readFileSync(users, "utf8").replace("jane.doe@example.org", "jane@example.org"),
    );
    const before = writes().length;
    const r = await phctl(["plan", "examples", "--format", "json"], env, dir);
    const plan = JSON.parse(r.stdout);
    const ticket = plan.entries.find((e: { action: string }) => e.action === "ticket");
    expect(ticket).toMatchObject({
      key: "project/trusted-firmware-a",
      changes: [{ field: "visibility", before: "public", after: "private" }],
    });
    expect(ticket.ticket.body).toContain("examples/projects/trusted-firmware-a.yaml");
    const blocked = plan.entries.find((e: { action: string }) => e.action === "blocked");
    expect(blocked).toMatchObject({ key: "user/jdoe", blocked: { field: "externalEmail" } });
    expect(writes().length).toBe(before);
    const text = await phctl(["plan", "examples"], env, dir);
    expect(text.stdout).toContain("Support tickets needed");
    expect(text.stdout).toContain("Blocked (cannot be reached through the API)");
  });

  it("a secret a live value holds never reaches what plan prints", async () => {
    // Someone pasted the token into a project's description.
    const patched = await t.call("PATCH", "/v1/projects/ci-tools", {
      body: { description: `see ${TOKENS.admin.secret}` },
    });
    expect(patched.status).toBe(200);
    for (const format of ["text", "markdown", "json"]) {
      const r = await phctl(["plan", "examples", "--format", format], env, dir);
      expect(r.stdout).toContain("project/ci-tools");
      expect(r.stdout + r.stderr).not.toContain(TOKENS.admin.secret);
    }
    const restored = await t.call("PATCH", "/v1/projects/ci-tools", {
      body: { description: "Shared continuous-integration tooling" },
    });
    expect(restored.status).toBe(200);
  });

  it("a user referenced but neither declared nor live is an error naming file and line", async () => {
    const file = join(dir, "examples/projects/ci-tools.yaml");
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.replace(/reporters: \[[^\]]*\]/, "reporters: [nobody-here]"));
    const r = await phctl(["plan", "examples"], env, dir);
    writeFileSync(file, text);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^phctl: examples\/projects\/ci-tools\.yaml:\d+:\d+ user nobody-here is neither declared in the manifests nor exists live\n$/m,
    );
  });
});
