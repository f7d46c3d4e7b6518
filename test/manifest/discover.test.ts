/**
 * Symbolic links in config directories: followed inside the directory given, not outside
 * it; loops and dangling links are diagnostics naming the link, and the rest still loads.
 * Real links in a temporary directory (node:fs symlinkSync).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/manifest/diagnostics.js";
import { discover } from "../../src/manifest/discover.js";
import { loadManifests } from "../../src/pipeline/load.js";

const tmp = mkdtempSync(join(tmpdir(), "phctl-discover-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const org = (name: string) =>
  `apiVersion: phctl/v1\nkind: Organization\nmetadata: { name: ${name} }\n`;

let n = 0;
/**
 * A fresh directory holding `cfg/` (the config root) and `outside/` beside it; `files`
 * maps paths under it to contents (a string) or to a link target ({ link }).
 */
function tree(files: Record<string, string | { link: string }>): string {
  const base = join(tmp, `t${++n}`);
  mkdirSync(join(base, "cfg"), { recursive: true });
  mkdirSync(join(base, "outside"), { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    const full = join(base, path);
    mkdirSync(join(full, ".."), { recursive: true });
    if (typeof content === "string") writeFileSync(full, content);
    else symlinkSync(content.link, full);
  }
  return base;
}

/** What discover found under `cfg` (or `paths`), relative to `base`, and its diagnostics as printed. */
async function found(base: string, paths = ["cfg"]) {
  const d = await discover(paths, base);
  const rel = (fs: string[]) => fs.map((f) => relative(base, f));
  return {
    manifests: rel(d.manifests),
    configs: rel(d.configs),
    diagnostics: d.diagnostics.map(formatDiagnostic),
    severities: d.diagnostics.map((x) => `${x.severity} ${x.code}`),
  };
}

describe("symbolic links leading outside the config directory", () => {
  it("a directory link is not followed: a warning names the link and its target", async () => {
    const base = tree({
      "cfg/a.yaml": org("a"),
      "cfg/shared": { link: "../outside" },
      "outside/b.yaml": org("b"),
    });
    const r = await found(base);
    expect(r.manifests).toEqual(["cfg/a.yaml"]);
    expect(r.diagnostics).toEqual([
      "cfg/shared:1:1 warning: symbolic link to outside leads outside the config directory cfg; not followed (copy the files into the config directory, or pass the target as a path of its own)",
    ]);
    expect(r.severities).toEqual(["warning symlink-outside-root"]);
  });

  it("its manifests are not loaded, and the load succeeds with the warning", async () => {
    const base = tree({ "cfg/a.yaml": org("a"), "outside/b.yaml": org("b") });
    symlinkSync(join(base, "outside"), join(base, "cfg/shared"));
    const r = await loadManifests(["cfg"], { cwd: base });
    expect(r.files).toEqual(["cfg/a.yaml"]);
    expect(r.state?.organizations.map((o) => o.name)).toEqual(["a"]);
    expect(r.diagnostics).toMatchObject([
      {
        severity: "warning",
        code: "symlink-outside-root",
        file: "cfg/shared",
        line: 1,
        column: 1,
        // an absolute target is shown as written
        message: `symbolic link to ${join(base, "outside")} leads outside the config directory cfg; not followed`,
      },
    ]);
  });

  it("a manifest file link is not followed either", async () => {
    const base = tree({
      "cfg/a.yaml": org("a"),
      "cfg/ext.yaml": { link: "../outside/ext.yaml" },
      "outside/ext.yaml": org("ext"),
    });
    const r = await found(base);
    expect(r.manifests).toEqual(["cfg/a.yaml"]);
    expect(r.diagnostics).toEqual([
      "cfg/ext.yaml:1:1 warning: symbolic link to outside/ext.yaml leads outside the config directory cfg; not followed (copy the file into the config directory, or pass the target as a path of its own)",
    ]);
  });

  it("a link to a file that is not a manifest says nothing: it would not be read anyway", async () => {
    const base = tree({
      "cfg/a.yaml": org("a"),
      "cfg/LICENSE": { link: "../outside/LICENSE" },
      "outside/LICENSE": "text",
    });
    expect(await found(base)).toMatchObject({ manifests: ["cfg/a.yaml"], diagnostics: [] });
  });

  it("the root is the directory given: from its parent, the same link is inside", async () => {
    const base = tree({
      "cfg/shared": { link: "../outside" },
      "outside/b.yaml": org("b"),
    });
    const r = await found(base, ["."]);
    expect(r.manifests).toEqual(["cfg/shared/b.yaml"]);
    expect(r.diagnostics).toEqual([]);
  });
});

describe("symbolic links inside the config directory", () => {
  it("are followed, to directories and to files; each file is read once", async () => {
    const base = tree({
      "cfg/a.yaml": org("a"),
      "cfg/copy.yaml": { link: "a.yaml" },
      "cfg/.hidden/c.yaml": org("c"),
      "cfg/visible": { link: ".hidden" },
      "cfg/sub/self": { link: ".." },
    });
    const r = await found(base);
    expect(r.manifests).toEqual(["cfg/a.yaml", "cfg/visible/c.yaml"]);
    expect(r.diagnostics).toEqual([]);
  });
});

describe("links that do not resolve", () => {
  it("a loop named as a manifest is an error naming the link, not its directory", async () => {
    const base = tree({
      "cfg/a.yaml": org("a"),
      "cfg/loop.yaml": { link: "loop2.yaml" },
      "cfg/loop2.yaml": { link: "loop.yaml" },
    });
    const r = await found(base);
    expect(r.manifests).toEqual(["cfg/a.yaml"]);
    expect(r.diagnostics).toEqual([
      "cfg/loop.yaml:1:1 symbolic link loop (through cfg/loop2.yaml): cannot read this manifest (fix the link or remove it)",
      "cfg/loop2.yaml:1:1 symbolic link loop (through cfg/loop.yaml): cannot read this manifest (fix the link or remove it)",
    ]);
    expect(r.severities).toEqual(["error symlink-loop", "error symlink-loop"]);
  });

  it("a loop with another name is a warning", async () => {
    const base = tree({ "cfg/a.yaml": org("a"), "cfg/spin": { link: "spin" } });
    const r = await found(base);
    expect(r.diagnostics).toEqual([
      "cfg/spin:1:1 warning: symbolic link loop (through cfg/spin), ignored",
    ]);
  });

  it("a dangling link named as a manifest is an error; another is a warning", async () => {
    const base = tree({
      "cfg/a.yaml": org("a"),
      "cfg/x.yaml": { link: "missing.yaml" },
      "cfg/notes": { link: "/nonexistent/phctl-notes" },
    });
    const r = await found(base);
    expect(r.manifests).toEqual(["cfg/a.yaml"]);
    expect(r.diagnostics).toEqual([
      "cfg/notes:1:1 warning: dangling symbolic link to /nonexistent/phctl-notes, ignored",
      "cfg/x.yaml:1:1 dangling symbolic link to cfg/missing.yaml: cannot read this manifest (fix the link or remove it)",
    ]);
    expect(r.severities).toEqual(["warning symlink-dangling", "error symlink-dangling"]);
  });

  it("the load goes on: every other file is read and its problems reported too", async () => {
    const base = tree({
      "cfg/a.yaml": org("a"),
      "cfg/b.yaml": "apiVersion: phctl/v1\nkind: Organisation\nmetadata: { name: b }\n",
      "cfg/x.yaml": { link: "missing.yaml" },
    });
    const r = await loadManifests(["cfg"], { cwd: base });
    expect(r.state).toBeUndefined();
    expect(r.files).toEqual(["cfg/a.yaml", "cfg/b.yaml"]);
    expect(r.diagnostics.map((d) => `${d.file} ${d.code}`)).toEqual([
      "cfg/b.yaml unknown-kind",
      "cfg/x.yaml symlink-dangling",
    ]);
  });
});

describe("paths given on the command line", () => {
  it("a file link is read even when it leads outside", async () => {
    const base = tree({
      "cfg/ext.yaml": { link: "../outside/ext.yaml" },
      "outside/ext.yaml": org("ext"),
    });
    const r = await found(base, ["cfg/ext.yaml"]);
    expect(r.manifests).toEqual(["cfg/ext.yaml"]);
    expect(r.diagnostics).toEqual([]);
  });

  it("a directory link is walked, and is the root for the links inside it", async () => {
    const base = tree({
      "cfg/shared": { link: "../outside" },
      "outside/b.yaml": org("b"),
      "outside/up": { link: "../cfg" },
    });
    const r = await found(base, ["cfg/shared"]);
    expect(r.manifests).toEqual(["cfg/shared/b.yaml"]);
    expect(r.diagnostics).toEqual([
      "cfg/shared/up:1:1 warning: symbolic link to cfg leads outside the config directory cfg/shared; not followed (copy the files into the config directory, or pass the target as a path of its own)",
    ]);
  });
});
