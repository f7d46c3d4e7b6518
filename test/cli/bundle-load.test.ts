/**
 * The bundles' V8 code cache (src/cli/bundle-load.ts), in child processes as the CLI runs it:
 * a run with PHCTL_BUILD_CODE_CACHE=1 writes a cache that the next run uses; a bundle edited
 * since (even to the same length, which V8 alone would accept; even with its old time) runs its new source; a missing
 * or damaged cache only costs time; a sibling bundle comes through the loader once and is the
 * one Node's own require() finds.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { crc32 } from "node:zlib";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const LOADER = resolve(import.meta.dirname, "../../dist/cli/bundle-load.js");
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "phctl-code-cache-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Loads `bundle-main.cjs` as main.js would and prints what its `value()` returns; `word` is
 * the loader's debug line on each bundle's cache (used, none, refused by V8).
 */
function run(o: { train?: boolean } = {}): { value: unknown; words: Record<string, string> } {
  const r = load(o);
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`);
  const words: Record<string, string> = {};
  for (const m of r.stderr.matchAll(/([a-z-]+\.cjs): code cache (.+)$/gm)) words[m[1]] = m[2];
  return { value: JSON.parse(r.stdout) as unknown, words };
}

/** The child process of `run`, as it ended. */
function load(o: { train?: boolean }) {
  const file = join(dir, "bundle-main.cjs");
  const script = `import(${JSON.stringify(LOADER)}).then(async (m) => { const b = m.loadBundle(${JSON.stringify(file)}); process.stdout.write(JSON.stringify(b.value())); })`;
  return spawnSync(process.execPath, ["-e", script], {
    env: {
      PATH: process.env.PATH,
      NODE_DEBUG: "phctl",
      ...(o.train ? { PHCTL_BUILD_CODE_CACHE: "1" } : {}),
    },
    encoding: "utf8",
  });
}

/** A bundle whose value() adds up numbers in a loop (so that V8 compiles something). */
const bundle = (n: number) =>
  `"use strict";\nconst sibling = require("./bundle-vendor-x.cjs");\nfunction sum(k) { let s = 0; for (let i = 0; i < k; i++) s += i % 7; return s; }\nexports.value = () => ({ n: ${n}, sum: sum(1000), sibling: sibling.tag, same: require("node:module").createRequire(__filename)("./bundle-vendor-x.cjs") === sibling, file: __filename.endsWith("bundle-main.cjs") });\n`;

function writeBundles(n: number) {
  writeFileSync(join(dir, "bundle-main.cjs"), bundle(n));
  writeFileSync(join(dir, "bundle-vendor-x.cjs"), `exports.tag = "vendor";\n`);
}

describe("the bundles' code cache", () => {
  it("a build run writes the cache; the next run uses it and gives the same result", () => {
    writeBundles(1);
    const first = run({ train: true });
    expect(first.words).toEqual({ "bundle-main.cjs": "none", "bundle-vendor-x.cjs": "none" });
    expect(first.value).toEqual({
      n: 1,
      sum: 2997,
      sibling: "vendor",
      same: true,
      file: true,
    });
    const cache = readFileSync(join(dir, "bundle-main.cjs.v8cache"));
    expect(cache.toString("latin1", 0, cache.indexOf(10))).toBe(
      `phctl-v8cache size:${bundle(1).length} crc32:${crc32(bundle(1)).toString(16).padStart(8, "0")}`,
    );
    expect(existsSync(join(dir, "bundle-vendor-x.cjs.v8cache"))).toBe(true);
    const again = run();
    expect(again.words).toEqual({ "bundle-main.cjs": "used", "bundle-vendor-x.cjs": "used" });
    expect(again.value).toEqual(first.value);
  });

  it("a run without the build's variable writes nothing", () => {
    writeBundles(1);
    run();
    expect(existsSync(join(dir, "bundle-main.cjs.v8cache"))).toBe(false);
  });

  it("a bundle changed since its cache, to the same length, runs its new source", () => {
    writeBundles(1);
    run({ train: true });
    // Same length: V8's own check (the source's length) would take the old cache.
    writeFileSync(join(dir, "bundle-main.cjs"), bundle(2));
    const r = run();
    expect(r.words["bundle-main.cjs"]).toBe("none");
    expect(r.value).toMatchObject({ n: 2 });
  });

  it("a bundle as old as its cache (an npm install dates every file 1985) is checked: the same one uses it, an edit does not", () => {
    writeBundles(5);
    run({ train: true });
    const npmTime = new Date("1985-10-26T08:15:00Z");
    const dateAll = () => {
      for (const f of readdirSync(dir)) utimesSync(join(dir, f), npmTime, npmTime);
    };
    dateAll();
    expect(run().words).toEqual({ "bundle-main.cjs": "used", "bundle-vendor-x.cjs": "used" });
    // Edited to the same length, then given the cache's time again (as a copy with -p could).
    writeFileSync(join(dir, "bundle-main.cjs"), bundle(6));
    dateAll();
    const r = run();
    expect(r.words["bundle-main.cjs"]).toBe("none");
    expect(r.value).toMatchObject({ n: 6 });
  });

  it("a damaged or foreign cache only costs time", () => {
    writeBundles(3);
    run({ train: true });
    const file = join(dir, "bundle-main.cjs.v8cache");
    const good = readFileSync(file);
    const nl = good.indexOf(10);
    // The right first line, the rest another bundle's: V8 refuses it.
    writeFileSync(file, Buffer.concat([good.subarray(0, nl + 1), Buffer.from("not V8 data")]));
    const refused = run();
    expect(refused.words["bundle-main.cjs"]).toBe("refused by V8");
    expect(refused.value).toMatchObject({ n: 3, sum: 2997 });
    writeFileSync(file, "garbage without a line break");
    expect(run().words["bundle-main.cjs"]).toBe("none");
    rmSync(file);
    expect(run().value).toMatchObject({ n: 3 });
  });

  it("a bundle required again while it loads (a cycle) runs once and gives its exports so far", () => {
    writeFileSync(
      join(dir, "bundle-main.cjs"),
      `globalThis.runs = (globalThis.runs ?? 0) + 1;\nexports.early = "early";\nconst x = require("./bundle-vendor-x.cjs");\nexports.value = () => ({ runs: globalThis.runs, seen: x.seen });\n`,
    );
    writeFileSync(
      join(dir, "bundle-vendor-x.cjs"),
      `exports.seen = require("./bundle-main.cjs").early;\n`,
    );
    expect(run().value).toEqual({ runs: 1, seen: "early" });
  });

  it("a build run that cannot write a cache says so in one line and exits 1; the run itself worked", () => {
    writeBundles(4);
    // A directory where the cache goes: the rename fails (whoever runs the test, root too).
    mkdirSync(join(dir, "bundle-main.cjs.v8cache"));
    writeFileSync(join(dir, "bundle-main.cjs.v8cache", "keep"), "");
    const r = load({ train: true });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ n: 4, sibling: "vendor" });
    const lines = r.stderr.split("\n").filter((l) => l.startsWith("phctl: "));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^phctl: code cache of .*bundle-main\.cjs not written: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // The other bundle's cache was written; no temporary file is left.
    expect(existsSync(join(dir, "bundle-vendor-x.cjs.v8cache"))).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});
