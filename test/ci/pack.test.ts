/**
 * The npm package, the fast part: what the release tarball ships (the CLI, the schemas, the
 * documents, npm-shrinkwrap.json; no sources, tests, source maps, dev tools or scripts), that
 * it is publishable, that packing builds once, and that installing the tarball as the CI kit
 * does (unpacked, `npm ci`, no optional part: better-sqlite3, the reference server's
 * database) installs exactly the lockfile's versions, compiles nothing, prints no engine
 * warning, and gives a working CLI whose `serve` says how to get its database.
 * `npm run pack-check` does the full install, with better-sqlite3, and runs the embedded
 * server (scripts/pack-check.sh).
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"; // prettier-ignore
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
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

  it("runs: validate works, and serve says in one line how to get its database", async () => {
    const bin = join(app, "package/dist/cli/main.js");
    const validate = await run(bin, ["validate", join(ROOT, "examples")], {
      cwd: app,
      env: { ...process.env, NODE_DEBUG: "phctl" },
    });
    expect(validate.stdout).toBe("0 errors, 0 warnings in 12 files\n");
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
