/**
 * What binds a saved plan to the manifests it was made from: `plan --out` records the
 * config root (absolute, within its git checkout, and from the plan file) and a sha256 of
 * every file it read; `apply plan.json` finds that root again (plan-locate.ts), reloads it
 * and refuses unless the same files hold the same bytes. A hash of the entries themselves
 * catches a plan edited by hand.
 *
 * Pure functions and small synchronous file reads: no network, no printing.
 */
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { PlanManifests } from "../engine/plan.js";
import { userError } from "../errors.js";
import { checkoutTop, hashFile } from "./plan-locate.js";

// The schema lives with the Plan it is part of (engine never imports from cli); it is
// re-exported, with the search for the manifests, so that callers need one import.
export { PlanManifests };
export { locateManifests, pathsForApply, type Located, type LocatedHow } from "./plan-locate.js";

/** `rel` as stored in a plan: '/'-separated whatever the platform, '.' for "the same". */
export const portable = (rel: string): string => rel.split(sep).join("/") || ".";

/** Is `p` `dir` or inside it (lexically: no link is resolved)? */
function inside(dir: string, p: string): boolean {
  const r = relative(dir, p);
  return r === "" || (r !== ".." && !r.startsWith(`..${sep}`) && !isAbsolute(r));
}

const isDir = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;

/**
 * The config root of a set of paths (absolute): the directory of the phctl.yaml in use;
 * else the one directory given; else the nearest directory holding every path given (a
 * file stands for its directory).
 */
export function configRoot(paths: readonly string[], cwd: string, config?: string): string {
  if (config !== undefined) return dirname(resolve(cwd, config));
  const abs = (paths.length > 0 ? paths : ["."]).map((p) => resolve(cwd, p));
  const dirs = abs.map((p) => (isDir(p) ? p : dirname(p)));
  let root = dirs[0] ?? resolve(cwd);
  for (const d of dirs.slice(1)) while (!inside(root, d)) root = dirname(root);
  return root;
}

/**
 * The identity of the manifests a plan is made from (or is about to be applied with):
 * `files` are those the loader read, `config` the phctl.yaml in use (both absolute or
 * relative to `cwd`), `planFile` the `--out` file. Reads and hashes every file; one that
 * cannot be read (it went away since the loader read it) is a user error.
 */
export function describeManifests(o: {
  paths: readonly string[];
  cwd: string;
  files: readonly string[];
  config?: string;
  planFile?: string;
}): PlanManifests {
  const root = configRoot(o.paths, o.cwd, o.config);
  const rel = (p: string) => portable(relative(root, resolve(o.cwd, p)));
  const read = [...o.files, ...(o.config !== undefined ? [o.config] : [])];
  const hashes = new Map<string, string>();
  for (const f of read) {
    const hash = hashFile(resolve(o.cwd, f));
    if (hash === undefined)
      throw userError(
        "READ_FAILED",
        `${f}: loaded a moment ago, but cannot be read again to hash it`,
      );
    hashes.set(rel(f), hash);
  }
  const top = checkoutTop(root);
  const planDir = o.planFile !== undefined ? dirname(resolve(o.cwd, o.planFile)) : undefined;
  // Another drive (Windows) has no relative path: the other candidates must do.
  const fromPlan = planDir !== undefined ? relative(planDir, root) : undefined;
  return {
    root,
    ...(top !== undefined ? { checkoutPath: portable(relative(top, root)) } : {}),
    ...(fromPlan !== undefined && !isAbsolute(fromPlan) ? { planPath: portable(fromPlan) } : {}),
    paths: (o.paths.length > 0 ? o.paths : ["."]).map(rel),
    // Sorted keys: the same manifests give the same bytes in every plan file.
    files: Object.fromEntries([...hashes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}

/**
 * sha256 (hex) of the entries as canonical JSON: object keys sorted at every depth, and
 * otherwise JSON's own rules (undefined properties dropped, -0 as 0), so the digest of a
 * plan is the digest of the same plan written to a file and read back, re-indented or
 * with its keys reordered — and any change to what an entry says changes it.
 */
export function entriesDigest(entries: readonly unknown[]): string {
  const json = JSON.stringify(entries, (_key, value: unknown) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? // fromEntries, not assignment: a "__proto__" key stays a key.
        Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, (value as Record<string, unknown>)[k]]),
        )
      : value,
  );
  return createHash("sha256").update(json).digest("hex");
}

/** How two sets of manifests differ, by path relative to their roots (each list sorted). */
export interface ManifestDifference {
  changed: string[];
  added: string[];
  removed: string[];
}

/**
 * The files of `now` that are not those of `saved`. The roots may differ (the same
 * repository checked out elsewhere): files are compared by path under their root.
 */
export function compareManifests(saved: PlanManifests, now: PlanManifests): ManifestDifference {
  const was = Object.entries(saved.files);
  const is = Object.entries(now.files);
  const sorted = (xs: string[]) => xs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    changed: sorted(
      is.filter(([f, h]) => f in saved.files && saved.files[f] !== h).map(([f]) => f),
    ),
    added: sorted(is.filter(([f]) => !(f in saved.files)).map(([f]) => f)),
    removed: sorted(was.filter(([f]) => !(f in now.files)).map(([f]) => f)),
  };
}

/**
 * One line for people: the first `max` differing files, grouped by how they differ, and
 * how many more — e.g. `changed projects/tfa.yaml; added users/new.yaml; 2 more`.
 */
export function describeDifference(diff: ManifestDifference, max = 5): string {
  const all = [
    ...diff.changed.map((f) => ["changed", f] as const),
    ...diff.added.map((f) => ["added", f] as const),
    ...diff.removed.map((f) => ["removed", f] as const),
  ];
  if (all.length === 0) return "no file differs";
  const groups = new Map<string, string[]>();
  for (const [how, f] of all.slice(0, Math.max(1, max)))
    groups.set(how, [...(groups.get(how) ?? []), f]);
  const parts = [...groups].map(([how, files]) => `${how} ${files.join(", ")}`);
  const more = all.length - Math.max(1, max);
  return [...parts, ...(more > 0 ? [`${more} more`] : [])].join("; ");
}
