/**
 * Install benchmark (not part of `npm test`; `npm run bench:install`): how long a CI job takes
 * to get phctl, cold (a fresh directory, an empty npm cache and no CI cache: every package from
 * the registry) and warm (a fresh directory, the CI cache of the cold run restored), running
 * the kit's own install scripts as they ship:
 *
 * - the GitLab job (examples/.gitlab-ci.yml's before_script) on the release tarball of this
 *   checkout: SHA-256 checked, unpacked, then `npm ci --omit=dev --omit=optional
 *   --ignore-scripts` cold; warm, the cache (phctl-install-$PHCTL_SHA256: the tarball and the
 *   installed package directory) is extracted first (as the runner does: a tar), and the job
 *   checks the tarball's SHA-256 and the package's digest (the tarball's INSTALLED-SHA256):
 *   nothing unpacked, no npm, no download;
 * - the action (action.yml's step "Install phctl's dependencies") in a release commit's
 *   checkout: HEAD's files plus release/, the tarball's package/ (what scripts/pack.js
 *   --commit commits); cold, `npm ci` of release/; warm, actions/cache's node_modules
 *   extracted (a tar) and its digest checked: no npm. Nothing is built in either.
 *
 * Each figure is the wall time of the whole script (restore included), with the CPU time
 * (user + system, children included) beside it: the machine is shared, so the load average
 * is kept too. Targets (issue 36): cold under 60 s, warm under 5 s. Writes the "Install"
 * block of bench/results.md, one column per `--label`.
 *
 *   npm run build && npm run bench:install -- [--label "session 16"] [--runs 1]
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs"; // prettier-ignore
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { parse } from "yaml";
import { loadAverage, readRows, writeBlock } from "./block.js";
import { machine, median } from "./report.js";

const ROOT = join(import.meta.dirname, "..");
const args = parseArgs({
  args: process.argv.slice(1).filter((a) => a !== "--"),
  options: {
    label: { type: "string", default: "after" },
    runs: { type: "string", default: "1" },
    "no-write": { type: "boolean" },
  },
});
const runs = Number(args.values.runs);

/** npm as a CI job runs it: none of the npm_* settings of the `npm run` running us. */
const baseEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
  npm_config_update_notifier: "false",
};

/** Runs `script` with bash -eo pipefail; returns wall and CPU seconds (children included). */
function timed(cwd: string, script: string, env: Record<string, string>) {
  const cpuFile = join(work, "cpu.txt");
  const start = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%U %S", "-o", cpuFile, "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], { cwd, env: { ...baseEnv, ...env }, encoding: "utf8" }); // prettier-ignore
  const wall = (performance.now() - start) / 1000;
  if (r.status !== 0) throw new Error(`${script.slice(0, 200)}…: exit ${r.status}\n${r.stdout}${r.stderr}`); // prettier-ignore
  const [user, sys] = readFileSync(cpuFile, "utf8").trim().split("\n").pop()!.split(" ").map(Number); // prettier-ignore
  return { wall, cpu: user + sys, out: `${r.stdout}${r.stderr}` };
}

const work = mkdtempSync(join(tmpdir(), "phctl-bench-install-"));
const loadBefore = loadAverage();
const rows: Record<string, { wall: number[]; cpu: number[] }> = {};
const add = (name: string, t: { wall: number; cpu: number }) => {
  const row = (rows[name] ??= { wall: [], cpu: [] });
  row.wall.push(t.wall);
  row.cpu.push(t.cpu);
  console.log(`${name}: ${t.wall.toFixed(1)} s (CPU ${t.cpu.toFixed(1)} s)`);
};
/** Both times of `a` then `b`, as one figure. */
const sum = (a: { wall: number; cpu: number }, b: { wall: number; cpu: number }) => ({ wall: a.wall + b.wall, cpu: a.cpu + b.cpu }); // prettier-ignore

try {
  // The release tarball of this checkout (dist as built), and a release commit's checkout.
  execFileSync("node", ["scripts/pack.js", "--no-build", "--out", work], { cwd: ROOT, env: baseEnv, stdio: "ignore" }); // prettier-ignore
  const tarball = join(
    work,
    readdirSync(work).find((f) => f.endsWith(".tgz"))!,
  );
  const sha = createHash("sha256").update(readFileSync(tarball)).digest("hex");
  const checkout = join(work, "checkout");
  mkdirSync(checkout);
  execFileSync("sh", ["-c", `git -C "${ROOT}" archive HEAD | tar -x -C "${checkout}" && tar -xzf "${tarball}" -C "${checkout}" && mv "${checkout}/package" "${checkout}/release"`]); // prettier-ignore

  const gitlab = parse(readFileSync(join(ROOT, "examples/.gitlab-ci.yml"), "utf8"));
  const before = (gitlab[".phctl"].before_script as string[]).join("\n");
  const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8"));
  const deps = (action.runs.steps as { name?: string; run?: string }[]).find((s) => s.name === "Install phctl's dependencies")!.run!; // prettier-ignore

  for (let i = 0; i < runs; i++) {
    // GitLab: the template's before_script, then the same with the cache restored.
    const npmCache = join(work, `npm-cache-${i}`);
    const gitlabEnv = (project: string) => ({ CI_PROJECT_DIR: project, PHCTL_VERSION: "0.1.0", PHCTL_TARBALL_URL: `file://${tarball}`, PHCTL_SHA256: sha, npm_config_cache: npmCache }); // prettier-ignore
    const cold = join(work, `gitlab-cold-${i}`);
    mkdirSync(cold);
    add("release tarball (GitLab job), cold", timed(cold, before, gitlabEnv(cold)));
    const saved = join(work, `gitlab-cache-${i}.tar`);
    const cachePaths = gitlab[".phctl"].cache.find((c: { key: string }) => c.key === "phctl-install-$PHCTL_SHA256").paths as string[]; // prettier-ignore
    execFileSync("tar", ["-cf", saved, "-C", cold, ...cachePaths]);
    const warm = join(work, `gitlab-warm-${i}`);
    mkdirSync(warm);
    const restore = timed(warm, `tar -xf "${saved}"`, {});
    const job = timed(warm, before, { ...gitlabEnv(warm), npm_config_cache: join(work, "no-npm"), PHCTL_TARBALL_URL: "file:///nonexistent/phctl.tgz" }); // prettier-ignore
    if (!job.out.includes("nothing unpacked, no npm run")) throw new Error(`the warm GitLab job unpacked or ran npm:\n${job.out}`); // prettier-ignore
    add("release tarball (GitLab job), warm", sum(restore, job));

    // The action: its step in a release commit's checkout (phctl on the PATH as its first step puts it).
    const shim = join(work, "bin");
    mkdirSync(shim, { recursive: true });
    const actionEnv = (dir: string) => ({ GITHUB_ACTION_PATH: dir, INSTALL: "true", GITHUB_OUTPUT: join(dir, "output.txt"), PATH: `${shim}:${process.env.PATH}`, npm_config_cache: join(work, `action-npm-cache-${i}`) }); // prettier-ignore
    const dir = join(work, `action-${i}`);
    cpSync(checkout, dir, { recursive: true });
    writeFileSync(join(shim, "phctl"), `#!/usr/bin/env bash\nexec node "$PHCTL_MAIN_FOR_BENCH" "$@"\n`); // prettier-ignore
    chmodSync(join(shim, "phctl"), 0o755);
    const main = (d: string) => ({ PHCTL_MAIN_FOR_BENCH: join(d, "release/dist/cli/main.js") });
    add("action from its checkout, cold", timed(dir, deps, { ...actionEnv(dir), ...main(dir) }));
    const asaved = join(work, `action-cache-${i}.tar`);
    execFileSync("tar", ["-cf", asaved, "-C", dir, "release/node_modules"]);
    const restored = join(work, `action-warm-${i}`);
    cpSync(checkout, restored, { recursive: true });
    const arestore = timed(restored, `tar -xf "${asaved}"`, {});
    const astep = timed(restored, deps, { ...actionEnv(restored), ...main(restored), npm_config_cache: join(work, "no-npm") }); // prettier-ignore
    if (!astep.out.includes("no npm run")) throw new Error(`the warm action ran npm:\n${astep.out}`); // prettier-ignore
    add("action from its checkout, warm", sum(arestore, astep));
    for (const d of [cold, warm, dir, restored, saved, asaved, npmCache]) rmSync(d, { recursive: true, force: true }); // prettier-ignore
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
const medians = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v.wall)]));
const cpu = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v.cpu)]));
console.log(JSON.stringify({ medians, cpu, ...stamp }));
if (!args.values["no-write"]) {
  type Row = { medians: Record<string, number>; cpu?: Record<string, number> } & typeof stamp;
  /** Session 15's action rows, named for what they measured then. */
  const renamed: Record<string, string> = {
    "action from its checkout, cold (npm ci, build)": "action from its checkout, cold",
    "action from its checkout, warm (cache restored)": "action from its checkout, warm",
  };
  const old = readRows<Row>("install");
  for (const r of Object.values(old))
    r.medians = Object.fromEntries(Object.entries(r.medians).map(([k, v]) => [renamed[k] ?? k, v])); // prettier-ignore
  const all = { ...old, [label]: { medians, cpu, ...stamp } };
  const names = [...new Set(Object.values(all).flatMap((r) => Object.keys(r.medians)))];
  const cell = (r: Row, n: string) =>
    r.medians[n] === undefined ? "—" : `${r.medians[n].toFixed(1)} s${r.cpu?.[n] === undefined ? "" : ` (CPU ${r.cpu[n].toFixed(1)} s)`}`; // prettier-ignore
  const lines = [
    "## Install",
    "",
    "How long a CI job takes to get phctl (bench/install.ts; targets: cold < 60 s, warm < 5 s). Cold: a fresh directory, an empty npm cache and no CI cache, every package from the registry. Warm: a fresh directory, the CI cache of the cold run restored (its extraction included). Session 15: the action ran `npm ci` with every dev tool and built phctl (cold), then restored node_modules and dist (warm, the restore alone); the GitLab job's warm run had the npm cache restored and still ran `npm ci`. From session 16 the action builds nothing: it runs the prebuilt release/ of its release commit, cold `npm ci --omit=dev --omit=optional --ignore-scripts` there; warm, both kits restore node_modules and run no npm once its digest is the release's node_modules.sha256 (the figure includes that check and `phctl --version`). From session 16b the GitLab job caches the tarball and the installed package directory: warm, it checks the tarball's SHA-256 and the directory's digest (the tarball's INSTALLED-SHA256) and unpacks nothing (the tarball ships only the entry, the bundles, their code caches and the schemas; the cache holds node_modules less what Node never runs: 74 MB in 3,531 files, was 65 MB of node_modules alone in 5,726). CPU: user + system of the script and its children. The machine is shared with other sessions: the load average is under the table.",
    "",
    `| how | ${Object.keys(all).join(" | ")} |`,
    `| --- | ${Object.keys(all)
      .map(() => "---:")
      .join(" | ")} |`,
    ...names.map((n) => `| ${n} | ${Object.values(all).map((r) => cell(r, n)).join(" | ")} |`), // prettier-ignore
    "",
    ...Object.entries(all).map(([k, r]) => `- ${k}: ${r.runs} run(s), ${r.when} on ${r.machine}; load average ${r.load}`), // prettier-ignore
  ];
  writeBlock("install", all, lines);
}
