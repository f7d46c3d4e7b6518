/**
 * The npm package, the fast part: what the release tarball ships (only what runs: the CLI's
 * entry, its bundles with their code caches, the schemas, npm-shrinkwrap.json; no per-file
 * build output, sources, tests, source maps, documents, dev tools or scripts), that it is
 * publishable, that packing builds once, and that installing the tarball as the CI kit does
 * (unpacked, `npm ci`, no optional part: better-sqlite3, the reference server's database)
 * installs exactly the lockfile's versions, compiles nothing, prints no engine warning, and
 * gives a CLI that validates, plans, applies, drifts, reports and serves against a scratch
 * server, and whose `serve` says how to get its database when it is missing. The tarball's
 * node_modules.sha256 is the digest of that install and its INSTALLED-SHA256 the digest of the
 * whole installed package, computed alike by scripts/install-digest.js and the shell of
 * action.yml and the GitLab job; a warm GitLab job runs its cached package only when it has
 * that digest, and then unpacks nothing, runs no npm and downloads nothing.
 * `npm run pack-check` does the full install, with better-sqlite3, and runs the embedded
 * server (scripts/pack-check.sh).
 */
import { execFile, execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"; // prettier-ignore
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { SQLITE_MISSING } from "../../src/server/store/db.js";
import { copyExamples } from "../helpers/examples.js";

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

  it("ships what runs — the CLI's entry, its bundles with their code caches, the schemas — and the documents README links to: docs/*.md, CHANGELOG, LICENSE", () => {
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: ROOT,
      encoding: "utf8",
      env: npmEnv,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const files: string[] = JSON.parse(out)[0].files.map((f: { path: string }) => f.path);
    expect(files).toContain(pkg.bin.phctl);
    expect(files).toEqual(expect.arrayContaining(["schemas/plan.schema.json", "schemas/manifest.schema.json", "schemas/validators.cjs"])); // prettier-ignore
    // Each bundle with its V8 code cache (src/cli/bundle-load.ts).
    const bundles = files.filter((f) => /^dist\/cli\/bundle-[a-z0-9-]+\.cjs$/.test(f));
    expect(bundles.length).toBeGreaterThan(10);
    for (const b of bundles) expect(files).toContain(`${b}.v8cache`);
    // No per-file tsc output (the bundles hold it), no sources or source maps, no images.
    const rest = files.filter(
      (f) =>
        !/^dist\/cli\/(main\.c?js|bundle-[a-z0-9-]+\.cjs(\.v8cache)?)$/.test(f) &&
        !f.startsWith("schemas/"),
    );
    expect(rest.sort()).toEqual(["CHANGELOG.md", "LICENSE", "README.md", "docs/api.md", "docs/design.md", "package.json"]); // prettier-ignore
    // README's links to documents resolve in the installed package too (examples/ and bench/
    // are the repository's: npm's registry page resolves them against `repository`).
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const linked = [...readme.matchAll(/\]\(((?:docs\/[^)#\s]+\.md)|CHANGELOG\.md)(?:#[^)]*)?\)/g)].map((m) => m[1]); // prettier-ignore
    expect(linked.length).toBeGreaterThan(2);
    for (const l of linked) expect(files, `README links ${l}`).toContain(l);
    // What the shipped entries require by a relative path is shipped.
    for (const f of files.filter((f) => /^dist\/cli\/.*\.c?js$/.test(f))) {
      const text = readFileSync(join(ROOT, f), "utf8");
      for (const [, rel] of text.matchAll(/require\("(\.\.?\/[^"]+)"\)/g))
        expect(files, `${f} requires ${rel}`).toContain(join("dist/cli", rel));
      for (const [, name] of text.matchAll(/"(bundle-[a-z0-9-]+\.cjs)"/g))
        expect(files, `${f} loads ${name}`).toContain(`dist/cli/${name}`);
    }
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

  /** The shell function `tree_sha256` as `file` defines it. */
  const shellDigest = (text: string) => /tree_sha256\(\) \{[\s\S]*?; \}/.exec(text)![0];
  const digestOf = (fn: string, dir: string) =>
    execFileSync("bash", ["-eo", "pipefail", "-c", `${fn}\ntree_sha256 "$1"`, "bash", dir], { encoding: "utf8" }).trim(); // prettier-ignore
  const jsDigest = (dir: string) => {
    const js = `import { treeSha256 } from ${JSON.stringify(join(ROOT, "scripts/install-digest.js"))}; console.log(treeSha256(process.argv[1]));`; // prettier-ignore
    return execFileSync(process.execPath, ["--input-type=module", "-e", js, dir], { encoding: "utf8" }).trim(); // prettier-ignore
  };
  const gitlabText = readFileSync(join(ROOT, "examples/.gitlab-ci.yml"), "utf8");
  /** The unpacked package as the GitLab job leaves it: installed, then pruned by its `prune_modules` (hard links: a deletion only unlinks). */
  let prunedDir: string | undefined;
  const prunedPackage = () => {
    if (prunedDir) return prunedDir;
    const d = join(dir, "pruned");
    execFileSync("cp", ["-al", join(app, "package"), d]);
    const fn = /prune_modules\(\) \{[\s\S]*?; \}/.exec(gitlabText)![0];
    execFileSync("bash", ["-eo", "pipefail", "-c", `${fn}\nprune_modules "$1"`, "bash", join(d, "node_modules")]); // prettier-ignore
    return (prunedDir = d);
  };
  const member = (name: string) => execFileSync("tar", ["-xzOf", tarball, `package/${name}`], { encoding: "utf8" }); // prettier-ignore

  it("ships node_modules.sha256, the digest of that install, as the action and the GitLab job compute it", () => {
    const [digest, name] = member("node_modules.sha256").trim().split(/\s+/);
    expect(name).toBe("node_modules");
    const installed = join(app, "package/node_modules");
    expect(digestOf(shellDigest(readFileSync(join(ROOT, "action.yml"), "utf8")), installed)).toBe(digest); // prettier-ignore
    expect(digestOf(shellDigest(readFileSync(join(ROOT, "examples/.gitlab-ci.yml"), "utf8")), installed)).toBe(digest); // prettier-ignore
    expect(jsDigest(installed)).toBe(digest);
  });

  it("ships INSTALLED-SHA256, first in the tarball: the digest of the unpacked package with that install, pruned, as the GitLab job computes it", () => {
    expect(execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n")[0]).toBe("package/INSTALLED-SHA256"); // prettier-ignore
    const [digest, name] = member("INSTALLED-SHA256").trim().split(/\s+/);
    expect(name).toBe("package");
    const installed = prunedPackage();
    expect(digestOf(shellDigest(gitlabText), installed)).toBe(digest);
    expect(jsDigest(installed)).toBe(digest);
    // scripts/install-digest.js prunes the same files; about half of them, none that Node runs.
    const jsPruned = join(dir, "pruned-js");
    execFileSync("cp", ["-al", join(app, "package"), jsPruned]);
    const js = `import { pruneModules } from ${JSON.stringify(join(ROOT, "scripts/install-digest.js"))}; pruneModules(process.argv[1]);`; // prettier-ignore
    execFileSync(process.execPath, ["--input-type=module", "-e", js, join(jsPruned, "node_modules")]); // prettier-ignore
    expect(jsDigest(jsPruned)).toBe(digest);
    const count = (d: string, re: RegExp) => execFileSync("find", [d, "-type", "f"], { encoding: "utf8" }).split("\n").filter((f) => re.test(f)).length; // prettier-ignore
    const modules = (d: string) => join(d, "node_modules");
    expect(count(modules(installed), /./)).toBeLessThan(count(modules(join(app, "package")), /./) * 0.7); // prettier-ignore
    expect(count(modules(installed), /\.(c|m)?js$|\.json$/)).toBe(count(modules(join(app, "package")), /\.(c|m)?js$|\.json$/)); // prettier-ignore
    rmSync(jsPruned, { recursive: true, force: true });
    // Every file counts: one more changes the digest.
    const extra = join(installed, "dist/cli/extra.cjs");
    writeFileSync(extra, "\n");
    expect(jsDigest(installed)).not.toBe(digest);
    rmSync(extra);
  });

  it("a warm GitLab job runs the cached package only when it is the checked tarball's: nothing unpacked, no npm run, nothing downloaded", () => {
    const ci = parse(readFileSync(join(ROOT, "examples/.gitlab-ci.yml"), "utf8"));
    const before = ci[".phctl"].before_script.join("\n");
    const sha = createHash("sha256").update(readFileSync(tarball)).digest("hex");
    // npm fails; tar and curl run, each call recorded.
    const standIn = join(dir, "stand-in");
    mkdirSync(standIn, { recursive: true });
    const log = join(dir, "calls.log");
    const real = (cmd: string) => execFileSync("bash", ["-c", `command -v ${cmd}`], { encoding: "utf8" }).trim(); // prettier-ignore
    writeFileSync(join(standIn, "npm"), `#!/usr/bin/env bash\necho "npm $*" >>${JSON.stringify(log)}\nexit 7\n`); // prettier-ignore
    for (const cmd of ["tar", "curl"])
      writeFileSync(join(standIn, cmd), `#!/usr/bin/env bash\necho "${cmd} $*" >>${JSON.stringify(log)}\nexec ${real(cmd)} "$@"\n`); // prettier-ignore
    for (const cmd of ["npm", "tar", "curl"]) chmodSync(join(standIn, cmd), 0o755);
    // What a cold job leaves and GitLab caches (phctl-install-$PHCTL_SHA256): the tarball and the installed package.
    const pristine = join(dir, "cache");
    mkdirSync(pristine);
    cpSync(tarball, join(pristine, "phctl.tgz"));
    cpSync(prunedPackage(), join(pristine, "package"), { recursive: true, verbatimSymlinks: true }); // prettier-ignore
    const project = join(dir, "project");
    const install = join(project, ".phctl-install");
    /** A job with the cache restored (hard links: a change unlinks the file first), `change` made to it. */
    const job = (change: (cached: string) => void = () => {}) => {
      rmSync(project, { recursive: true, force: true });
      mkdirSync(project);
      execFileSync("cp", ["-al", pristine, install]);
      change(install);
      writeFileSync(log, "");
      const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", before], {
        cwd: project,
        encoding: "utf8",
        env: { PATH: `${standIn}:${process.env.PATH}`, HOME: process.env.HOME!, CI_PROJECT_DIR: project, PHCTL_VERSION: pkg.version, PHCTL_TARBALL_URL: `file://${tarball}`, PHCTL_SHA256: sha }, // prettier-ignore
      });
      const calls = readFileSync(log, "utf8").split("\n").filter(Boolean);
      return { code: r.status, out: `${r.stdout}${r.stderr}`, calls };
    };
    const replace = (file: string, text: string) => {
      rmSync(file);
      writeFileSync(file, text);
    };
    const unpacked = (calls: string[]) => calls.filter((c) => /^tar -xzf /.test(c));
    const npmRuns = (calls: string[]) => calls.filter((c) => c.startsWith("npm "));

    const warm = job();
    expect(warm.code, warm.out).toBe(0);
    expect(warm.out).toContain(
      "that the tarball's INSTALLED-SHA256 says: nothing unpacked, no npm run",
    );
    expect(warm.out).toMatch(new RegExp(`^${pkg.version.replace(/\./g, "\\.")}$`, "m")); // phctl --version, the real one
    expect(unpacked(warm.calls), warm.calls.join("\n")).toEqual([]);
    expect(npmRuns(warm.calls)).toEqual([]);
    expect(warm.calls.filter((c) => c.startsWith("curl "))).toEqual([]);
    // Where GitLab saves the cache from, for the next job.
    expect(existsSync(join(install, "package/dist/cli/main.js"))).toBe(true);
    expect(existsSync(join(install, "phctl.tgz"))).toBe(true);
    expect(existsSync(join(project, ".phctl-restored"))).toBe(false);
    // The optional modules the release leaves out are never taken from the checkout.
    for (const m of ["better-sqlite3", "canvas"]) {
      mkdirSync(join(project, "node_modules", m), { recursive: true });
      writeFileSync(join(project, "node_modules", m, "index.js"), 'console.log("CHECKOUT MODULE RAN"); process.exit(3);\n'); // prettier-ignore
    }
    const serve = spawnSync(join(install, "bin/phctl"), ["serve", "--port", "0"], { cwd: project, encoding: "utf8", timeout: 30_000 }); // prettier-ignore
    expect(serve.stdout).not.toContain("CHECKOUT MODULE RAN");
    expect(serve.stderr).toBe(`phctl: cannot start the server: ${SQLITE_MISSING}\n`);
    const resolved = execFileSync(process.execPath, ["-e", 'try { require("node:module").createRequire(process.argv[1])("canvas"); } catch (e) { console.log(e.code, e.message); }', join(install, "package/dist/cli/bundle-report.cjs")], { encoding: "utf8" }); // prettier-ignore
    expect(resolved).toBe(
      "MODULE_NOT_FOUND Cannot find module canvas: not part of the phctl release\n",
    );

    // A cached package that is not the tarball's is never run: unpacked and installed afresh
    // (the stand-in npm fails the job), the changed file gone.
    const poisons: [string, (cached: string) => void][] = [
      ["a changed bundle", (c) => replace(join(c, "package/dist/cli/bundle-validate.cjs"), "process.exit(42);\n")], // prettier-ignore
      ["a file added", (c) => writeFileSync(join(c, "package/dist/cli/bundle-extra.cjs"), "process.exit(42);\n")], // prettier-ignore
      ["a changed dependency", (c) => replace(join(c, "package/node_modules/ajv/dist/ajv.js"), "process.exit(42);\n")], // prettier-ignore
      ["a changed package.json", (c) => replace(join(c, "package/package.json"), readFileSync(join(c, "package/package.json"), "utf8").replace(pkg.bin.phctl, "dist/cli/bundle-extra.cjs"))], // prettier-ignore
    ];
    for (const [what, change] of poisons) {
      const r = job(change);
      expect(r.code, what).toBe(7);
      expect(r.out, what).toContain("phctl: the cached package is not the tarball's (INSTALLED-SHA256): installed afresh"); // prettier-ignore
      expect(unpacked(r.calls), what).toHaveLength(1);
      expect(npmRuns(r.calls), what).toEqual(["npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund"]); // prettier-ignore
      expect(existsSync(join(install, "package/dist/cli/bundle-extra.cjs")), what).toBe(false);
      expect(readFileSync(join(install, "package/dist/cli/bundle-validate.cjs"), "utf8"), what).not.toContain("process.exit(42)"); // prettier-ignore
      expect(existsSync(join(project, ".phctl-restored")), what).toBe(false);
    }
    // A link the checkout holds in the package's place is not followed.
    const linked = job((c) => {
      rmSync(join(c, "package"), { recursive: true });
      symlinkSync(join(pristine, "package"), join(c, "package"));
    });
    expect(unpacked(linked.calls)).toHaveLength(1);
    expect(npmRuns(linked.calls)).toHaveLength(1);
    expect(existsSync(join(pristine, "package/dist/cli/main.js"))).toBe(true);
    // A cached tarball that is not the checked one is downloaded again; the package then checks out.
    const other = job((c) => replace(join(c, "phctl.tgz"), "not the tarball\n"));
    expect(other.code, other.out).toBe(0);
    expect(other.calls.filter((c) => c.startsWith("curl "))).toHaveLength(1);
    expect(unpacked(other.calls)).toEqual([]);
    expect(npmRuns(other.calls)).toEqual([]);
    rmSync(project, { recursive: true, force: true });
  }, 120_000);

  it("runs: validate, plan, apply, drift, report and serve against a scratch server; without its database, serve says in one line how to get it", async () => {
    const bin = join(prunedPackage(), pkg.bin.phctl); // as the GitLab job runs it
    const validate = await run(bin, ["validate", join(ROOT, "examples")], {
      cwd: app,
      env: { ...process.env, NODE_DEBUG: "phctl" },
    });
    expect(validate.stdout).toBe("0 errors, 0 warnings in 13 files\n");
    // The installed package's code cache fits its bundle.
    expect(validate.stderr).toMatch(/bundle-validate\.cjs: code cache used$/m);
    const env = Object.fromEntries(Object.entries(npmEnv).filter(([k]) => !k.startsWith("PHCTL_"))); // prettier-ignore
    const config = join(dir, "config");
    copyExamples(config);

    // The packed serve, its database (better-sqlite3, optional) found through NODE_PATH.
    const server = spawn(process.execPath, [bin, "serve", "--port", "0", "--token", "pack-secret:system-admin:acme"], { cwd: app, env: { ...env, NODE_PATH: join(ROOT, "node_modules") }, stdio: ["ignore", "pipe", "pipe"] }); // prettier-ignore
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        server.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) resolve(m[1]);
        });
        let err = "";
        server.stderr.on("data", (d: Buffer) => (err += d.toString()));
        server.on("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
      });
      const cli = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { cwd: app, env: { ...env, PHCTL_API_URL: url, PHCTL_TOKEN: "pack-secret" }, encoding: "utf8", timeout: 60_000 }); // prettier-ignore
      const plan = cli("plan", config, "--detailed-exitcode");
      expect(plan.status, plan.stderr).toBe(2);
      expect(plan.stdout).toMatch(/^Plan: \d+ to create, 0 to update, 0 to delete/m);
      const apply = cli("apply", config, "--auto-approve");
      expect(apply.status, apply.stderr).toBe(0);
      expect(apply.stdout).toMatch(/^Apply complete: \d+ done, 0 failed/m);
      const drift = cli("drift", config);
      expect(drift.status, `${drift.stdout}${drift.stderr}`).toBe(0);
      const report = cli("report", "access", config, "--format", "json", "--out", join(dir, "access.json")); // prettier-ignore
      expect(report.status, report.stderr).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, "access.json"), "utf8"))).toBeTypeOf("object");
    } finally {
      server.kill("SIGTERM");
    }

    const serve = spawnSync(bin, ["serve", "--port", "0"], { cwd: app, encoding: "utf8", timeout: 30_000 }); // prettier-ignore
    expect(serve.status).toBe(1);
    expect(serve.stdout).toBe("");
    expect(serve.stderr).toBe(`phctl: cannot start the server: ${SQLITE_MISSING}\n`);
    // A command on the embedded server (no API URL) says the same, as a user error.
    const embedded = spawnSync(bin, ["plan", config], { cwd: app, env, encoding: "utf8", timeout: 30_000 }); // prettier-ignore
    expect(embedded.status).toBe(1);
    expect(embedded.stderr).toBe(`phctl: ${SQLITE_MISSING}\n`);
    expect(SQLITE_MISSING).toContain(`npm install better-sqlite3@${semverMajor(pkg.optionalDependencies["better-sqlite3"])} `); // prettier-ignore
  }, 120_000);
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
