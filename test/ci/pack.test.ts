/**
 * The npm package, the fast part: what the release tarball ships (the CLI, the schemas, the
 * documents, npm-shrinkwrap.json; no sources, tests, source maps, dev tools or scripts), that
 * it is publishable, that packing builds once, and that installing the tarball as the CI kit
 * does (unpacked, `npm ci`, no optional part: better-sqlite3, the reference server's
 * database) installs exactly the lockfile's versions, compiles nothing, prints no engine
 * warning, and gives a working CLI whose `serve` says how to get its database. The tarball's
 * node_modules.sha256 is the digest of that install, computed alike by scripts/install-digest.js
 * and by the shell of action.yml and the GitLab job, which then use a cached node_modules
 * with no npm run only when it has that digest.
 * `npm run pack-check` does the full install, with better-sqlite3, and runs the embedded
 * server (scripts/pack-check.sh).
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"; // prettier-ignore
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { SQLITE_MISSING } from "../../src/server/store/db.js";

const ROOT = resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const run = promisify(execFile);
/** npm as a user runs it: none of the npm_* settings of the `npm test` / `npx` running us. */
const npmEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
  npm_config_update_notifier: "false",
  npm_config_fund: "false",
};

describe("the npm package", () => {
  it("is publishable, with a bin that is shipped", () => {
    expect(pkg.private).toBeUndefined();
    expect(pkg.overrides).toBeUndefined(); // overrides never reach the package's users
    expect(pkg.bin).toEqual({ phctl: "dist/cli/main.cjs" });
    expect(pkg.engines.node).toBe(">=20");
  });

  it("ships the CLI, the schemas and the documents, and no sources, tests, source maps or dev tools", () => {
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: ROOT,
      encoding: "utf8",
      env: npmEnv,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const files: string[] = JSON.parse(out)[0].files.map((f: { path: string }) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "dist/cli/main.js",
        "dist/cli/main.cjs",
        "dist/server/app.js",
        "schemas/plan.schema.json",
        "schemas/manifest.schema.json",
        "schemas/validators.cjs",
        // What the README links to: a user reads them beside it in node_modules too.
        "CHANGELOG.md",
        "docs/api.md",
        "docs/design.md",
      ]),
    );
    const stray = files.filter(
      (f) =>
        !/^(dist|schemas|docs)\//.test(f) &&
        !["package.json", "README.md", "LICENSE", "CHANGELOG.md"].includes(f),
    );
    expect(stray).toEqual([]);
    expect(files.filter((f) => f.endsWith(".map") || f.endsWith(".ts"))).toEqual([]);
    expect(files).not.toContain("dist/gen-main.js");
    // Each bundle with its V8 code cache (src/cli/bundle-load.ts).
    const bundles = files.filter((f) => /^dist\/cli\/bundle-[a-z-]+\.cjs$/.test(f));
    expect(bundles.length).toBeGreaterThan(10);
    for (const b of bundles) expect(files).toContain(`${b}.v8cache`);
  });

  it("builds once when packed (npm run pack-release), and once when installed from a checkout (npm ci)", () => {
    // npm runs each lifecycle script through --script-shell: this one records the command it
    // is given and runs only the nested `npm run …` parts, so the real lifecycle order is
    // followed without building (or cleaning dist/) for real.
    const dir = mkdtempSync(join(tmpdir(), "phctl-lifecycle-"));
    const log = join(dir, "commands.log");
    const shell = join(dir, "record-shell.cjs");
    writeFileSync(
      shell,
      `#!${process.execPath}
const { appendFileSync } = require("node:fs");
const { spawnSync } = require("node:child_process");
const command = process.argv[process.argv.indexOf("-c") + 1];
appendFileSync(${JSON.stringify(log)}, command + "\\n");
for (const part of command.split("&&").map((p) => p.trim()))
  if (part.startsWith("npm run ")) {
    const r = spawnSync("/bin/sh", ["-c", part], { stdio: "inherit" });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
`,
      { mode: 0o755 },
    );
    const builds = (command: string, args: string[]) => {
      writeFileSync(log, "");
      execFileSync(command, args, {
        cwd: ROOT,
        env: { ...npmEnv, npm_config_script_shell: shell },
        stdio: ["ignore", "ignore", "pipe"],
      });
      const lines = readFileSync(log, "utf8").split("\n");
      return lines.filter((l) => l === pkg.scripts.build).length;
    };
    expect(builds("node", ["scripts/pack.js", "--out", dir])).toBe(1);
    // `npm ci` (and `npm install` in a checkout) run `prepare`: npx phctl works after a clone.
    expect(builds("npm", ["run", "prepare"])).toBe(1);
  }, 120_000);

  it("refuses a plain `npm pack`: it would ship the prepare script and no shrinkwrap", () => {
    const r = spawnSync("npm", ["pack", "--dry-run"], { cwd: ROOT, env: npmEnv, encoding: "utf8" });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("phctl: make the release tarball with `npm run pack-release` (scripts/pack.js), not `npm pack`"); // prettier-ignore
  });
});

describe("the release tarball (scripts/pack.js)", () => {
  const dir = mkdtempSync(join(tmpdir(), "phctl-release-"));
  const tarball = join(dir, `phctl-${pkg.version}.tgz`);
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
  const app = join(dir, "app");
  let install = { stdout: "", stderr: "" };
  beforeAll(async () => {
    await run("node", ["scripts/pack.js", "--no-build", "--out", dir], { cwd: ROOT, env: npmEnv });
    // As the GitLab job installs it: unpacked, then `npm ci` on its npm-shrinkwrap.json (`npm
    // install phctl.tgz` ignores a file tarball's shrinkwrap: npm 11.19 resolved 5 of 138
    // packages anew), no optional part, install scripts on: none is left to run.
    mkdirSync(app);
    execFileSync("tar", ["-xzf", tarball, "-C", app]);
    install = await run(
      "npm",
      ["ci", "--omit=dev", "--omit=optional", "--prefer-offline", "--no-audit", "--no-fund"],
      { cwd: join(app, "package"), env: npmEnv, timeout: 170_000 },
    );
  }, 180_000);

  it("ships npm-shrinkwrap.json, and a package.json with no scripts and exact versions", () => {
    const files = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n");
    expect(files).toContain("package/npm-shrinkwrap.json");
    const shipped = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })); // prettier-ignore
    expect(shipped.scripts).toBeUndefined(); // npm 11 warned every consumer of `prepare`
    expect(shipped.devDependencies).toBeUndefined();
    for (const [name, version] of Object.entries({
      ...shipped.dependencies,
      ...shipped.optionalDependencies,
    }))
      // prettier-ignore
      expect(version, name).toBe(lock.packages[`node_modules/${name}`].version);
    expect(Object.keys(shipped.optionalDependencies)).toEqual(["better-sqlite3"]);
  });

  it("installs exactly the lockfile's versions, compiling nothing (better-sqlite3 left out)", () => {
    expect(install.stderr).not.toContain("EBADENGINE");
    expect(install.stderr).not.toMatch(/install-scripts|prepare/);
    const installed = new Set<string>();
    const walk = (nm: string) => {
      if (!existsSync(nm)) return;
      for (const e of readdirSync(nm)) {
        if (e.startsWith(".")) continue;
        if (e.startsWith("@")) {
          for (const s of readdirSync(join(nm, e))) visit(join(nm, e, s), `${e}/${s}`);
        } else visit(join(nm, e), e);
      }
    };
    const visit = (d: string, name: string) => {
      const { version } = JSON.parse(readFileSync(join(d, "package.json"), "utf8"));
      if (name !== "phctl") installed.add(`${name}@${version}`);
      walk(join(d, "node_modules"));
    };
    walk(join(app, "package/node_modules"));
    const locked = new Set(
      Object.entries<{ version: string; dev?: boolean; optional?: boolean; devOptional?: boolean }>(
        lock.packages,
      ) // prettier-ignore
        .filter(([path, p]) => path !== "" && !p.dev && !p.optional && !p.devOptional)
        .map(([path, p]) => `${path.replace(/^.*node_modules\//, "")}@${p.version}`),
    );
    expect([...installed].filter((p) => !locked.has(p)).sort(), "not the lockfile's").toEqual([]);
    expect([...locked].filter((p) => !installed.has(p)).sort(), "missing").toEqual([]);
    expect(installed.has(`better-sqlite3@${lock.packages["node_modules/better-sqlite3"].version}`)).toBe(false); // prettier-ignore
  });

  /** The shell function `tree_sha256` as `file` defines it, whitespace folded. */
  const shellDigest = (text: string) => /tree_sha256\(\) \{[\s\S]*?; \}/.exec(text)![0].replace(/\s+/g, " "); // prettier-ignore
  const digestOf = (fn: string, dir: string) =>
    execFileSync("bash", ["-eo", "pipefail", "-c", `${fn}\ntree_sha256 "$1"`, "bash", dir], { encoding: "utf8" }).trim(); // prettier-ignore

  it("ships node_modules.sha256, the digest of that install, as the action and the GitLab job compute it", () => {
    const shipped = execFileSync("tar", ["-xzOf", tarball, "package/node_modules.sha256"], { encoding: "utf8" }); // prettier-ignore
    const [digest, name] = shipped.trim().split(/\s+/);
    expect(name).toBe("node_modules");
    const action = shellDigest(readFileSync(join(ROOT, "action.yml"), "utf8"));
    const gitlab = shellDigest(readFileSync(join(ROOT, "examples/.gitlab-ci.yml"), "utf8"));
    expect(gitlab).toBe(action);
    const installed = join(app, "package/node_modules");
    expect(digestOf(action, installed)).toBe(digest);
    const js = `import { treeSha256 } from ${JSON.stringify(join(ROOT, "scripts/install-digest.js"))}; console.log(treeSha256(process.argv[1]));`; // prettier-ignore
    expect(execFileSync(process.execPath, ["--input-type=module", "-e", js, installed], { encoding: "utf8" }).trim()).toBe(digest); // prettier-ignore
  });

  it("the GitLab job uses the cached node_modules only when it has the tarball's digest: then no npm runs", () => {
    const ci = parse(readFileSync(join(ROOT, "examples/.gitlab-ci.yml"), "utf8"));
    const before = ci[".phctl"].before_script.join("\n");
    const sha = createHash("sha256").update(readFileSync(tarball)).digest("hex");
    const standIn = join(dir, "stand-in");
    mkdirSync(standIn, { recursive: true });
    const npmLog = join(dir, "npm.log");
    writeFileSync(join(standIn, "npm"), `#!/usr/bin/env bash\necho "npm $*" >>${JSON.stringify(npmLog)}\nexit 7\n`); // prettier-ignore
    chmodSync(join(standIn, "npm"), 0o755);
    const project = join(dir, "project");
    const cached = join(project, ".phctl-install/package/node_modules");
    const job = () => {
      writeFileSync(npmLog, "");
      const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", before], {
        cwd: project,
        encoding: "utf8",
        env: { PATH: `${standIn}:${process.env.PATH}`, HOME: process.env.HOME!, CI_PROJECT_DIR: project, PHCTL_VERSION: pkg.version, PHCTL_TARBALL_URL: `file://${tarball}`, PHCTL_SHA256: sha }, // prettier-ignore
      });
      return { code: r.status, out: `${r.stdout}${r.stderr}`, npm: readFileSync(npmLog, "utf8") };
    };
    // GitLab restores the cache (phctl-install-$PHCTL_SHA256) into the checkout.
    cpSync(join(app, "package/node_modules"), cached, { recursive: true, verbatimSymlinks: true });
    const warm = job();
    expect(warm.code, warm.out).toBe(0);
    expect(warm.npm).toBe("");
    expect(warm.out).toContain("as the tarball's node_modules.sha256 says: no npm run");
    expect(warm.out).toMatch(new RegExp(`^${pkg.version.replace(/\./g, "\\.")}$`, "m")); // phctl --version, the real one
    expect(existsSync(join(cached, "ajv/package.json"))).toBe(true); // where the cache is saved from
    // One file changed (a poisoned cache): npm installs afresh (the stand-in fails the job).
    writeFileSync(join(cached, "ajv/dist/ajv.js"), "process.exit(42);\n");
    const poisoned = job();
    expect(poisoned.code).toBe(7);
    expect(poisoned.out).toContain("phctl: the cached dependencies are not the tarball's (node_modules.sha256): installed afresh"); // prettier-ignore
    expect(poisoned.npm).toBe("npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund\n"); // prettier-ignore
    expect(existsSync(join(project, ".phctl-restored"))).toBe(false);
    // A link the checkout holds in its place is not followed: npm installs afresh.
    rmSync(join(project, ".phctl-install"), { recursive: true, force: true });
    mkdirSync(join(project, ".phctl-install/package"), { recursive: true });
    symlinkSync(join(app, "package/node_modules"), cached);
    const linked = job();
    expect(linked.npm).toBe("npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund\n"); // prettier-ignore
    expect(existsSync(join(app, "package/node_modules/ajv/package.json"))).toBe(true);
  }, 120_000);

  it("runs: validate works, and serve says in one line how to get its database", async () => {
    const bin = join(app, "package/dist/cli/main.js");
    const validate = await run(bin, ["validate", join(ROOT, "examples")], {
      cwd: app,
      env: { ...process.env, NODE_DEBUG: "phctl" },
    });
    expect(validate.stdout).toBe("0 errors, 0 warnings in 13 files\n");
    // The installed package's code cache fits its bundle.
    expect(validate.stderr).toMatch(/bundle-validate\.cjs: code cache used$/m);
    const serve = spawnSync(bin, ["serve", "--port", "0"], { cwd: app, encoding: "utf8", timeout: 30_000 }); // prettier-ignore
    expect(serve.status).toBe(1);
    expect(serve.stdout).toBe("");
    expect(serve.stderr).toBe(`phctl: cannot start the server: ${SQLITE_MISSING}\n`);
    // A command on the embedded server (no API URL) says the same, as a user error.
    const config = join(dir, "config");
    cpSync(join(ROOT, "examples"), config, { recursive: true, filter: (f) => !f.includes("/.phctl") }); // prettier-ignore
    const env = Object.fromEntries(Object.entries(npmEnv).filter(([k]) => !k.startsWith("PHCTL_"))); // prettier-ignore
    const plan = spawnSync(bin, ["plan", config], { cwd: app, env, encoding: "utf8", timeout: 30_000 }); // prettier-ignore
    expect(plan.status).toBe(1);
    expect(plan.stderr).toBe(`phctl: ${SQLITE_MISSING}\n`);
    expect(SQLITE_MISSING).toContain(`npm install better-sqlite3@${semverMajor(pkg.optionalDependencies["better-sqlite3"])} `); // prettier-ignore
  }, 60_000);
});

/** The major version of a range such as ^12.6.2 or 12.11.1. */
const semverMajor = (range: string) => /(\d+)/.exec(range)![1];

describe("the release commit the action is pinned to (scripts/pack.js --commit)", () => {
  it("is HEAD plus release/, exactly the tarball's package/; refused in a checkout with changes", () => {
    const dir = mkdtempSync(join(tmpdir(), "phctl-release-commit-"));
    const clone = join(dir, "clone");
    const git = (...args: string[]) => execFileSync("git", ["-C", clone, ...args], { encoding: "utf8" }).trim(); // prettier-ignore
    const head = execFileSync("git", ["-C", ROOT, "rev-parse", "HEAD"], { encoding: "utf8" }).trim(); // prettier-ignore
    execFileSync("git", ["clone", "-q", "--no-checkout", ROOT, clone]);
    git("checkout", "-q", head);
    cpSync(join(ROOT, "dist"), join(clone, "dist"), { recursive: true }); // built, ignored by git
    const pack = () => spawnSync("node", ["scripts/pack.js", "--no-build", "--commit", "--out", join(dir, "out")], { cwd: clone, env: npmEnv, encoding: "utf8" }); // prettier-ignore
    const r = pack();
    expect(r.status, r.stderr).toBe(0);
    const commit = /^release commit ([0-9a-f]{40}) \(tag it: git tag v(\S+) \1\)$/m.exec(r.stdout);
    expect(commit, r.stdout).not.toBeNull();
    const [, sha, version] = commit!;
    expect(version).toBe(pkg.version);
    expect(git("rev-parse", `${sha}^`)).toBe(head);
    expect(git("diff", "--name-only", head, sha).split("\n").filter((f) => !f.startsWith("release/"))).toEqual([]); // prettier-ignore
    const tgz = join(dir, "out", `phctl-${pkg.version}.tgz`);
    const inTarball = execFileSync("tar", ["-tzf", tgz], { encoding: "utf8" }).split("\n").filter(Boolean).map((f) => f.replace(/^package\//, "release/")).sort(); // prettier-ignore
    expect(git("ls-tree", "-r", "--name-only", sha, "release/").split("\n").sort()).toEqual(inTarball); // prettier-ignore
    for (const f of ["node_modules.sha256", "npm-shrinkwrap.json", "dist/cli/main.js", "package.json"])
      expect(git("show", `${sha}:release/${f}`), f).toBe(execFileSync("tar", ["-xzOf", tgz, `package/${f}`], { encoding: "utf8" }).trim()); // prettier-ignore
    expect(git("ls-tree", sha, "release/dist/cli/main.js")).toMatch(/^100755 /);
    expect(git("rev-parse", "HEAD")).toBe(head); // no branch moved
    writeFileSync(join(clone, "stray.txt"), "x\n");
    const dirty = pack();
    expect(dirty.status).toBe(1);
    expect(dirty.stderr).toBe("phctl: --commit needs a clean checkout (the release commit's parent is HEAD, and dist/ is built from the worktree): commit or remove the changes first\n"); // prettier-ignore
    rmSync(dir, { recursive: true, force: true });
  }, 240_000);
});
