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
 * line holding the SHA-256 of the bundle it was made from (≈ 0.5 ms per MB to check): a
 * bundle rebuilt (or edited) since is compiled from its source, as is one whose cache is missing,
 * unreadable, or refused by V8 (another Node, other V8 flags). A cache never changes what
 * runs, only how soon. Nothing is written at run time (only at build, with the variable
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
import type * as Crypto from "node:crypto";
import type * as Fs from "node:fs";
import { createRequire } from "node:module";
import type * as Path from "node:path";
import type * as Url from "node:url";
import type * as Util from "node:util";
import type * as Vm from "node:vm";

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
const made: { file: string; script: Vm.Script; stamp: string }[] = [];

/** The first line of a cache: the bundle's digest when the cache was made from it. */
const stampOf = (source: Buffer) => {
  const { createHash } = builtin("node:crypto") as typeof Crypto;
  return `phctl-v8cache sha256:${createHash("sha256").update(source).digest("hex")}\n`;
};

/** The cache's V8 data when it was made from the bundle as it is now; else undefined. */
function cacheFor(file: string, stamp: string): Buffer | undefined {
  let data: Buffer;
  try {
    data = fs().readFileSync(file + CACHE_SUFFIX);
  } catch {
    return undefined;
  }
  const nl = data.indexOf(10);
  if (nl < 0 || data.toString("latin1", 0, nl + 1) !== stamp) return undefined;
  return data.subarray(nl + 1);
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
  const bytes = fs().readFileSync(file);
  const source = bytes.toString("utf8");
  const stamp = stampOf(bytes);
  const cachedData = cacheFor(file, stamp);
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
    made.push({ file, script, stamp });
  }
  return module.exports;
}

/**
 * At the build's exit: each bundle's cache, unless an earlier run wrote it (renamed in
 * whole). One that cannot be written (a read-only directory) is a line on stderr and exit 1,
 * so that the build says so; the bundle still runs, compiled from its source.
 */
function writeCaches(): void {
  for (const { file, script, stamp } of made) {
    const to = file + CACHE_SUFFIX;
    if (cacheFor(file, stamp) !== undefined) continue;
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
