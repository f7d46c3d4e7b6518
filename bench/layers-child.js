/* global process, performance */
/**
 * One full layered load in its own process, for bench/layers.ts: `node layers-child.js ROOT DIR
 * KEY` imports ROOT/dist (a build), loads all of DIR (as `phctl validate` does), then traces
 * object KEY (`Project/p7`: every value of the project and its repositories with the layers
 * that gave it), and prints {loadMs, traceMs, entries, maxRssKB, ok} as JSON. The library's
 * figure beside `phctl explain`'s, which reads only what can give the object values.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [root, dir, key] = process.argv.slice(2);
// The loading pipeline: dist/pipeline/load.js; a build older than it had it in dist/manifest.
const loader = ["dist/pipeline/load.js", "dist/manifest/load.js"].find((f) =>
  existsSync(join(root, f)),
);
const { loadManifests } = await import(pathToFileURL(join(root, loader)).href);
const t = performance.now();
const result = await loadManifests([dir], { cwd: dir });
const loadMs = performance.now() - t;
const object = result.layers?.layered.get(key);
const t2 = performance.now();
const trace = object ? object.trace() : [];
const traceMs = performance.now() - t2;
process.stdout.write(
  JSON.stringify({
    loadMs,
    traceMs,
    entries: trace.length,
    maxRssKB: process.resourceUsage().maxRSS,
    ok: result.state !== undefined && object !== undefined,
  }),
);
