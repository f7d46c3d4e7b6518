/**
 * `phctl explain` and `phctl render` end to end: the built CLI on the examples (which use
 * Defaults layers) and on small layered configs, render's output planned against the
 * reference server on loopback.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../src/engine/plan.js";
import type { Explanation } from "../../src/layers/explain.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { copyExamples } from "../helpers/examples.js";

let t: TestServer;
let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  t = await startServer();
  dir = mkdtempSync(join(tmpdir(), "phctl-explain-"));
  copyExamples(join(dir, "examples"));
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
});
afterAll(() => t.close());

/** The line of `text` in a file of the examples copy (1-based). */
function lineOf(file: string, text: string): number {
  const lines = readFileSync(join(dir, file), "utf8").split("\n");
  const i = lines.findIndex((l) => l.includes(text));
  if (i < 0) throw new Error(`${text} not in ${file}`);
  return i + 1;
}

describe("phctl explain", () => {
  it("text: each value with the document that gave it, winner first, overridden ones below", async () => {
    const r = await phctl(
      ["explain", "project/trusted-firmware-a/repo/tf-a-tests", "examples"],
      {},
      dir,
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const tfa = "examples/projects/trusted-firmware-a.yaml";
    const own = lineOf(tfa, "requiresDCO: false");
    const layer = lineOf("examples/defaults.yaml", "requiresDCO: true");
    expect(r.stdout).toContain(
      `requiresDCO = false\n  ← the object's own manifest ${tfa}:${own}\n    Defaults critical-repositories (priority 10; repositories in subgroup "" of projects with tier=critical) examples/defaults.yaml:${layer}: true, overridden\n`,
    );
    expect(r.stdout).toContain(
      `mergeRequests = "enabled"\n  ← Defaults repository-settings (priority 0; repositories) examples/defaults.yaml:${lineOf("examples/defaults.yaml", "mergeRequests: enabled")}\n`,
    );
    expect(r.stdout).toMatch(
      /^project\/trusted-firmware-a\/repo\/tf-a-tests \(Project trusted-firmware-a, examples\/projects\/trusted-firmware-a\.yaml:2\)\nSelected by:\n/,
    );
    // A Project layer that gives the repository nothing is not listed for it.
    expect(r.stdout).not.toContain("security-reporters");
  });

  it("a tombstoned entry: who gave it and which line removed it", async () => {
    const r = await phctl(
      ["explain", "project/ci-tools", "spec.access.reporters", "examples"],
      {},
      dir,
    );
    expect(r.code, r.stderr).toBe(0);
    const ci = "examples/projects/ci-tools.yaml";
    expect(r.stdout).toContain(
      `access.reporters.users[bwong] = "bwong": removed\n    given by Defaults security-reporters (priority 0; projects in acme) examples/defaults.yaml:${lineOf("examples/defaults.yaml", "reporters: [bwong]")}\n  ✗ removed by the object's own manifest ${ci}:${lineOf(ci, "$remove: bwong")}\n`,
    );
    expect(r.stdout).toContain(
      `access.reporters.users[asmith] = "asmith"\n  ← the object's own manifest ${ci}:`,
    );
  });

  it("--format json: the documented shape", async () => {
    const r = await phctl(
      [
        "explain",
        "project/ci-tools/repo/pipelines",
        "mergeRequests",
        "examples",
        "--format",
        "json",
      ],
      {},
      dir,
    );
    expect(r.code, r.stderr).toBe(0);
    const e = JSON.parse(r.stdout) as Explanation;
    expect(e).toEqual({
      key: "project/ci-tools/repo/pipelines",
      kind: "Project",
      name: "ci-tools",
      field: "mergeRequests",
      file: "examples/projects/ci-tools.yaml",
      line: lineOf("examples/projects/ci-tools.yaml", "apiVersion"),
      value: "enabled",
      layers: [
        {
          name: "repository-settings",
          file: "examples/defaults.yaml",
          line: lineOf("examples/defaults.yaml", "apiVersion"),
          priority: 0,
          selector: "repositories",
          description: "Settings of every repository unless its project says otherwise",
        },
      ],
      values: [
        {
          path: "mergeRequests",
          value: "enabled",
          chain: [
            {
              from: "layer",
              layer: "repository-settings",
              priority: 0,
              selector: "repositories",
              file: "examples/defaults.yaml",
              line: lineOf("examples/defaults.yaml", "mergeRequests: enabled"),
              column: 5,
              value: "enabled",
            },
          ],
          removed: false,
          removedBy: [],
        },
      ],
    });
  });

  it("an unknown key: one line with the closest keys, exit 1", async () => {
    const r = await phctl(["explain", "project/ci-tool", "examples"], {}, dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "phctl: no project/ci-tool in examples (did you mean project/ci-tools?)\n",
    );
    const repo = await phctl(["explain", "project/ci-tools/repo/pipeline", "examples"], {}, dir);
    expect(repo.stderr).toBe(
      "phctl: no project/ci-tools/repo/pipeline in examples (did you mean project/ci-tools/repo/pipelines?)\n",
    );
    expect(repo.code).toBe(1);
  });

  it("a field written after the paths: one line saying where it goes, exit 1", async () => {
    const r = await phctl(["explain", "project/ci-tools", "examples", "access.reporters"], {}, dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "phctl: access.reporters: no such file or directory; a FIELD comes right after the key: phctl explain project/ci-tools access.reporters examples\n",
    );
  });

  it("two layers of one priority that disagree: the diagnostic naming both lines, exit 1, nothing explained", async () => {
    const cfg = join(dir, "conflict");
    mkdirSync(cfg);
    writeFileSync(join(cfg, "phctl.yaml"), "organization: acme\n");
    const doc = (name: string, forking: boolean) =>
      `apiVersion: phctl/v1\nkind: Defaults\nmetadata:\n  name: ${name}\nspec:\n  select: { kind: Repository }\n  values:\n    enableForking: ${forking}\n`;
    writeFileSync(join(cfg, "a.yaml"), doc("open", true));
    writeFileSync(join(cfg, "b.yaml"), doc("closed", false));
    writeFileSync(
      join(cfg, "p.yaml"),
      "apiVersion: phctl/v1\nkind: Project\nmetadata:\n  name: p\nspec:\n  title: P\n  access: { admins: [jdoe] }\n  git:\n    repositories: [{ name: r }]\n---\napiVersion: phctl/v1\nkind: User\nmetadata:\n  name: jdoe\nspec: { firstName: J, lastName: D, externalEmail: j@example.org }\n",
    );
    const r = await phctl(["explain", "project/p/repo/r", "conflict"], {}, dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /^conflict\/a\.yaml:8:5 Project p: spec\.git\.repositories\[r\]\.enableForking: Defaults open \(conflict\/a\.yaml:8\) and Defaults closed \(conflict\/b\.yaml:8\) both have priority 0 and disagree \(true and false\) \(give one of them a higher priority/,
    );
    expect(r.stderr).toMatch(
      /\nphctl: 1 error in the manifests: nothing explained \(fix it first\)\n$/,
    );
  });
});

describe("phctl render", () => {
  it("writes the flat config: no Defaults, no tombstones; it plans as the layered one, and converges with it", async () => {
    const r = await phctl(["render", "examples", "--out", "flat"], env, dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      "Rendered 11 objects and 8 policies into 12 files under flat (3 Defaults layers merged in).\n",
    );
    const out = join(dir, "flat");
    expect(readdirSync(out).sort()).toEqual([
      "organizations.yaml",
      "phctl.yaml",
      "policies",
      "projects",
      "teams.yaml",
      "users",
    ]);
    const ci = readFileSync(join(out, "projects/ci-tools.yaml"), "utf8");
    expect(ci).not.toMatch(/\$remove|inherit|kind: Defaults/);
    expect(ci).toContain(
      "      - name: pipelines\n        enableForking: false\n        mergeRequests: enabled\n",
    );
    expect(readFileSync(join(out, "phctl.yaml"), "utf8")).toBe(
      readFileSync(join(dir, "examples/phctl.yaml"), "utf8"),
    );
    // Against an empty service: the same plan, sources aside.
    const entries = async (path: string) => {
      const p = await phctl(["plan", path, "--format", "json"], env, dir);
      expect(p.code, p.stderr).toBe(0);
      return (JSON.parse(p.stdout) as Plan).entries.map((e) => ({
        action: e.action,
        key: e.key,
        changes: e.changes.map((c) => ({ ...c, source: undefined })),
      }));
    };
    const layered = await entries("examples");
    expect(layered.length).toBeGreaterThan(30);
    expect(await entries("flat")).toEqual(layered);
    // Applied from the layered config, the rendered one has nothing to change.
    const applied = await phctl(["apply", "examples", "--auto-approve"], env, dir);
    expect(applied.code, applied.stderr).toBe(0);
    const again = await phctl(["plan", "flat", "--detailed-exitcode"], env, dir);
    expect(again.stdout).toContain("No changes.");
    expect(again.code).toBe(0);
  });

  it("refuses a non-empty directory (--force writes there), an output inside the config and a config with errors", async () => {
    const busy = join(dir, "busy");
    mkdirSync(busy);
    writeFileSync(join(busy, "notes.txt"), "mine\n");
    const r = await phctl(["render", "examples", "--out", "busy"], {}, dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "phctl: --out busy is not empty; render writes only to a new or empty directory (--force replaces the files and directories render writes there)\n",
    );
    expect(readdirSync(busy)).toEqual(["notes.txt"]);
    const forced = await phctl(["render", "examples", "--out", "busy", "--force"], {}, dir);
    expect(forced.code, forced.stderr).toBe(0);
    expect(existsSync(join(busy, "projects/ci-tools.yaml"))).toBe(true);
    expect(readFileSync(join(busy, "notes.txt"), "utf8")).toBe("mine\n");
    const inside = await phctl(["render", "examples", "--out", "examples/flat"], {}, dir);
    expect(inside.code).toBe(1);
    expect(inside.stderr).toBe(
      "phctl: --out examples/flat is inside examples, which render reads: write it outside the config directory\n",
    );
    const bad = await phctl(["render", "conflict", "--out", "never"], {}, dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/layer-conflict|both have priority 0/);
    expect(bad.stderr).toMatch(/\nphctl: 1 error in the manifests: nothing rendered\n$/);
    expect(existsSync(join(dir, "never"))).toBe(false);
  });
});
