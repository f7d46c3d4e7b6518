/* global process */
/**
 * The release tarball (`npm run pack-release [-- --out DIR] [--no-build]`): what users and the
 * GitLab template install, so it must install exactly what phctl was tested with. Plain `npm
 * pack` is refused (package.json `prepack`): it would ship the checkout's `prepare` script
 * (npm 11 warns every consumer about it) and no lockfile (npm would resolve the ranges anew).
 *
 * Builds once (`npm run build`), copies what `npm pack` would ship (package.json `files`) to a
 * staging directory, and there:
 * - package.json loses `scripts` (the checkout's build and test tooling, `prepare` among them)
 *   and `devDependencies`; each dependency names the exact version of package-lock.json;
 * - npm-shrinkwrap.json is package-lock.json without the development-only packages: npm
 *   installs a package's shrinkwrap as it is, so the tarball gets exactly the lockfile's
 *   versions (better-sqlite3 stays optional: `--omit=optional` leaves it out);
 * then packs it with no script run and prints the tarball's path and SHA-256 (which covers the
 * shrinkwrap too: the GitLab job checks it before installing).
 */
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);

if (args.includes("--refuse")) {
  process.stderr.write(
    "phctl: make the release tarball with `npm run pack-release` (scripts/pack.js), not `npm pack`: it ships npm-shrinkwrap.json and no prepare script\n",
  );
  process.exit(1);
}

const outIndex = args.indexOf("--out");
const out = resolve(outIndex >= 0 ? args[outIndex + 1] : root);
const npm = (argv, cwd) => {
  const r = spawnSync("npm", argv, { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
  if (r.status !== 0) {
    process.stderr.write(`phctl: npm ${argv.join(" ")} failed (exit ${r.status})\n`);
    process.exit(1);
  }
  return r.stdout;
};

if (!args.includes("--no-build")) {
  const r = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const read = (f) => JSON.parse(readFileSync(join(root, f), "utf8"));
const pkg = read("package.json");
const lock = read("package-lock.json");

/** The release's package.json: exact versions, no scripts, no development dependencies. */
function releaseManifest(manifest, lockfile) {
  const exact = (deps) =>
    deps &&
    Object.fromEntries(
      Object.keys(deps).map((name) => {
        const locked = lockfile.packages[`node_modules/${name}`];
        if (!locked) throw new Error(`${name} is not in package-lock.json: run npm install`);
        return [name, locked.version];
      }),
    );
  const rest = { ...manifest };
  delete rest.scripts;
  delete rest.devDependencies;
  return {
    ...rest,
    // npm 11 packs a shrinkwrap only when `files` names it.
    files: [...(manifest.files ?? []), "npm-shrinkwrap.json"],
    dependencies: exact(manifest.dependencies),
    ...(manifest.optionalDependencies
      ? { optionalDependencies: exact(manifest.optionalDependencies) }
      : {}),
  };
}

/** package-lock.json without development-only packages, its root the release's manifest. */
function shrinkwrap(manifest, lockfile) {
  const packages = {};
  for (const [path, entry] of Object.entries(lockfile.packages)) {
    if (path === "") {
      const rootEntry = { ...entry };
      delete rootEntry.devDependencies;
      packages[""] = {
        ...rootEntry,
        dependencies: manifest.dependencies,
        ...(manifest.optionalDependencies
          ? { optionalDependencies: manifest.optionalDependencies }
          : {}),
      };
      continue;
    }
    if (entry.dev) continue;
    // Needed by an optional dependency and by a development one: here, optional only.
    if (entry.devOptional) {
      const kept = { ...entry, optional: true };
      delete kept.devOptional;
      packages[path] = kept;
      continue;
    }
    packages[path] = entry;
  }
  return { ...lockfile, packages };
}

// What `npm pack` would ship (package.json `files`), copied as it is.
const listed = JSON.parse(npm(["pack", "--dry-run", "--json", "--ignore-scripts"], root));
const stage = mkdtempSync(join(tmpdir(), "phctl-release-"));
try {
  for (const { path } of listed[0].files) {
    mkdirSync(dirname(join(stage, path)), { recursive: true });
    cpSync(join(root, path), join(stage, path));
  }
  const manifest = releaseManifest(pkg, lock);
  writeFileSync(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(stage, "npm-shrinkwrap.json"),
    `${JSON.stringify(shrinkwrap(manifest, lock), null, 2)}\n`,
  );
  mkdirSync(out, { recursive: true });
  const packed = JSON.parse(
    npm(["pack", "--json", "--ignore-scripts", "--pack-destination", out], stage),
  );
  const tarball = join(out, packed[0].filename);
  const sha256 = createHash("sha256").update(readFileSync(tarball)).digest("hex");
  process.stdout.write(`${tarball}\nsha256 ${sha256}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
