/**
 * The SHA-256 of an installed node_modules (scripts/pack.js writes it to the release's
 * `node_modules.sha256`), so that CI can trust a node_modules it restored from a cache without
 * running npm: the action (action.yml) and the GitLab job (examples/.gitlab-ci.yml) compute
 * the same digest and compare it with the file of the release they pinned (the action's
 * commit, the tarball checked against PHCTL_SHA256), with a shell function `tree_sha256`
 * written the same way in both (find, `LC_ALL=C sort -z`, `xargs -0r
 * sha256sum`, then sha256sum of that listing; test/ci/pack.test.ts checks they agree).
 *
 * It is the SHA-256 of `sha256sum`'s listing of every file, its paths `./…` sorted bytewise.
 * Left out: npm's own bookkeeping (`./.package-lock.json`) and the `.bin` links npm makes
 * (phctl runs none); a link is followed, as sha256sum does.
 * A package replaced by a link to another directory drops its files from the listing, so it
 * changes the digest too. Two `npm ci --omit=dev --omit=optional --ignore-scripts` of one
 * npm-shrinkwrap.json give the same digest: npm writes each package's files as its tarball,
 * checked by the shrinkwrap's integrity, holds them.
 */
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const sha256 = (data) => createHash("sha256").update(data).digest("hex");

/** The digest of the tree under `dir` (a node_modules), as the shell function computes it. */
export function treeSha256(dir) {
  const paths = [];
  const walk = (abs, rel) => {
    for (const e of readdirSync(abs, { withFileTypes: true })) {
      const path = `${rel}/${e.name}`;
      if (/[\\\n]/.test(e.name)) throw new Error(`${path}: sha256sum would escape this name`);
      if (e.isDirectory()) walk(join(abs, e.name), path);
      else if (!path.includes("/.bin/") && path !== "./.package-lock.json") paths.push(path);
    }
  };
  walk(dir, ".");
  paths.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return sha256(paths.map((p) => `${sha256(readFileSync(join(dir, p)))}  ${p}\n`).join(""));
}
