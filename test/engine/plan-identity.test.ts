/**
 * A saved plan's identity: which manifests it was made from (root, files, hashes), a hash
 * of its entries, and finding those manifests again from another job's workspace — on
 * real files in temporary directories (a git checkout is a directory with a `.git`).
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compareManifests,
  configRoot,
  describeDifference,
  describeManifests,
  entriesDigest,
  locateManifests,
  pathsForApply,
  PlanManifests,
} from "../../src/cli/plan-identity.js";
import { Value } from "@sinclair/typebox/value";

/** A fresh directory holding `files` (path → content; a path ending in '/' is a directory). */
function tree(files: Record<string, string>, base = mkdtempSync(join(tmpdir(), "phctl-id-"))) {
  for (const [path, content] of Object.entries(files)) {
    if (path.endsWith("/")) mkdirSync(join(base, path), { recursive: true });
    else {
      mkdirSync(dirname(join(base, path)), { recursive: true });
      writeFileSync(join(base, path), content);
    }
  }
  return base;
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

const CONFIG = {
  "phctl.yaml": "organization: acme\n",
  "projects/tfa.yaml": "kind: Project\nname: tfa\n",
  "users/ann.yaml": "kind: User\nname: ann\n",
};

/** A config repository `repo/config` inside `base` (a git checkout), as `phctl plan` reads it. */
function repoAt(base: string, files: Record<string, string> = CONFIG) {
  tree({ "repo/.git/": "", ...prefixed("repo/config/", files) }, base);
  return join(base, "repo", "config");
}
const prefixed = (p: string, files: Record<string, string>) =>
  Object.fromEntries(Object.entries(files).map(([k, v]) => [p + k, v]));

/** What `phctl plan config/ --out ../plan.json` run in `cwd` records. */
function planned(root: string, planFile: string) {
  return describeManifests({
    paths: [root],
    cwd: dirname(root),
    files: Object.keys(CONFIG).map((f) => join(root, f)),
    config: join(root, "phctl.yaml"),
    planFile,
  });
}

describe("the config root", () => {
  it("is the directory of the phctl.yaml in use, whatever paths are given", () => {
    const base = tree({ "c/phctl.yaml": "", "c/p/a.yaml": "", "c/q/b.yaml": "" });
    expect(configRoot(["c/p/a.yaml"], base, "c/phctl.yaml")).toBe(join(base, "c"));
  });

  it("is the one directory given, without a phctl.yaml", () => {
    const base = tree({ "c/p/a.yaml": "" });
    expect(configRoot(["c/p"], base)).toBe(join(base, "c", "p"));
    expect(configRoot([], join(base, "c"))).toBe(join(base, "c"));
  });

  it("is the nearest common directory of several paths, a file standing for its directory", () => {
    const base = tree({ "c/p/x/a.yaml": "", "c/p/y/b.yaml": "", "c/p/z/": "" });
    expect(configRoot(["c/p/x/a.yaml", "c/p/y/b.yaml"], base)).toBe(join(base, "c", "p"));
    expect(configRoot(["c/p/x/a.yaml"], base)).toBe(join(base, "c", "p", "x"));
    expect(configRoot(["c/p/x/a.yaml", "c/p/x"], base)).toBe(join(base, "c", "p", "x"));
    expect(configRoot(["c/p/x", "c/p/z"], base)).toBe(join(base, "c", "p"));
  });
});

describe("describing the manifests", () => {
  it("hashes every file read and the phctl.yaml, keyed from the root with '/'", () => {
    const base = repoAt(tree({}));
    const m = describeManifests({
      paths: ["config/projects", "config/users/ann.yaml"],
      cwd: dirname(base),
      // As the loader lists them: relative to the working directory (the config too).
      files: ["config/phctl.yaml", "config/projects/tfa.yaml", join(base, "users/ann.yaml")],
      config: "config/phctl.yaml",
    });
    expect(m).toEqual({
      root: base,
      checkoutPath: "config",
      paths: ["projects", "users/ann.yaml"],
      files: {
        "phctl.yaml": sha(CONFIG["phctl.yaml"]),
        "projects/tfa.yaml": sha(CONFIG["projects/tfa.yaml"]),
        "users/ann.yaml": sha(CONFIG["users/ann.yaml"]),
      },
    });
    expect(Object.keys(m.files)).toEqual([...Object.keys(m.files)].sort());
    expect(Value.Check(PlanManifests, m)).toBe(true);
  });

  it("records the root from the checkout top ('.' at the top) and from the plan file", () => {
    const base = tree({ ".git": "gitdir: /elsewhere/.git\n", "phctl.yaml": "", "out/": "" });
    const m = describeManifests({
      paths: ["."],
      cwd: base,
      files: ["phctl.yaml"],
      config: "phctl.yaml",
      planFile: "out/plan.json",
    });
    expect(m).toMatchObject({ root: base, checkoutPath: ".", planPath: "..", paths: ["."] });
  });

  it("records no checkout path outside a git checkout", () => {
    const base = tree({ "a.yaml": "x" });
    const m = describeManifests({ paths: ["a.yaml"], cwd: base, files: ["a.yaml"] });
    expect(m.checkoutPath).toBeUndefined();
    expect(m.planPath).toBeUndefined();
    expect(m.files).toEqual({ "a.yaml": sha("x") });
  });

  it("refuses a file it cannot read again", () => {
    const base = tree({ "a.yaml": "x" });
    expect(() => describeManifests({ paths: ["."], cwd: base, files: ["gone.yaml"] })).toThrow(
      expect.objectContaining({ code: "READ_FAILED" }),
    );
  });
});

describe("the digest of the entries", () => {
  const entries = [
    { key: "user/ann", action: "create", after: { name: "ann", roles: ["a", "b"] } },
    { key: "project/tfa", action: "update", after: { settings: { wiki: true, irc: false } } },
  ];

  it("does not change when the plan is written out with its keys in another order", () => {
    const reordered = [
      { after: { roles: ["a", "b"], name: "ann" }, action: "create", key: "user/ann" },
      { action: "update", after: { settings: { irc: false, wiki: true } }, key: "project/tfa" },
    ];
    expect(entriesDigest(reordered)).toBe(entriesDigest(entries));
    expect(entriesDigest(JSON.parse(JSON.stringify(entries, null, 2)))).toBe(
      entriesDigest(entries),
    );
    expect(entriesDigest(entries)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("changes with an added entry, an edited nested value or a reordered list", () => {
    const d = entriesDigest(entries);
    expect(entriesDigest([...entries, { key: "user/eve", action: "create", after: {} }])).not.toBe(
      d,
    );
    const [ann, tfa] = entries;
    const edited = { ...tfa, after: { settings: { wiki: true, irc: true } } };
    expect(entriesDigest([ann, edited])).not.toBe(d);
    const roles = { ...ann, after: { name: "ann", roles: ["b", "a"] } };
    expect(entriesDigest([roles, tfa])).not.toBe(d);
  });

  it("is the same for any order of the keys of the same value (property)", () => {
    /** `v` with the keys of every object in an order drawn from `seed`. */
    const shuffled = (v: unknown, seed: number): unknown => {
      if (Array.isArray(v)) return v.map((x, i) => shuffled(x, seed + i));
      if (v === null || typeof v !== "object") return v;
      const keys = Object.keys(v);
      const order = keys
        .map((k, i) => [k, Math.imul(seed ^ (i + 1), 2654435761) >>> 0] as const)
        .sort((a, b) => a[1] - b[1]);
      return Object.fromEntries(
        order.map(([k], i) => [k, shuffled((v as Record<string, unknown>)[k], seed * 31 + i)]),
      );
    };
    fc.assert(
      fc.property(fc.array(fc.jsonValue()), fc.integer(), (value, seed) => {
        expect(entriesDigest(shuffled(value, seed) as unknown[])).toBe(entriesDigest(value));
      }),
    );
  });
});

describe("finding the manifests of a saved plan", () => {
  it("(a) uses the recorded root while it holds the recorded files", () => {
    const a = tree({});
    const root = repoAt(a);
    const m = planned(root, join(a, "plan.json"));
    const found = locateManifests(m, { planFile: join(a, "plan.json"), cwd: tree({}) });
    expect(found).toMatchObject({ root, how: "recorded path", exact: true, paths: [root] });
    expect(found.tried).toEqual([root]);
  });

  it("(b) finds the same commit checked out in another directory", () => {
    // Plan made in /…/a/repo/config with --out /…/a/plan.json; applied from /…/b/repo.
    const t = tree({});
    const made = repoAt(join(t, "a"));
    const m = planned(made, join(t, "a", "plan.json"));
    const now = repoAt(join(t, "b"));
    rmSync(join(t, "a"), { recursive: true });
    const found = locateManifests(m, {
      planFile: join(t, "b", "plan.json"),
      cwd: join(t, "b", "repo"),
    });
    expect(found).toMatchObject({ root: now, how: "checkout", exact: true, paths: [now] });
    expect(found.tried).toEqual([made, now]);
  });

  it("(b) prefers a matching checkout to a recorded root whose content changed since", () => {
    const t = tree({});
    const made = repoAt(join(t, "a"));
    const m = planned(made, join(t, "a", "plan.json"));
    const now = repoAt(join(t, "b"));
    writeFileSync(join(made, "projects", "tfa.yaml"), "kind: Project\nname: other\n");
    const found = locateManifests(m, { planFile: join(t, "plan.json"), cwd: join(t, "b", "repo") });
    expect(found).toMatchObject({ root: now, how: "checkout", exact: true });
  });

  it("(c) follows the recorded path from the plan file, outside any checkout", () => {
    const t = tree({});
    const made = tree(prefixed("a/config/", CONFIG), t);
    const m = planned(join(made, "a", "config"), join(t, "a", "out", "plan.json"));
    expect(m.planPath).toBe("../config");
    const moved = tree(prefixed("b/config/", CONFIG), t);
    rmSync(join(t, "a"), { recursive: true });
    const found = locateManifests(m, { planFile: join(t, "b", "out", "plan.json"), cwd: t });
    expect(found).toMatchObject({ root: join(moved, "b", "config"), how: "beside the plan file" });
  });

  it("(d) looks in the plan file's own directory last", () => {
    const t = tree({});
    const made = tree(prefixed("a/", CONFIG), t);
    const m = planned(join(made, "a"), join(t, "elsewhere", "plan.json"));
    rmSync(join(t, "a"), { recursive: true });
    const copy = tree(CONFIG, join(t, "copy"));
    const found = locateManifests(m, { planFile: join(copy, "plan.json"), cwd: t });
    expect(found).toMatchObject({ root: copy, how: "beside the plan file", exact: true });
    // The path from the plan file leads back to the recorded root: looked in once.
    expect(found.tried).toEqual([join(t, "a"), copy]);
  });

  it("falls back to the first place holding every recorded file, changed, for the caller to refuse", () => {
    const t = tree({});
    const made = repoAt(join(t, "a"));
    const m = planned(made, join(t, "a", "plan.json"));
    writeFileSync(join(made, "users", "ann.yaml"), "kind: User\nname: anna\n");
    const found = locateManifests(m, { planFile: join(t, "a", "plan.json"), cwd: t });
    expect(found).toMatchObject({ root: made, how: "recorded path", exact: false });
  });

  it("finds nothing when every place lacks a recorded file, and says where it looked", () => {
    const t = tree({});
    const made = repoAt(join(t, "a"));
    const m = planned(made, join(t, "a", "plan.json"));
    rmSync(join(made, "users", "ann.yaml"));
    const found = locateManifests(m, { planFile: join(t, "a", "plan.json"), cwd: t });
    expect(found).toEqual({ root: undefined, tried: [made, join(t, "a")] });
  });

  it("gives the recorded paths resolved under the root found", () => {
    const m = { root: "/x", paths: [".", "projects", "users/ann.yaml"], files: {} };
    expect(pathsForApply(m, "/y/config")).toEqual([
      "/y/config",
      "/y/config/projects",
      "/y/config/users/ann.yaml",
    ]);
  });
});

describe("comparing manifests", () => {
  const saved = {
    root: "/a",
    paths: ["."],
    files: { "a.yaml": "1", "b.yaml": "2", "c.yaml": "3" },
  };

  it("names the changed, added and removed files, sorted, whatever the roots", () => {
    const now = {
      root: "/elsewhere",
      paths: ["."],
      files: { "z.yaml": "9", "b.yaml": "x", "a.yaml": "1", "n/new.yaml": "7" },
    };
    expect(compareManifests(saved, now)).toEqual({
      changed: ["b.yaml"],
      added: ["n/new.yaml", "z.yaml"],
      removed: ["c.yaml"],
    });
    expect(compareManifests(saved, { ...saved, root: "/b" })).toEqual({
      changed: [],
      added: [],
      removed: [],
    });
  });

  it("describes the difference in one line, grouped, with how many more", () => {
    expect(
      describeDifference(
        {
          changed: ["projects/tfa.yaml"],
          added: ["users/new.yaml"],
          removed: ["a.yaml", "b.yaml"],
        },
        2,
      ),
    ).toBe("changed projects/tfa.yaml; added users/new.yaml; 2 more");
    expect(describeDifference({ changed: ["a", "b"], added: [], removed: ["c"] })).toBe(
      "changed a, b; removed c",
    );
    expect(describeDifference({ changed: [], added: [], removed: [] })).toBe("no file differs");
  });
});
