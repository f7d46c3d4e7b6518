/**
 * Every change's source in a plan names the document whose edit caused it, end to end: the
 * built CLI against the reference server on loopback. Four projects (p1, p2 `tier: critical`),
 * a Project layer giving every git group `enableCi`, a layer making bwong a reporter
 * everywhere, and another making asmith one.
 * - a repository removed from a project's manifest is located at that manifest, not at the
 *   layer's `group:` line;
 * - a PR narrowing the bwong layer's selector to the critical projects removes bwong from p3
 *   and p4: each removal names that layer, at its document, not the projects' own files;
 * - deleting the bwong layer: the mass-removal refusal at the merged apply names it (from the
 *   reviewed plan's base), not the asmith or groups layers that select the same projects and
 *   never gave bwong.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../src/engine/plan.js";
import { phctl } from "../helpers/cli.js";
import { configFiles, userDoc } from "../helpers/config-files.js";
import { serverHolding, type LiveConfig } from "../helpers/live-config.js";

let live: LiveConfig | undefined;
let dir: string;
let env: Record<string, string>;

const { write, edit, variant } = configFiles(() => dir);

const projectDoc = (i: number) => `apiVersion: phctl/v1
kind: Project
metadata:
  name: p${i}
  labels: { tier: ${i <= 2 ? "critical" : "standard"} }
spec:
  title: Project ${i}
  access:
    admins: [jdoe]
  git:
    repositories:
      - name: r1
      - name: r2
`;
const layerDoc = (name: string, values: string) => `apiVersion: phctl/v1
kind: Defaults
metadata:
  name: ${name}
spec:
  select:
    kind: Project
  values:
${values}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "phctl-base-blame-"));
  write("base/phctl.yaml", "organization: acme\nmaxRemovals: 25%\nprune: { repositories: true }\n");
  write("base/users.yaml", ["jdoe", "asmith", "bwong"].map((n) => userDoc(n)).join("---\n"));
  for (let i = 1; i <= 4; i++) write(`base/projects/p${i}.yaml`, projectDoc(i));
  write(
    "base/defaults/groups.yaml",
    layerDoc("groups", "    git:\n      group: { enableCi: true }\n"),
  );
  write(
    "base/defaults/asmith.yaml",
    layerDoc("asmith-reports", "    access:\n      reporters: [asmith]\n"),
  );
  write(
    "base/defaults/bwong.yaml",
    layerDoc("bwong-reports", "    access:\n      reporters: [bwong]\n"),
  );
  // A repository dropped from p1's own manifest.
  variant("unlisted");
  edit("unlisted/projects/p1.yaml", "      - name: r2\n", "");
  // The bwong layer narrowed to the critical projects.
  variant("narrowed");
  edit(
    "narrowed/defaults/bwong.yaml",
    "    kind: Project\n",
    "    kind: Project\n    matchLabels: { tier: critical }\n",
  );
  // The bwong layer deleted.
  variant("deleted");
  rmSync(join(dir, "deleted/defaults/bwong.yaml"));
  ({ env } = live = await serverHolding(join(dir, "base")));
}, 60_000);
afterAll(async () => {
  await live?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) => phctl(args, env, dir);

describe("a repository removed from a project's manifest", () => {
  it("is located at the project's manifest, not at a layer's group: line", async () => {
    const [full, pr] = await Promise.all([
      run(["plan", "unlisted", "--format", "json"]),
      run(["plan", "unlisted", "--base", "base", "--format", "json"]),
    ]);
    for (const r of [full, pr]) {
      expect(r.code, r.stderr).toBe(0);
      const plan = JSON.parse(r.stdout) as Plan;
      const del = plan.entries.find((e) => e.key === "project/p1/repo/r2");
      expect(del?.action).toBe("delete");
      expect(del?.source).toEqual({ file: "unlisted/projects/p1.yaml", line: 1, column: 1 });
      expect(del?.layer).toBeUndefined();
    }
  });
});

describe("a pull request narrowing a layer's selector", () => {
  it("names the layer at each change it causes, in JSON and text", async () => {
    const r = await run(["plan", "narrowed", "--base", "base", "--format", "json"]);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout) as Plan;
    const removed = plan.entries.filter((e) => e.key.endsWith("/access/reporters/user/bwong"));
    expect(removed.map((e) => e.key).sort()).toEqual([
      "project/p3/access/reporters/user/bwong",
      "project/p4/access/reporters/user/bwong",
    ]);
    for (const e of removed) {
      expect(e.source?.file).toBe("narrowed/defaults/bwong.yaml");
      expect(e.layer).toBe("bwong-reports");
    }
    const text = await run(["plan", "narrowed", "--base", "base"]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(
      /project\/p3\/access\/reporters\/user\/bwong[^\n]*\n\s+narrowed\/defaults\/bwong\.yaml:\d+, Defaults bwong-reports\n/,
    );
    expect(text.stdout).not.toContain("narrowed/projects/p3.yaml");
  });
});

describe("the mass-removal refusal after a layer is deleted", () => {
  it("names the deleted layer, not another layer that selects the same projects", async () => {
    const pr = await run(["plan", "deleted", "--base", "base", "--out", "pr.json"]);
    expect(pr.code, pr.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(join(dir, "pr.json"), "utf8")) as Plan;
    for (const e of saved.entries) expect(e.layer).toBe("bwong-reports");
    const r = await run(["apply", "deleted", "--reviewed", "pr.json", "--auto-approve"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "refusing a mass removal: Defaults bwong-reports (base/defaults/bwong.yaml:1, removed by this change) selected 4 projects, and the plan removes access/reporters/user/bwong from 4 of them",
    );
    expect(r.stderr).not.toContain("asmith-reports");
    expect(r.stderr).not.toContain("Defaults groups");
    // Without the reviewed plan the deleted layer is unknown: still refused, and never blamed
    // on a layer that writes no access list (groups gives only the git group).
    const plain = await run(["apply", "deleted", "--auto-approve"]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain("refusing a mass removal");
    expect(plain.stderr).not.toContain("Defaults groups");
  });
});
