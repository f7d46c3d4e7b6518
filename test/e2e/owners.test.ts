/**
 * Owners end to end: the built CLI, a config in `config/` of a git checkout, and (for the
 * pull-request plan) the reference server on loopback.
 * - `phctl owners --out` writes the CODEOWNERS file in GitHub's and GitLab's syntax, paths
 *   from the top of the checkout;
 * - a committed CODEOWNERS the config has moved away from is stale: `owners --check` and
 *   `validate` (phctl.yaml's owners.file) exit 1 with one line naming it and the command;
 * - `plan --base` of a pull request names, per touched object, the owners to approve: a
 *   project's own owner for its file, the platform team for a layer's edit — in the JSON plan
 *   and the markdown comment.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../src/engine/plan.js";
import { phctl } from "../helpers/cli.js";
import { serverHolding, type LiveConfig } from "../helpers/live-config.js";

let live: LiveConfig | undefined;
let dir: string;
let env: Record<string, string>;

const write = (path: string, text: string) => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
};
const edit = (path: string, from: string, to: string) => {
  const text = readFileSync(join(dir, path), "utf8");
  if (!text.includes(from)) throw new Error(`no ${from} in ${path}`);
  writeFileSync(join(dir, path), text.replace(from, to));
};

const userDoc = (name: string) => `apiVersion: phctl/v1
kind: User
metadata: { name: ${name} }
spec: { firstName: F, lastName: L, externalEmail: ${name}@example.org, services: { git: {} } }
`;
const projectDoc = (name: string, owners: string) => `apiVersion: phctl/v1
kind: Project
metadata:
  name: ${name}
${owners}spec:
  title: ${name}
  access:
    admins: [jdoe]
    developers: [asmith]
`;
const CONFIG = `organization: acme
owners:
  file: ../.github/CODEOWNERS
  platform: { teams: [platform] }
  folders:
    - { path: projects/firmware/, teams: [firmware] }
  handles: { group: acme-gh, users: { alice: alice-gh } }
`;
const LAYER = `apiVersion: phctl/v1
kind: Defaults
metadata: { name: reporters }
spec:
  select: { kind: Project }
  values:
    access:
      reporters: [bwong]
`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "phctl-owners-"));
  // The base: a git checkout with the config in config/.
  execFileSync("git", ["init", "-q", join(dir, "base")]);
  write("base/config/phctl.yaml", CONFIG);
  write("base/config/users.yaml", ["jdoe", "asmith", "bwong", "alice"].map(userDoc).join("---\n"));
  write("base/config/defaults.yaml", LAYER);
  write("base/config/projects/tools.yaml", projectDoc("tools", "  owners: [alice]\n"));
  write("base/config/projects/firmware/tfa.yaml", projectDoc("tfa", ""));
  // The pull request: tools gets a developer, and the layer adds a reporter everywhere.
  cpSync(join(dir, "base"), join(dir, "head"), { recursive: true });
  edit("head/config/projects/tools.yaml", "developers: [asmith]", "developers: [asmith, bwong]");
  edit("head/config/defaults.yaml", "reporters: [bwong]", "reporters: [bwong, alice]");
  ({ env } = live = await serverHolding(join(dir, "base/config")));
}, 60_000);
afterAll(async () => {
  await live?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], cwd = dir) => phctl(args, env, cwd);
const rules = (text: string) => text.split("\n").filter((l) => l !== "" && !l.startsWith("#"));

describe("phctl owners", () => {
  it("writes GitHub's CODEOWNERS: default, folders, then every file with its owners", async () => {
    const r = await run(["owners", "config", "--out", ".github/CODEOWNERS"], join(dir, "base"));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("wrote .github/CODEOWNERS");
    expect(rules(readFileSync(join(dir, "base/.github/CODEOWNERS"), "utf8"))).toEqual([
      "/config/ @acme-gh/platform",
      "/config/projects/firmware/ @acme-gh/firmware",
      "/config/defaults.yaml @acme-gh/platform",
      "/config/phctl.yaml @acme-gh/platform",
      "/config/projects/firmware/tfa.yaml @jdoe @acme-gh/firmware",
      "/config/projects/tools.yaml @alice-gh",
      "/config/users.yaml @acme-gh/platform",
    ]);
    // Checked against itself: up to date, and validate agrees.
    const check = await run(
      ["owners", "config", "--check", ".github/CODEOWNERS"],
      join(dir, "base"),
    );
    expect(check.code, check.stderr).toBe(0);
    const valid = await run(["validate", "config"], join(dir, "base"));
    expect(valid.code, valid.stdout).toBe(0);
  });

  it("writes GitLab's: one [phctl] section whose header names the default owners", async () => {
    const r = await run(["owners", "base/config", "--format", "gitlab"]);
    expect(r.code, r.stderr).toBe(0);
    expect(rules(r.stdout)).toEqual([
      "[phctl] @acme-gh/platform",
      "/config/",
      "/config/projects/firmware/ @acme-gh/firmware",
      "/config/defaults.yaml",
      "/config/phctl.yaml",
      "/config/projects/firmware/tfa.yaml @jdoe @acme-gh/firmware",
      "/config/projects/tools.yaml @alice-gh",
      "/config/users.yaml",
    ]);
  });
});

describe("a stale CODEOWNERS", () => {
  it("fails owners --check and validate with one line naming the file and the command", async () => {
    const stale = join(dir, "stale");
    cpSync(join(dir, "base"), stale, { recursive: true });
    // The committed file is the base's; the config then names another owner for tools.
    const r = await run(["owners", "config", "--out", ".github/CODEOWNERS"], stale);
    expect(r.code, r.stderr).toBe(0);
    edit("stale/config/projects/tools.yaml", "owners: [alice]", "owners: [alice, asmith]");
    const check = await run(["owners", "config", "--check", ".github/CODEOWNERS"], stale);
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(
      "phctl: .github/CODEOWNERS is stale: line 13 is not what the config's owners give; run phctl owners config --format github --out .github/CODEOWNERS, and commit it\n",
    );
    const valid = await run(["validate", "config"], stale);
    expect(valid.code).toBe(1);
    expect(valid.stdout).toContain(
      ".github/CODEOWNERS:13:1 .github/CODEOWNERS is stale: line 13 is not what the config's owners give; run phctl owners config --format github --out .github/CODEOWNERS, and commit it\n",
    );
    rmSync(join(stale, ".github/CODEOWNERS"));
    const missing = await run(["validate", "--codeowners", ".github/CODEOWNERS", "config"], stale);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(".github/CODEOWNERS does not exist: run phctl owners");
  });
});

describe("the pull-request plan", () => {
  it("names the owners each touched object needs, by the target branch's owners", async () => {
    const r = await run(["plan", "head/config", "--base", "base/config", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    expect(plan.owners).toEqual([
      {
        key: "project/tfa",
        files: ["head/config/defaults.yaml"],
        users: [],
        teams: ["platform"],
        handles: ["@acme-gh/platform"],
      },
      {
        key: "project/tools",
        files: ["head/config/defaults.yaml", "head/config/projects/tools.yaml"],
        users: ["alice"],
        teams: ["platform"],
        handles: ["@alice-gh", "@acme-gh/platform"],
      },
    ]);
    const md = await run(["plan", "head/config", "--base", "base/config", "--format", "markdown"]);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain("#### Owners to approve — 2 objects");
    expect(md.stdout).toContain(
      "- **@acme-gh/platform**: `project/tfa` (`head/config/defaults.yaml`)",
    );
    expect(md.stdout).toContain(
      "- **@alice-gh, @acme-gh/platform**: `project/tools` (`head/config/defaults.yaml`, `head/config/projects/tools.yaml`)",
    );
  });
});
