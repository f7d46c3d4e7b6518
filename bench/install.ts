/**
 * Install benchmark (not part of `npm test`; `npm run bench:install`): how long a CI job takes
 * to get phctl, cold (a fresh directory, an empty npm cache: every package from the registry)
 * and warm (a fresh directory, the npm cache of the cold run restored, as a CI cache does), in
 * the two ways the kit installs it:
 *
 * - the release tarball as the GitLab job installs it: unpacked, `npm ci --omit=dev
 *   --omit=optional --ignore-scripts` on its npm-shrinkwrap.json (nothing compiles);
 * - the action from its checkout: `npm ci --ignore-scripts`, `npm rebuild esbuild`, `npm run
 *   build` (cold); warm is the actions/cache restore of node_modules and dist (a tar
 *   extracted), after which the action runs no npm at all.
 *
 * Targets (issue 36): cold under 60 s, warm under 5 s. The registry is the one npm is
 * configured with (reachable here); the machine is shared, so the load average is kept beside
 * each row. Writes the "Install" block of bench/results.md, one row per `--label`.
 *
 *   npm run build && npm run bench:install -- [--label "session 15"] [--runs 1] [--skip-action]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadAverage, readRows, writeBlock } from "./block.js";
import { machine, median } from "./report.js";

const ROOT = join(import.meta.dirname, "..");
const args = parseArgs({
  args: process.argv.slice(1).filter((a) => a !== "--"),
  options: {
    label: { type: "string", default: "after" },
    runs: { type: "string", default: "1" },
    "skip-action": { type: "boolean" },
    "no-write": { type: "boolean" },
  },
});
const runs = Number(args.values.runs);

/** npm as a CI job runs it: none of the npm_* settings of the `npm run` running us. */
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
  npm_config_update_notifier: "false",
};

/** Seconds `command` took in `cwd` (it must succeed). */
function timed(cwd: string, command: string, argv: string[]): number {
  const start = performance.now();
  const r = spawnSync(command, argv, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }); // prettier-ignore
  if (r.status !== 0) throw new Error(`${command} ${argv.join(" ")} in ${cwd}: exit ${r.status}\n${r.stderr}`); // prettier-ignore
  return (performance.now() - start) / 1000;
}

const work = mkdtempSync(join(tmpdir(), "phctl-bench-install-"));
const loadBefore = loadAverage();
const rows: Record<string, number[]> = {};
const add = (name: string, s: number) => {
  (rows[name] ??= []).push(s);
  console.log(`${name}: ${s.toFixed(1)} s`);
};

try {
  // The release tarball of this checkout (dist as built).
  execFileSync("node", ["scripts/pack.js", "--no-build", "--out", work], { cwd: ROOT, env, stdio: "ignore" }); // prettier-ignore
  const tarball = join(
    work,
    readdirSync(work).find((f) => f.endsWith(".tgz"))!,
  );
  // The action's checkout: the committed files only, as the runner downloads them.
  const checkout = join(work, "checkout");
  mkdirSync(checkout);
  execFileSync("sh", ["-c", `git -C "${ROOT}" archive HEAD | tar -x -C "${checkout}"`]);

  for (let i = 0; i < runs; i++) {
    const cache = join(work, `cache-${i}`);
    const npmCi = ["ci", "--cache", cache, "--no-audit", "--no-fund"];
    // The tarball, cold then warm.
    for (const kind of ["cold", "warm"] as const) {
      const dir = join(work, `tarball-${kind}-${i}`);
      mkdirSync(dir);
      const start = performance.now();
      execFileSync("tar", ["-xzf", tarball, "-C", dir]);
      timed(join(dir, "package"), "npm", [...npmCi, "--omit=dev", "--omit=optional", "--ignore-scripts", ...(kind === "warm" ? ["--prefer-offline"] : [])]); // prettier-ignore
      add(`release tarball (GitLab job), ${kind}`, (performance.now() - start) / 1000);
      timed(join(dir, "package"), "node", ["dist/cli/main.js", "validate", join(ROOT, "examples")]); // prettier-ignore
      rmSync(dir, { recursive: true, force: true });
    }
    if (args.values["skip-action"]) continue;
    // The action from its checkout: cold install and build; warm, the cache restore.
    const acache = join(work, `action-cache-${i}`);
    const dir = join(work, `action-${i}`);
    execFileSync("cp", ["-a", checkout, dir]);
    const start = performance.now();
    timed(dir, "npm", ["ci", "--cache", acache, "--no-audit", "--no-fund", "--ignore-scripts"]);
    timed(dir, "npm", ["rebuild", "esbuild", "--cache", acache]);
    timed(dir, "npm", ["run", "build"]);
    add("action from its checkout, cold (npm ci, build)", (performance.now() - start) / 1000);
    const saved = join(work, `action-${i}.tar`);
    execFileSync("tar", ["-cf", saved, "-C", dir, "node_modules", "dist"]);
    const restored = join(work, `action-warm-${i}`);
    execFileSync("cp", ["-a", checkout, restored]);
    const warm = performance.now();
    execFileSync("tar", ["-xf", saved, "-C", restored]);
    add("action from its checkout, warm (cache restored)", (performance.now() - warm) / 1000);
    timed(restored, "node", ["dist/cli/main.js", "--version"]);
    for (const d of [dir, restored, acache, saved]) rmSync(d, { recursive: true, force: true });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const label = args.values.label;
const stamp = {
  when: new Date().toISOString().slice(0, 16) + "Z",
  load: `${loadBefore} → ${loadAverage()}`,
  machine: machine(),
  runs,
};
const medians = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v)]));
console.log(JSON.stringify({ medians, ...stamp }));
if (!args.values["no-write"]) {
  type Row = { medians: Record<string, number> } & typeof stamp;
  const all = { ...readRows<Row>("install"), [label]: { medians, ...stamp } };
  const names = [...new Set(Object.values(all).flatMap((r) => Object.keys(r.medians)))];
  const lines = [
    "## Install",
    "",
    "How long a CI job takes to get phctl (bench/install.ts; targets: cold < 60 s, warm < 5 s). Cold: a fresh directory and an empty npm cache, every package from the registry. Warm: a fresh directory, the cache restored. The machine is shared with other sessions: the load average is beside each row.",
    "",
    `| how | ${Object.keys(all).join(" | ")} |`,
    `| --- | ${Object.keys(all)
      .map(() => "---:")
      .join(" | ")} |`,
    ...names.map((n) => `| ${n} | ${Object.values(all).map((r) => (r.medians[n] === undefined ? "—" : `${r.medians[n].toFixed(1)} s`)).join(" | ")} |`), // prettier-ignore
    "",
    ...Object.entries(all).map(([k, r]) => `- ${k}: ${r.runs} run(s), ${r.when} on ${r.machine}; load average ${r.load}`), // prettier-ignore
  ];
  writeBlock("install", all, lines);
}
