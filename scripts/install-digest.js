/**
 * The SHA-256 of an installed node_modules (scripts/pack.js writes it to the release's
 * `node_modules.sha256`), so that CI can trust a node_modules it restored from a cache without
 * running npm: the action (action.yml) computes the same digest and compares it with the file
 * of the commit it is pinned to, with a shell function `tree_sha256` (find, `LC_ALL=C sort
 * -z`, `xargs -0r sha256sum`, then sha256sum of that listing); the GitLab job's function
 * (examples/.gitlab-ci.yml) is the same with the left-out files below (test/ci/pack.test.ts
 * checks all three agree).
 *
 * The release's `INSTALLED-SHA256` is the same digest of its whole package directory as a job
 * runs it (the tarball's files and that node_modules, pruned: `pruneModules`): the GitLab job keeps that directory in
 * its cache and, on a warm job, runs it only when its digest is the one the checked tarball
 * holds (no unpacking, no npm).
 *
 * It is the SHA-256 of `sha256sum`'s listing of every file, its paths `./…` sorted bytewise.
 * Left out: npm's own bookkeeping (`./.package-lock.json`, `./node_modules/.package-lock.json`),
 * the `.bin` links npm makes (phctl runs none) and `./INSTALLED-SHA256` (it cannot hold its own
 * digest); a link is followed, as sha256sum does.
 * A package replaced by a link to another directory drops its files from the listing, so it
 * changes the digest too. Two `npm ci --omit=dev --omit=optional --ignore-scripts` of one
 * npm-shrinkwrap.json give the same digest: npm writes each package's files as its tarball,
 * checked by the shrinkwrap's integrity, holds them.
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

const sha256 = (data) => createHash("sha256").update(data).digest("hex");

/** The release file holding the digest of the installed package directory. */
export const INSTALLED_FILE = "INSTALLED-SHA256";
const LEFT_OUT = new Set(["./.package-lock.json", "./node_modules/.package-lock.json", `./${INSTALLED_FILE}`]); // prettier-ignore

/**
 * Files of an installed node_modules that Node 20 never runs (TypeScript declarations and
 * sources, source maps, markdown): the GitLab job deletes them after `npm ci`, with the shell
 * function `prune_modules` (the same names, case-sensitive, regular files only), so that its
 * cache holds about half the files; INSTALLED-SHA256 is the digest of the pruned directory.
 */
export const PRUNED = /\.(ts|mts|cts|map|md)$/;

/** Deletes the files PRUNED names under `dir`, as the GitLab job's `prune_modules` does. */
export function pruneModules(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) pruneModules(path);
    else if (e.isFile() && PRUNED.test(e.name)) rmSync(path);
  }
}

/** The digest of the tree under `dir` (a node_modules, or a package directory), as the shell function computes it. */
export function treeSha256(dir) {
  const paths = [];
  const walk = (abs, rel) => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const path = `${rel}/${e.name}`;
      if (/[\\\n]/.test(e.name)) throw new Error(`${path}: sha256sum would escape this name`);
      if (e.isDirectory()) walk(join(abs, e.name), path);
      else if (!path.includes("/.bin/") && !LEFT_OUT.has(path)) paths.push(path);
    }
  };
  walk(dir, ".");
  paths.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return sha256(paths.map((p) => `${sha256(readFileSync(join(dir, p)))}  ${p}\n`).join(""));
}
