/**
 * The npm package, the fast part: what `npm pack` ships (the CLI, the schemas; no sources,
 * tests, source maps or dev tools), that it is publishable, and that installing the tarball in
 * an empty directory on this Node prints no engine warning and gives a working bin. The install
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

  it("ships the CLI and the schemas, and no sources, tests, source maps or dev tools", () => {
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
      ]),
    );
    const stray = files.filter(
      (f) => !/^(dist|schemas)\//.test(f) && !["package.json", "README.md", "LICENSE"].includes(f),
    );
    expect(stray).toEqual([]);
    expect(files.filter((f) => f.endsWith(".map") || f.endsWith(".ts"))).toEqual([]);
    expect(files).not.toContain("dist/gen-main.js");
    // Each bundle with its V8 code cache (src/cli/bundle-load.ts).
    const bundles = files.filter((f) => /^dist\/cli\/bundle-[a-z-]+\.cjs$/.test(f));
    expect(bundles.length).toBeGreaterThan(10);
    for (const b of bundles) expect(files).toContain(`${b}.v8cache`);
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
    expect(validate.stdout).toBe("0 errors, 0 warnings in 8 files\n");
    // The installed package's code cache fits its bundle.
    expect(validate.stderr).toMatch(/bundle-validate\.cjs: code cache used$/m);
  }, 60_000);
});
