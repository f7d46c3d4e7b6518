/**
 * `phctl explain` on what a layer sets that has no leaf of its own — an empty mapping
 * (`services: {git: {}}`) is a setting by that layer — and on `inherit: false`: the layers it
 * cuts off are not "Selected by" and the field is not "not set by any layer": explain says
 * the object cut them off, and where. The built CLI on a small config (no network).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Explanation } from "../../src/layers/explain.js";
import { phctl } from "../helpers/cli.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "phctl-explain-inherit-"));
  writeFileSync(join(dir, "phctl.yaml"), "organization: acme\n");
  writeFileSync(
    join(dir, "users.yaml"),
    `apiVersion: phctl/v1
kind: User
metadata: { name: jdoe }
spec:
  firstName: J
  lastName: D
  externalEmail: jdoe@example.org
`,
  );
  writeFileSync(
    join(dir, "p1.yaml"),
    `apiVersion: phctl/v1
kind: Project
metadata:
  name: p1
spec:
  title: Project 1
  access:
    inherit: false
    admins: [jdoe]
  git:
    inherit: false
    repositories:
      - name: r1
`,
  );
  writeFileSync(
    join(dir, "defaults.yaml"),
    `apiVersion: phctl/v1
kind: Defaults
metadata:
  name: git-for-all
spec:
  select:
    kind: User
  values:
    services:
      git: {}
---
apiVersion: phctl/v1
kind: Defaults
metadata:
  name: security-reporters
spec:
  select:
    kind: Project
  values:
    access:
      reporters: [bwong]
---
apiVersion: phctl/v1
kind: Defaults
metadata:
  name: repo-settings
spec:
  select:
    kind: Repository
  values:
    enableForking: false
`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const explain = (...args: string[]) => phctl(["explain", ...args, "."], {}, dir);

describe("explain: an empty mapping a layer sets", () => {
  it("is set by that layer, at its line", async () => {
    const r = await explain("user/jdoe", "services.git");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("not set");
    expect(r.stdout).toContain(
      "services.git = {}\n  ← Defaults git-for-all (priority 0; users) defaults.yaml:10\n",
    );
    const service = await explain("user/jdoe/service/git");
    expect(service.code, service.stderr).toBe(0);
    expect(service.stdout).toContain("Selected by:\n  Defaults git-for-all");
    expect(service.stdout).toContain("← Defaults git-for-all (priority 0; users) defaults.yaml:10");
  });
});

describe("explain: inherit: false", () => {
  it("names the layers it cuts off and where, not as 'Selected by' nor 'not set by any layer'", async () => {
    const r = await explain("project/p1", "access.reporters");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain("Selected by");
    expect(r.stdout).not.toContain("not set by the object's manifest or any layer");
    expect(r.stdout).toContain(
      "Cut off by inherit: false (they select it and give it nothing):\n  Defaults security-reporters (priority 0; projects) defaults.yaml:12\n    cut off at access by the object's own manifest p1.yaml:8\n",
    );
    expect(r.stdout).toContain(
      'access.inherit = false\n  ← the object\'s own manifest p1.yaml:8\n  ✂ cuts off Defaults security-reporters (priority 0; projects) defaults.yaml:21: ["bwong"]\n',
    );
  });

  it("a Repository layer cut off above the repository; JSON says where", async () => {
    const r = await explain("project/p1/repo/r1", "enableForking", "--format", "json");
    expect(r.code, r.stderr).toBe(0);
    const e = JSON.parse(r.stdout) as Explanation;
    expect(e.layers).toEqual([
      {
        name: "repo-settings",
        file: "defaults.yaml",
        line: 23,
        priority: 0,
        selector: "repositories",
        cutOff: { path: "spec.git", file: "p1.yaml", line: 11, from: "own" },
      },
    ]);
    expect(e.values).toHaveLength(1);
    expect(e.values[0]).toMatchObject({
      path: "spec.git.inherit",
      value: false,
      chain: [{ from: "own", file: "p1.yaml", line: 11 }],
      cutOff: [{ from: "layer", layer: "repo-settings", file: "defaults.yaml", line: 31 }],
    });
  });
});
