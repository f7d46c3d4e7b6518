/**
 * The action getting phctl from its own checkout (no PHCTL_MAIN), run by the local runner
 * (gha-runner.ts) on a copy of action.yml, with a stand-in npm that records what it is asked,
 * and actions/cache emulated on directories. The action builds nothing: it runs the prebuilt
 * `release/` of its release commit (scripts/pack.js --commit), whose dependencies it installs
 * or restores:
 *
 * - a commit with no release/ is refused in one line: no npm, no build;
 * - a first run installs release/'s dependencies with `npm ci --omit=dev --omit=optional
 *   --ignore-scripts` (nothing compiles, no build), checks their digest against
 *   release/node_modules.sha256 and caches them;
 * - a second run on a fresh checkout restores them, checks the digest and runs no npm at all;
 * - a restored node_modules with another digest (a poisoned cache) is removed, never run, and
 *   installed afresh; an npm that installs something else is used but not cached.
 */
import { execFileSync } from "node:child_process";
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
// npm: ci makes a node_modules (another one when NPM_INSTALLS_OTHER is set); nothing else runs.
writeFileSync(
  join(bin, "npm"),
  `#!/usr/bin/env bash
echo "npm $*" >>${JSON.stringify(npmLog)}
case "$1" in
  ci) mkdir -p node_modules/ajv/lib node_modules/.bin
      printf 'module.exports = "ajv";\\n' >node_modules/ajv/lib/ajv.js
      printf '{"name":"ajv","version":"8.17.1"}\\n' >node_modules/ajv/package.json
      printf '{"lockfileVersion":3,"when":"%s"}\\n' "$RANDOM" >node_modules/.package-lock.json
      ln -sf ../ajv/lib/ajv.js node_modules/.bin/ajv
      if [ -n "\${NPM_INSTALLS_OTHER:-}" ]; then echo other >node_modules/ajv/lib/other.js; fi ;;
  --version) echo 11.0.0 ;;
  *) echo "npm $1: not expected here" >&2; exit 3 ;;
esac
`,
);
chmodSync(join(bin, "npm"), 0o755);

/** The digest scripts/install-digest.js gives the node_modules the stand-in npm makes. */
const want = (() => {
  const dir = mkdtempSync(join(tmp, "digest-"));
  execFileSync(join(bin, "npm"), ["ci"], { cwd: dir, env: { ...process.env, PATH: process.env.PATH! } }); // prettier-ignore
  const digest = execFileSync(process.execPath, ["--input-type=module", "-e", `import { treeSha256 } from ${JSON.stringify(join(ROOT, "scripts/install-digest.js"))}; console.log(treeSha256(process.argv[1]));`, join(dir, "node_modules")], { encoding: "utf8" }).trim(); // prettier-ignore
  rmSync(dir, { recursive: true });
  return digest;
})();

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

/** actions/cache of the dependencies on directories: snapshots by exact key (no restore-keys). */
const cache = new Map<string, string>();
let snapshots = 0;
function emulate(uses: string, inputs: Record<string, string>, env: Record<string, string>) {
  if (uses.startsWith("actions/setup-node@")) return;
  if (uses.startsWith("actions/cache/") && !inputs.path.endsWith("/release/node_modules")) return; // the journal: none here
  if (uses.startsWith("actions/cache/restore@")) {
    expect(inputs["restore-keys"] ?? "").toBe("");
    const saved = cache.get(inputs.key);
    if (saved !== undefined) cpSync(saved, inputs.path, { recursive: true, verbatimSymlinks: true }); // prettier-ignore
    writeFileSync(env.GITHUB_OUTPUT, `cache-hit=${saved !== undefined}\n`);
    return;
  }
  if (uses.startsWith("actions/cache/save@")) {
    const dir = join(tmp, `snapshot-${++snapshots}`);
    cpSync(inputs.path, dir, { recursive: true, verbatimSymlinks: true });
    cache.set(inputs.key, dir);
    return;
  }
  throw new Error(`${uses} is not emulated`);
}

/** A fresh checkout of the action (a release commit unless `release` is false), then the job. */
async function run(options: { release?: boolean; env?: Record<string, string> } = {}) {
  const action = mkdtempSync(join(tmp, "action-"));
  cpSync(join(ROOT, "action.yml"), join(action, "action.yml"));
  writeFileSync(join(action, "package-lock.json"), '{ "lockfileVersion": 3 }\n');
  mkdirSync(join(action, "src"));
  writeFileSync(join(action, "src/main.ts"), "export const a = 1;\n");
  if (options.release !== false) {
    const release = join(action, "release");
    mkdirSync(join(release, "dist/cli"), { recursive: true });
    writeFileSync(join(release, "npm-shrinkwrap.json"), '{ "lockfileVersion": 3 }\n');
    writeFileSync(join(release, "node_modules.sha256"), `${want}  node_modules\n`);
    // phctl, once its dependency is there: it prints its arguments and the module it loaded.
    writeFileSync(join(release, "dist/cli/main.js"), `const a = process.argv.slice(2); const m = require("${release}/node_modules/ajv/lib/ajv.js"); console.log(a[0] === "--version" ? "0.1.0" : "phctl " + a.join(" ") + " with " + m);\n`); // prettier-ignore
  }
  const work = mkdtempSync(join(tmp, "work-"));
  const temp = mkdtempSync(join(tmp, "temp-"));
  writeFileSync(npmLog, "");
  const job = await runJob({
    workflow,
    job: "drift",
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME!, GITHUB_WORKSPACE: work, RUNNER_TEMP: temp, RUNNER_OS: "Linux", GITHUB_REPOSITORY: "acme/config", ...options.env }, // prettier-ignore
    contexts: { github: { event: {}, repository: "acme/config", token: "x" }, secrets: {}, vars: {}, runner: { temp, os: "Linux" } }, // prettier-ignore
    action: { matches: (uses) => uses === "your-org/phctl@v1", dir: action },
    emulate,
  });
  const failed = job.steps.filter((s) => s.outcome === "failure").map((s) => `${s.name}: ${s.stdout}${s.stderr}`); // prettier-ignore
  const out = (name: string) => job.steps.find((s) => s.name === name)?.stdout ?? "";
  return { job, action, failed, out, npm: readFileSync(npmLog, "utf8").trim().split("\n").filter(Boolean) }; // prettier-ignore
}

const CI = "npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund";

describe("the action's install from its checkout", () => {
  it("a commit with no prebuilt release/ is refused in one line: nothing built, no npm", async () => {
    const r = await run({ release: false });
    expect(r.npm).toEqual([]);
    expect(r.failed).toHaveLength(1);
    expect(r.failed[0]).toMatch(/^Install phctl: ::error title=phctl::this commit of the action has no prebuilt release\/ \(phctl is never built in CI\): pin the commit of a release tag/); // prettier-ignore
    expect(existsSync(join(r.action, "dist"))).toBe(false);
    expect(cache.size).toBe(0);
  });

  it("a first run installs release/'s dependencies only (no optional part, no script, no build), checks their digest, and caches them", async () => {
    const r = await run();
    expect(r.failed).toEqual([]);
    expect(r.npm).toEqual([CI]);
    expect(r.out("Install phctl's dependencies")).toMatch(/^0\.1\.0$/m);
    expect(r.out("Drift")).toContain("phctl drift . --format markdown");
    expect(r.out("Drift")).toContain("with ajv");
    expect([...cache.keys()]).toEqual([`phctl-deps-Linux--node${process.versions.modules}-${want}`]); // prettier-ignore
  });

  it("a second run restores them, finds their digest the release's, and runs no npm at all", async () => {
    const r = await run();
    expect(r.failed).toEqual([]);
    expect(r.npm).toEqual([]);
    expect(r.out("Install phctl's dependencies")).toContain(`phctl: dependencies restored, SHA-256 ${want} as release/node_modules.sha256 says: no npm run`); // prettier-ignore
    expect(r.out("Drift")).toContain("phctl drift");
    expect(cache.size).toBe(1); // an exact hit saves nothing
  });

  it("a restored node_modules that is not the release's (a poisoned cache) is removed unrun and installed afresh", async () => {
    const [snapshot] = cache.values();
    writeFileSync(join(snapshot, "ajv/lib/ajv.js"), 'module.exports = "POISONED";\n');
    const r = await run();
    expect(r.failed).toEqual([]);
    expect(r.npm).toEqual([CI]);
    expect(r.out("Install phctl's dependencies")).toContain("::warning title=phctl::the dependencies restored from the cache are not the release's (release/node_modules.sha256): removed, installed afresh"); // prettier-ignore
    expect(r.out("Drift")).toContain("with ajv");
    expect(r.out("Drift")).not.toContain("POISONED");
  });

  it("an npm that installs other files than the release's: used (npm checked them), never cached", async () => {
    cache.clear();
    const r = await run({ env: { NPM_INSTALLS_OTHER: "1" } });
    expect(r.failed).toEqual([]);
    expect(r.npm).toEqual([CI, "npm --version"]);
    expect(r.out("Install phctl's dependencies")).toContain("::warning title=phctl::npm 11.0.0 installed dependencies whose digest is not release/node_modules.sha256: used (npm checked each package's integrity) but not cached"); // prettier-ignore
    expect(cache.size).toBe(0);
  });
});
