/**
 * The action installing phctl from its own checkout (no PHCTL_MAIN), run by the local runner
 * (gha-runner.ts) on a copy of action.yml with a stand-in npm that records what it is asked
 * and "builds" a phctl that prints its arguments, and actions/cache emulated on directories:
 *
 * - a first run installs (npm ci without install scripts, esbuild's rebuilt — never
 *   better-sqlite3's, which compiled for minutes and only `serve` needs — the build) and
 *   saves node_modules and dist under a key of the lockfile and the sources;
 * - a second run on a fresh checkout restores them and runs no npm at all;
 * - after a change of sources, the dependencies are restored and only the build runs.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"; // prettier-ignore
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runJob } from "./gha-runner.js";

const ROOT = resolve(import.meta.dirname, "../..");
const tmp = mkdtempSync(join(tmpdir(), "phctl-action-install-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const npmLog = join(tmp, "npm.log");
const bin = join(tmp, "bin");
mkdirSync(bin);
// npm: ci makes node_modules, `run build` makes a dist/cli/main.js that prints its arguments.
writeFileSync(
  join(bin, "npm"),
  `#!/usr/bin/env bash
echo "npm $*" >>${JSON.stringify(npmLog)}
case "$1" in
  ci) mkdir -p node_modules/better-sqlite3 ;;
  run) mkdir -p dist/cli && printf 'const a = process.argv.slice(2); console.log(a[0] === "--version" ? "0.1.0" : "phctl " + a.join(" "));\\n' >dist/cli/main.js ;;
esac
`,
);
chmodSync(join(bin, "npm"), 0o755);

const workflow = join(tmp, "workflow.yml");
writeFileSync(
  workflow,
  `on: schedule
jobs:
  drift:
    runs-on: ubuntu-latest
    steps:
      - uses: your-org/phctl@v1
        with: { mode: drift, report: "false" }
        env: { PHCTL_API_URL: "http://127.0.0.1:9", PHCTL_TOKEN: "t" }
`,
);

/** actions/cache on directories: snapshots by key, restore-keys as prefixes (newest first). */
const cache = new Map<string, string>();
let snapshots = 0;
function emulate(uses: string, inputs: Record<string, string>, env: Record<string, string>) {
  if (uses.startsWith("actions/setup-node@")) return;
  const paths = inputs.path.split("\n").filter(Boolean);
  if (uses.startsWith("actions/cache/restore@")) {
    const prefixes = (inputs["restore-keys"] ?? "").split("\n").filter(Boolean);
    const key = cache.has(inputs.key) ? inputs.key : [...cache.keys()].reverse().find((k) => prefixes.some((p) => k.startsWith(p))); // prettier-ignore
    if (key === undefined) return;
    paths.forEach((p, i) => existsSync(join(cache.get(key)!, String(i))) && cpSync(join(cache.get(key)!, String(i)), p, { recursive: true })); // prettier-ignore
    writeFileSync(env.GITHUB_OUTPUT, `cache-hit=${key === inputs.key}\ncache-matched-key=${key}\n`); // prettier-ignore
    return;
  }
  if (uses.startsWith("actions/cache/save@")) {
    const dir = join(tmp, `snapshot-${++snapshots}`);
    paths.forEach((p, i) => existsSync(p) && cpSync(p, join(dir, String(i)), { recursive: true }));
    cache.set(inputs.key, dir);
    return;
  }
  throw new Error(`${uses} is not emulated`);
}

/** A fresh checkout of the action (as the runner downloads it), then the job. */
async function run(source = "export const a = 1;\n") {
  const action = mkdtempSync(join(tmp, "action-"));
  cpSync(join(ROOT, "action.yml"), join(action, "action.yml"));
  writeFileSync(join(action, "package-lock.json"), '{ "lockfileVersion": 3 }\n');
  mkdirSync(join(action, "src"));
  writeFileSync(join(action, "src/main.ts"), source);
  const work = mkdtempSync(join(tmp, "work-"));
  const temp = mkdtempSync(join(tmp, "temp-"));
  writeFileSync(npmLog, "");
  const job = await runJob({
    workflow,
    job: "drift",
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME!, GITHUB_WORKSPACE: work, RUNNER_TEMP: temp, RUNNER_OS: "Linux", GITHUB_REPOSITORY: "acme/config" }, // prettier-ignore
    contexts: { github: { event: {}, repository: "acme/config", token: "x" }, secrets: {}, vars: {}, runner: { temp, os: "Linux" } }, // prettier-ignore
    action: { matches: (uses) => uses === "your-org/phctl@v1", dir: action },
    emulate,
  });
  const failed = job.steps.filter((s) => s.outcome === "failure").map((s) => `${s.name}: ${s.stdout}${s.stderr}`); // prettier-ignore
  return { job, failed, npm: readFileSync(npmLog, "utf8").trim().split("\n").filter(Boolean) };
}

describe("the action's install from its checkout", () => {
  it("a first run installs with no install script but esbuild's (nothing compiles), builds, and caches", async () => {
    const r = await run();
    expect(r.failed).toEqual([]);
    expect(r.npm).toEqual([
      "npm ci --ignore-scripts --no-audit --no-fund",
      "npm rebuild esbuild",
      "npm run build",
    ]);
    expect(r.job.steps.find((s) => s.name === "Build phctl")?.stdout).toContain("0.1.0");
    expect(r.job.steps.find((s) => s.name === "Drift")?.stdout).toContain("phctl drift . --format markdown"); // prettier-ignore
    expect([...cache.keys()]).toEqual([expect.stringMatching(/^phctl-install-Linux--node\d+-[0-9a-f]{16}-[0-9a-f]{16}$/)]); // prettier-ignore
  });

  it("a second run restores node_modules and dist: no npm at all", async () => {
    const r = await run();
    expect(r.failed).toEqual([]);
    expect(r.npm).toEqual([]);
    expect(r.job.steps.find((s) => s.name === "Drift")?.stdout).toContain("phctl drift");
    expect(cache.size).toBe(1); // an exact hit saves nothing
  });

  it("after a change of sources, only the build runs (the dependencies are restored)", async () => {
    const r = await run("export const a = 2;\n");
    expect(r.failed).toEqual([]);
    expect(r.npm).toEqual(["npm run build"]);
    expect(cache.size).toBe(2);
  });
});
