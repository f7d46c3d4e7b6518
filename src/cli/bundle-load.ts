/**
 * Loads the CLI's CommonJS bundles (dist/cli/bundle-*.cjs) with V8's code cache beside them
 * (`bundle-<name>.cjs.v8cache`), which `npm run build` makes: scripts/bundle.js runs
 * `validate` and `plan` of the examples and each command's `--help` with
 * PHCTL_BUILD_CODE_CACHE=1, and each run writes, at its exit, the caches of the bundles it
 * loaded. With the cache V8 skips parsing and compiling what the cache holds — most of a
 * command's start (bench/startup.ts). Node 22's `module.enableCompileCache()` does this for
 * every module; Node 20 has no such thing.
 *
 * V8 accepts a cache made from any source of the same length, so each cache starts with a
 * line naming the bundle it was made from: its size and CRC-32. A bundle rebuilt (or edited)
 * since is compiled from its source, as is one whose cache is missing, unreadable, or refused
 * by V8 (another Node, other V8 flags). The CRC is checked only when the bundle's file is not
 * older than its cache's: a build writes the caches seconds after the bundles, so a built
 * dist/ pays one stat, not a checksum (with node:zlib, ≈ 3 ms; SHA-256 with node:crypto cost
 * ≈ 7 ms of a 60 ms start); an edit, a copy or an install (npm gives every file the same
 * time) makes the bundle as new as its cache or newer, and the CRC decides (it finds every
 * change of up to 32 consecutive bits, and misses one other in 4 billion). A cache never changes
 * what runs, only how soon. Nothing is written at run time (only at build, with the variable
 * set): an installed package may be read-only, and CI jobs run side by side.
 *
 * A bundle runs as Node would run it (the same wrapper arguments, `require` relative to its
 * file, registered in `require.cache`, so that a require() of it by Node's own loader finds
 * the same instance), with one difference: its `require` of a sibling bundle
 * (`./bundle-vendor-undici.cjs`, `./bundle-server.cjs`) comes here too. An `import()` in a
 * bundle would fail (Node 20 gives a script compiled from a cache no dynamic-import
 * callback), so scripts/bundle.js fails the build on one. `NODE_DEBUG=phctl` logs each bundle
 * loaded and whether its cache was used.
 */
import type * as BufferModule from "node:buffer";
import type * as Fs from "node:fs";
import { createRequire } from "node:module";
import type * as Path from "node:path";
import type * as Url from "node:url";
import type * as Util from "node:util";
import type * as Vm from "node:vm";
import type * as Zlib from "node:zlib";

// Node's modules through require(), when a bundle is loaded: `phctl --version` (main.js
// alone) pays nothing for them (an ESM import of each costs it ≈ 1 ms in all).
const builtin = createRequire(import.meta.url);
const fs = () => builtin("node:fs") as typeof Fs;

export const CACHE_SUFFIX = ".v8cache";
/** Set only by the build: write each loaded bundle's cache at exit. */
export const TRAIN_VAR = "PHCTL_BUILD_CODE_CACHE";

// On the source's first line, so that stack traces keep their line numbers.
const HEAD = "(function (exports, require, module, __filename, __dirname) { ";
const TAIL = "\n})";

let log: ((format: string, ...a: unknown[]) => void) | undefined;
const made: { file: string; script: Vm.Script; bytes: Buffer }[] = [];

/** The first line of a cache made from the bundle `bytes`. */
const stampOf = (bytes: Buffer) => {
  const crc = (builtin("node:zlib") as typeof Zlib).crc32(bytes);
  return `${sizeStamp(bytes)} crc32:${crc.toString(16).padStart(8, "0")}\n`;
};
const sizeStamp = (bytes: Buffer) => `phctl-v8cache size:${bytes.length}`;

/**
 * The cache's V8 data when it was made from the bundle as it is now (`bytes`, read from a
 * file last changed at `mtimeMs`); else undefined. `fast`: a cache newer than the bundle
 * is taken on its size alone (see the file's comment).
 */
function cacheFor(file: string, bytes: Buffer, mtimeMs: number, fast = true): Buffer | undefined {
  let data: Buffer;
  let newer: boolean;
  try {
    const fd = fs().openSync(file + CACHE_SUFFIX, "r");
    try {
      newer = fast && fs().fstatSync(fd).mtimeMs > mtimeMs;
      data = fs().readFileSync(fd);
    } finally {
      fs().closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const nl = data.indexOf(10);
  if (nl < 0) return undefined;
  const head = data.toString("latin1", 0, nl + 1);
  const ok = newer
    ? head.startsWith(`${sizeStamp(bytes)} crc32:`) &&
      /^[^ ]+ [^ ]+ crc32:[0-9a-f]{8}\n$/.test(head)
    : head === stampOf(bytes);
  return ok ? data.subarray(nl + 1) : undefined;
}

/** The bundle's bytes, and the time of its last change (taken after the read: an edit while reading shows). */
function readBundle(file: string): { bytes: Buffer; mtimeMs: number } {
  const fd = fs().openSync(file, "r");
  try {
    const bytes = fs().readFileSync(fd);
    return { bytes, mtimeMs: fs().fstatSync(fd).mtimeMs };
  } finally {
    fs().closeSync(fd);
  }
}

type Require = NodeJS.Require;

/** `require(file)` for a bundle (a path, or a file: URL), through its code cache. */
export function loadBundle(at: string | URL): unknown {
  const url = builtin("node:url") as typeof Url;
  const file = typeof at === "string" ? at : url.fileURLToPath(at);
  // Node's registry, as require() does: loaded once, and a bundle required again while it
  // loads (a cycle) gets its exports so far instead of a second run.
  const known = builtin.cache[file];
  if (known) return known.exports;
  log ??= (builtin("node:util") as typeof Util).debuglog("phctl");
  if (process.sourceMapsEnabled) {
    // Node's own loader maps stack frames through the source maps (--verbose).
    log("%s: code cache not used: source maps on", file);
    return createRequire(file)(file);
  }
  const vm = builtin("node:vm") as typeof Vm;
  const path = builtin("node:path") as typeof Path;
  const { bytes, mtimeMs } = readBundle(file);
  // The same string either way; decoding ASCII (the generated validators) is twice as fast.
  const { isAscii } = builtin("node:buffer") as typeof BufferModule;
  const source = bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
  const cachedData = cacheFor(file, bytes, mtimeMs);
  const dir = path.dirname(file);
  const script = new vm.Script(HEAD + source + TAIL, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  log(
    "%s: code cache %s",
    file,
    !cachedData ? "none" : script.cachedDataRejected ? "refused by V8" : "used",
  );
  const nodeRequire = createRequire(file);
  const ownRequire = ((id: string) =>
    id.startsWith("./bundle-") && id.endsWith(".cjs")
      ? loadBundle(path.join(dir, id))
      : nodeRequire(id)) as Require;
  Object.assign(ownRequire, {
    resolve: nodeRequire.resolve,
    cache: nodeRequire.cache,
    main: nodeRequire.main,
  });
  const module = { id: file, filename: file, path: dir, loaded: false, exports: {}, children: [] };
  nodeRequire.cache[file] = module as unknown as NodeJS.Module;
  const wrapper = script.runInThisContext() as (...a: unknown[]) => void;
  try {
    wrapper.call(module.exports, module.exports, ownRequire, module, file, dir);
  } catch (e) {
    delete nodeRequire.cache[file]; // as Node does: the next require() tries again
    throw e;
  }
  module.loaded = true;
  if (process.env[TRAIN_VAR] === "1") {
    if (made.length === 0) process.once("exit", writeCaches);
    made.push({ file, script, bytes });
  }
  return module.exports;
}

/**
 * At the build's exit: each bundle's cache, unless an earlier run wrote it (renamed in
 * whole). One that cannot be written (a read-only directory) is a line on stderr and exit 1,
 * so that the build says so; the bundle still runs, compiled from its source.
 */
function writeCaches(): void {
  for (const { file, script, bytes } of made) {
    const to = file + CACHE_SUFFIX;
    if (cacheFor(file, bytes, 0, false) !== undefined) continue;
    const stamp = stampOf(bytes);
    const tmp = `${to}.${process.pid}.tmp`;
    try {
      fs().writeFileSync(
        tmp,
        Buffer.concat([Buffer.from(stamp, "latin1"), script.createCachedData()]),
      );
      fs().renameSync(tmp, to);
    } catch (e) {
      fs().rmSync(tmp, { force: true });
      process.stderr.write(`phctl: code cache of ${file} not written: ${(e as Error).message}\n`);
      process.exitCode = 1;
    }
  }
}
