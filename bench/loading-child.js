/* global process, performance */
/**
 * One manifest load in its own process, for bench/loading.ts: `node loading-child.js ROOT DIR`
 * imports ROOT/dist/pipeline and dist/manifest (a build: this tree's or an older one's), loads DIR and prints
 * {ms, cpuMs (the load's user + system CPU), maxRssKB, ok, errors, reader} as JSON. `reader` is which reader took the files
 * ("fast", "full", "both") when the build counts it (parse.ts readerCounts), else "?".
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [root, dir] = process.argv.slice(2);
const url = (f) => pathToFileURL(join(root, "dist/manifest", f)).href;
// The loading pipeline: dist/pipeline/load.js; a build older than it had it in dist/manifest.
const pipeline = join(root, "dist/pipeline/load.js");
const { loadManifests } = await import(
  existsSync(pipeline) ? pathToFileURL(pipeline).href : url("load.js")
);
const parse = await import(url("parse.js"));
const t = performance.now();
const cpu0 = process.cpuUsage();
const result = await loadManifests([dir], { cwd: dir });
const ms = performance.now() - t;
const cpu = process.cpuUsage(cpu0);
const cpuMs = (cpu.user + cpu.system) / 1000;
const counts = parse.readerCounts;
const reader = !counts
  ? "?"
  : counts.full === 0
    ? "fast"
    : counts.fast === 0
      ? "full"
      : `fast ${counts.fast}, full ${counts.full}`;
const errors = result.diagnostics.filter((d) => d.severity === "error");
process.stdout.write(
  JSON.stringify({
    ms,
    cpuMs,
    maxRssKB: process.resourceUsage().maxRSS,
    ok: result.state !== undefined,
    errors: errors.slice(0, 3).map((d) => `${d.file}:${d.line} ${d.message}`),
    repositories: result.state?.projects.reduce((n, p) => n + (p.git?.repositories.length ?? 0), 0),
    reader,
  }),
);
