/**
 * A changed field is located at its own manifest line, as every plan output shows it (the
 * built CLI against the reference server): the project's title at line 9, not at its
 * document's start; a repository's issueTracking at that key inside its list item; a second
 * changed field of the same entry at its own line too. In the text and markdown plans, in
 * the JSON plan's `source` (the first changed field's line) and in each change's `source`.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAN_FORMAT_VERSION, type Plan } from "../../src/engine/plan.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const TFA = "examples/projects/trusted-firmware-a.yaml";
let t: TestServer;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  t = await startServer();
  dir = mkdtempSync(join(tmpdir(), "phctl-field-lines-"));
  // The examples without Defaults layers: every field at a line of its own document.
  cpSync(join(import.meta.dirname, "../fixtures/examples-flat"), join(dir, "examples"), {
    recursive: true,
  });
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
  const applied = await phctl(["apply", "examples", "--auto-approve"], env, dir);
  expect(applied.code, applied.stderr).toBe(0);
  // Line 9: title, 10: description; the tf-a-tests item starts on line 31 with its
  // issueTracking on 32 and mergeRequests on 33.
  const file = join(dir, TFA);
  const lines = readFileSync(file, "utf8").split("\n");
  expect([lines[8], lines[9], lines[30], lines[31], lines[32]]).toEqual([
    "  title: Trusted Firmware-A",
    expect.stringMatching(/^ {2}description: /),
    "      - name: tf-a-tests",
    "        issueTracking: enabled",
    "        mergeRequests: enabled",
  ]);
  lines[8] = "  title: Trusted Firmware-A (TF-A)";
  lines[9] = "  description: Secure-world software";
  lines[31] = "        issueTracking: disabled";
  lines[32] = "        mergeRequests: private";
  writeFileSync(file, lines.join("\n"));
}, 60_000);
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a changed field at its own line", () => {
  it("JSON: the entry's source is its first changed field's line, each change has its own", async () => {
    const r = await phctl(["plan", "examples", "--format", "json"], env, dir);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    const at = (key: string) => plan.entries.find((e) => e.key === key && e.action === "update")!;
    const project = at("project/trusted-firmware-a");
    expect(project.source).toEqual({ file: TFA, line: 9, column: 3 });
    expect(project.changes.map((c) => [c.field, c.source?.line])).toEqual([
      ["title", 9],
      ["description", 10],
    ]);
    const repo = at("project/trusted-firmware-a/repo/tf-a-tests");
    expect(repo.source).toEqual({ file: TFA, line: 32, column: 9 });
    expect(repo.changes.map((c) => [c.field, c.source?.line])).toEqual([
      ["issueTracking", 32],
      ["mergeRequests", 33],
    ]);
    expect(plan.entries).toHaveLength(2);
  });

  it("text: the entry at the first field's line, a further field with its own", async () => {
    const r = await phctl(["plan", "examples"], env, dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `  ~ project/trusted-firmware-a (Project) will be updated in place\n    ${TFA}:9\n      ~ title: "Trusted Firmware-A" → "Trusted Firmware-A (TF-A)"\n`,
    );
    expect(r.stdout).toMatch(/~ description: .* → "Secure-world software" {2}\(line 10\)\n/);
    expect(r.stdout).toContain(
      `    ${TFA}:32\n      ~ issueTracking: "enabled" → "disabled"\n      ~ mergeRequests: "enabled" → "private"  (line 33)\n`,
    );
  });

  it("markdown: the header at the first field's line, a further field with its own", async () => {
    const r = await phctl(["plan", "examples", "--format", "markdown"], env, dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`  project/trusted-firmware-a (Project)  # ${TFA}:9\n`);
    expect(r.stdout).toMatch(/\+ {3}description: "Secure-world software" {2}# line 10\n/);
    expect(r.stdout).toContain(
      `  project/trusted-firmware-a/repo/tf-a-tests (Repository)  # ${TFA}:32\n`,
    );
    expect(r.stdout).toContain('+   mergeRequests: "private"  # line 33\n');
  });

  it("a saved plan of an earlier format (format 2: no layers) is refused in one line: make it again", async () => {
    const r = await phctl(["plan", "examples", "--out", "plan.json"], env, dir);
    expect(r.code, r.stderr).toBe(0);
    const file = join(dir, "plan.json");
    const plan = JSON.parse(readFileSync(file, "utf8")) as Plan;
    expect(plan.formatVersion).toBe(PLAN_FORMAT_VERSION);
    writeFileSync(file, JSON.stringify({ ...plan, formatVersion: 2, phctlVersion: "0.0.9" }));
    const old = await phctl(["apply", "plan.json"], env, dir);
    expect(old.code).toBe(1);
    expect(old.stderr).toBe(
      "phctl: plan.json is a plan of format 2, made by phctl 0.0.9; this phctl reads format 3: make the plan again with this phctl (phctl plan --out)\n",
    );
  });
});
