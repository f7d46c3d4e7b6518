/**
 * The npm package, the fast part: what `npm pack` ships (the CLI, the schemas, the documents;
 * no sources, tests, source maps or dev tools), that it is publishable, that packing builds
 * once, and that installing the tarball in an empty directory on this Node prints no engine
 * warning and gives a working bin. The install
 * skips install scripts (better-sqlite3 would compile for minutes): `npm run pack-check` does
 * the full install and runs the embedded server (scripts/pack-check.sh).
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

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
    expect(pkg.bin).toEqual({ phctl: "dist/cli/main.js" });
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

  it("builds once when packed, and once when installed from a checkout (npm ci)", () => {
    // npm runs each lifecycle script through --script-shell: this one records the command it
    // is given and runs only the nested `npm run …` parts, so the real lifecycle order of
    // `npm pack` is followed without building (or cleaning dist/) for real.
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
    const builds = (args: string[]) => {
      writeFileSync(log, "");
      execFileSync("npm", [...args, "--script-shell", shell], {
        cwd: ROOT,
        env: npmEnv,
        stdio: ["ignore", "ignore", "pipe"],
      });
      const lines = readFileSync(log, "utf8").split("\n");
      return lines.filter((l) => l === pkg.scripts.build).length;
    };
    expect(builds(["pack", "--dry-run", "--json"])).toBe(1);
    // `npm ci` (and `npm install` in a checkout) run `prepare`: npx phctl works after a clone.
    expect(builds(["run", "prepare"])).toBe(1);
  });

  it("installs from its tarball in an empty directory with no engine warning; the bin runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "phctl-pack-"));
    await run("npm", ["pack", "--pack-destination", dir, "--ignore-scripts", "--silent"], {
      cwd: ROOT,
      env: npmEnv,
    });
    const app = join(dir, "app");
    execFileSync("mkdir", [app]);
    writeFileSync(join(app, "package.json"), '{ "name": "app", "private": true }\n');
    const tarball = join(dir, `phctl-${pkg.version}.tgz`);
    const install = await run(
      "npm",
      ["install", "--ignore-scripts", "--prefer-offline", "--no-audit", tarball],
      { cwd: app, env: npmEnv, timeout: 60_000 },
    );
    expect(install.stderr).not.toContain("EBADENGINE");
    expect(install.stdout + install.stderr).toMatch(/added \d+ packages/);
    const bin = join(app, "node_modules/.bin/phctl");
    const version = await run(bin, ["--version"], { cwd: app });
    expect(version.stdout.trim()).toBe(pkg.version);
    const validate = await run(bin, ["validate", join(ROOT, "examples")], {
      cwd: app,
      env: { ...process.env, NODE_DEBUG: "phctl" },
    });
    expect(validate.stdout).toBe("0 errors, 0 warnings in 12 files\n");
    // The installed package's code cache fits its bundle.
    expect(validate.stderr).toMatch(/bundle-validate\.cjs: code cache used$/m);
  }, 60_000);
});
