/* global process */
/**
 * The release tarball (`npm run pack-release [-- --out DIR] [--no-build] [--commit]`): what
 * users and the GitLab template install, so it must install exactly what phctl was tested
 * with. Plain `npm pack` is refused (package.json `prepack`): it would ship the checkout's
 * `prepare` script (npm 11 warns every consumer about it) and no lockfile (npm would resolve
 * the ranges anew).
 *
 * Builds once (`npm run build`), copies what `npm pack` would ship (package.json `files`) to a
 * staging directory, and there:
 * - package.json loses `scripts` (the checkout's build and test tooling, `prepare` among them)
 *   and `devDependencies`; each dependency names the exact version of package-lock.json;
 * - npm-shrinkwrap.json is package-lock.json without the development-only packages: npm
 *   installs a package's shrinkwrap as it is, so the tarball gets exactly the lockfile's
 *   versions (better-sqlite3 stays optional: `--omit=optional` leaves it out);
 * - node_modules.sha256 is the digest (scripts/install-digest.js) of what `npm ci --omit=dev
 *   --omit=optional --ignore-scripts` installs from that shrinkwrap (installed here once, in a
 *   copy of the package, as the GitLab job does in the unpacked tarball): the action trusts a
 *   node_modules restored from its cache only when it has this digest;
 * - INSTALLED-SHA256 is the digest of that whole directory, the package's files and its
 *   node_modules less what Node never runs (scripts/install-digest.js `pruneModules`): the GitLab job runs a package directory restored from its cache only when it
 *   has this digest;
 * then packs it with no script run, checks that the tarball unpacked beside that node_modules
 * has the digest INSTALLED-SHA256 says, and prints the tarball's path and SHA-256 (which covers
 * the shrinkwrap and both digests too: the GitLab job checks it in every job).
 *
 * `--commit` (from a clean checkout) also makes the release commit the GitHub action is pinned
 * to: HEAD's tree plus `release/`, exactly the tarball's `package/`, the built dist/ in it; its
 * parent is HEAD. The action runs `release/dist/cli/main.js` and builds nothing, so the pinned
 * commit fixes every byte it runs. It prints the commit; tag it (`git tag vX.Y.Z <commit>`, a
 * plain tag: `git ls-remote` then shows the commit users pin) and push the tag. No branch moves.
 */
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"; // prettier-ignore
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { INSTALLED_FILE, pruneModules, treeSha256 } from "./install-digest.js";

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

const git = (argv, options = {}) => {
  const r = spawnSync("git", argv, { cwd: root, encoding: "utf8", ...options });
  if (r.status !== 0) {
    process.stderr.write(`phctl: git ${argv.join(" ")} failed: ${r.stderr}`);
    process.exit(1);
  }
  return r.stdout.trim();
};
const commit = args.includes("--commit");
if (commit && git(["status", "--porcelain"]) !== "") {
  process.stderr.write(
    "phctl: --commit needs a clean checkout (the release commit's parent is HEAD, and dist/ is built from the worktree): commit or remove the changes first\n",
  );
  process.exit(1);
}

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
    files: [
      ...(manifest.files ?? []),
      "npm-shrinkwrap.json",
      "node_modules.sha256",
      INSTALLED_FILE,
    ],
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

/**
 * Installs the staged package's dependencies as CI does, in a copy of the package (`dir`), and
 * writes both digests to the stage: node_modules.sha256, then INSTALLED_FILE (the copy's whole
 * tree, node_modules.sha256 included, node_modules pruned as the GitLab job prunes it).
 * Returns the latter.
 */
function writeDigests(stage, dir) {
  cpSync(stage, dir, { recursive: true });
  npm(["ci", "--omit=dev", "--omit=optional", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"], dir); // prettier-ignore
  const modules = `${treeSha256(join(dir, "node_modules"))}  node_modules\n`;
  for (const d of [stage, dir]) writeFileSync(join(d, "node_modules.sha256"), modules);
  pruneModules(join(dir, "node_modules"));
  const installed = treeSha256(dir);
  writeFileSync(join(stage, INSTALLED_FILE), `${installed}  package\n`);
  return installed;
}

/** Fails unless `tarball` unpacked, with the node_modules installed in `dir`, has the digest `want`. */
function checkInstalled(tarball, dir, want) {
  const check = mkdtempSync(join(tmpdir(), "phctl-release-check-"));
  try {
    const r = spawnSync("tar", ["-xzf", tarball, "-C", check], { stdio: "inherit" });
    if (r.status !== 0) process.exit(1);
    renameSync(join(dir, "node_modules"), join(check, "package/node_modules"));
    const got = treeSha256(join(check, "package"));
    if (got !== want) {
      process.stderr.write(`phctl: ${tarball} unpacked and installed has the digest ${got}, not its ${INSTALLED_FILE} (${want}): npm pack changed a file; the GitLab job would never use its cache\n`); // prettier-ignore
      process.exit(1);
    }
  } finally {
    rmSync(check, { recursive: true, force: true });
  }
}

/** The release commit: HEAD's tree plus `release/` holding the staged package; parent HEAD. */
function releaseCommit(stage, files, version) {
  const index = join(mkdtempSync(join(tmpdir(), "phctl-release-index-")), "index");
  const env = { ...process.env, GIT_INDEX_FILE: index };
  try {
    git(["read-tree", "HEAD"], { env });
    const blobs = git(["hash-object", "-w", "--stdin-paths"], {
      input: files.map((f) => join(stage, f)).join("\n"),
    }).split("\n");
    const entries = files.map((f, i) => {
      const mode = statSync(join(stage, f)).mode & 0o111 ? "100755" : "100644";
      return `${mode} ${blobs[i]}\trelease/${f}`;
    });
    git(["update-index", "--index-info"], { env, input: `${entries.join("\n")}\n` });
    const tree = git(["write-tree"], { env });
    const head = git(["rev-parse", "HEAD"]);
    const message = `Release v${version}: release/ is the package npm run pack-release built from ${head.slice(0, 12)}\n\nThe GitHub action runs release/dist/cli/main.js; nothing is built where it runs.\n`;
    return git(["commit-tree", tree, "-p", head], { input: message });
  } finally {
    rmSync(dirname(index), { recursive: true, force: true });
  }
}

// What `npm pack` would ship (package.json `files`), copied as it is.
const listed = JSON.parse(npm(["pack", "--dry-run", "--json", "--ignore-scripts"], root));
const stage = mkdtempSync(join(tmpdir(), "phctl-release-"));
const installDir = mkdtempSync(join(tmpdir(), "phctl-release-install-"));
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
  const installed = writeDigests(stage, installDir);
  mkdirSync(out, { recursive: true });
  const packed = JSON.parse(
    npm(["pack", "--json", "--ignore-scripts", "--pack-destination", out], stage),
  );
  const tarball = join(out, packed[0].filename);
  checkInstalled(tarball, installDir, installed);
  const sha256 = createHash("sha256").update(readFileSync(tarball)).digest("hex");
  process.stdout.write(`${tarball}\nsha256 ${sha256}\n`);
  if (commit) {
    // Exactly what the tarball holds: release/ and the tarball's package/ are the same files.
    const files = packed[0].files.map((f) => f.path).sort();
    const sha = releaseCommit(stage, files, manifest.version);
    process.stdout.write(`release commit ${sha} (tag it: git tag v${manifest.version} ${sha})\n`);
  }
} finally {
  for (const d of [stage, installDir]) rmSync(d, { recursive: true, force: true });
}
