/**
 * Bidi controls in live values ("Trojan Source", CVE-2021-42574) end to end: the built CLI
 * against the reference server, whose project titles and descriptions and user names hold
 * U+202E, U+2067, U+200F and U+061C, and so does the name of a user no manifest declares
 * (a key; the API and the manifests allow no such name). Export writes them as
 * escapes and plans to no changes; the text and markdown plans, the drift issue (fake GitHub),
 * drift --adopt and validate show them as `\u202e`, never raw.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { phctl } from "../helpers/cli.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { EVIL, rawAt, SHOWN } from "../helpers/hidden.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let t: TestServer;
let gh: FakeGitHub;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  [t, gh] = await Promise.all([startServer(), startFakeGitHub()]);
  seed(t.server.ctx, {
    parentOrganization: "acme",
    orgTeams: [{ organization: "acme", name: "Firmware leads", path: "acme/fw-leads" }],
    users: [
      {
        username: "jdoe",
        firstName: `Ja${EVIL}ne`,
        lastName: "Doe",
        displayName: `Jane ${EVIL}Doe`,
        externalEmail: "jane@example.org",
        services: { git: {} },
      },
    ],
    projects: [
      {
        slug: "tf-a",
        name: `Trusted${EVIL} Firmware`,
        description: `Secure${EVIL} world — a literal \\u202e stays text`,
        access: { admins: ["jdoe"] },
        orgTeams: { developers: ["acme/fw-leads"] },
        git: { repositories: [{ name: "tf-a-tests" }] },
      },
    ],
  });
  dir = mkdtempSync(join(tmpdir(), "phctl-hidden-"));
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
});
afterAll(async () => {
  await Promise.all([t?.close(), gh?.close()]);
});

/** Every YAML file export wrote, one text. */
const exported = () => {
  const files = readdirSync(join(dir, "config"), { recursive: true, encoding: "utf8" });
  const yaml = files.filter((f) => f.endsWith(".yaml"));
  expect(yaml).toContain(join("projects", "tf-a.yaml"));
  return yaml.map((f) => readFileSync(join(dir, "config", f), "utf8")).join("\n");
};
const noRaw = (text: string) => expect(rawAt(text)).toBe("");

describe("hidden characters in live values", () => {
  it("export writes them escaped in double quotes; the export validates and plans to no changes", async () => {
    const r = await phctl(["export", "--organization", "acme", "--out", "config"], env, dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const yaml = exported();
    noRaw(yaml);
    expect(yaml).toContain(`"Trusted${SHOWN} Firmware"`);
    expect(yaml).toContain(`"Secure${SHOWN} world — a literal \\\\u202e stays text"`);
    expect(yaml).toContain(`"Ja${SHOWN}ne"`);
    const v = await phctl(["validate", "config"], env, dir);
    expect(v.stdout).toMatch(/^0 errors, 0 warnings/m);
    expect(v.code).toBe(0);
    const p = await phctl(["plan", "config", "--detailed-exitcode"], env, dir);
    expect(p.stdout).toContain("No changes. Live state matches the manifests.");
    expect(p.code).toBe(0);
  });

  it("the text and markdown plans show a live change escaped, values still JSON", async () => {
    const r = await t.call("PATCH", "/v1/projects/tf-a", {
      body: { name: `New${EVIL} title`, description: `Changed ${EVIL}live` },
    });
    expect(r.status).toBe(200);
    // A live user no manifest declares, whose name (a key) the API would refuse.
    seed(t.server.ctx, {
      parentOrganization: "acme",
      users: [
        {
          username: `ma${EVIL}llory`,
          firstName: "M",
          lastName: "L",
          externalEmail: "m@example.org",
        },
      ],
    });
    const text = await phctl(["plan", "config", "--verbose"], env, dir);
    expect(text.code).toBe(0);
    noRaw(text.stdout + text.stderr);
    expect(text.stdout).toContain(`"Changed ${SHOWN}live" → "Secure${SHOWN} world`);
    expect(text.stdout).toContain(`"New${SHOWN} title" → "Trusted${SHOWN} Firmware"`);
    expect(text.stdout).toContain(`user/ma${SHOWN}llory (User)`);
    const md = await phctl(["plan", "config", "--format", "markdown"], env, dir);
    expect(md.code).toBe(0);
    noRaw(md.stdout + md.stderr);
    expect(md.stdout).toContain(`"Changed ${SHOWN}live"`);
  });

  it("the drift issue body shows them escaped", async () => {
    const r = await phctl(
      ["drift", "config", "--report", "github-issue"],
      {
        ...env,
        GITHUB_ACTIONS: "true",
        GITHUB_EVENT_NAME: "schedule",
        GITHUB_API_URL: gh.url,
        GITHUB_SERVER_URL: "https://github.example",
        GITHUB_REPOSITORY: "acme/config",
        GITHUB_TOKEN: GITHUB_TOKENS.write,
        GITHUB_RUN_ID: "7",
        GITHUB_RUN_NUMBER: "7",
      },
      dir,
    );
    expect(r.stderr).toMatch(/opened/);
    expect(r.code).toBe(2);
    const [issue] = gh.issues.list("acme/config");
    noRaw(`${issue.title}\n${issue.body}`);
    expect(issue.body).toContain(`"Changed ${SHOWN}live"`);
  });

  it("drift --adopt writes the live values escaped, and the adopted manifests plan to no changes", async () => {
    const r = await phctl(["drift", "config", "--adopt"], env, dir);
    expect(r.code).toBe(2);
    noRaw(r.stdout + r.stderr);
    const yaml = readFileSync(join(dir, "config", "projects", "tf-a.yaml"), "utf8");
    noRaw(yaml);
    expect(yaml).toContain(`"Changed ${SHOWN}live"`);
    expect(yaml).toContain(`"New${SHOWN} title"`);
    const p = await phctl(["plan", "config", "--detailed-exitcode"], env, dir);
    expect(p.stdout).toContain("No changes. Live state matches the manifests.");
    expect(p.code).toBe(0);
  });

  it("validate's diagnostics quote a manifest's hidden characters escaped", async () => {
    mkdirSync(join(dir, "bad"));
    const manifest = readFileSync(join(dir, "config", "projects", "tf-a.yaml"), "utf8");
    writeFileSync(
      join(dir, "bad", "tf-a.yaml"),
      manifest.replace("spec:\n", `spec:\n  titel${EVIL}: x\n`),
    );
    for (const format of ["text", "github"]) {
      const v = await phctl(["validate", "bad", "--format", format], env, dir);
      expect(v.code).toBe(1);
      noRaw(v.stdout + v.stderr);
      expect(v.stdout).toContain(`titel${SHOWN}`);
    }
  });
});
