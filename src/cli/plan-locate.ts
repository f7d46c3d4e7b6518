/**
 * Where the manifests of a saved plan are now, when `apply` is given only the plan file.
 * The apply job is often another CI job in a fresh workspace: the recorded absolute root
 * may be gone, or — worse — hold other content than the same commit checked out here. So
 * several places are tried, and the one holding exactly the recorded files wins.
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { PlanManifests } from "../engine/plan.js";

/** `dir/rel` for a stored ('/'-separated) relative path. */
export const under = (dir: string, rel: string): string => resolve(dir, ...rel.split("/"));

/**
 * The top of the git checkout holding `start`: the nearest directory with a `.git`
 * directory, or a `.git` file (worktrees and submodules); undefined outside one.
 */
export function checkoutTop(start: string): string | undefined {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const git = statSync(join(dir, ".git"), { throwIfNoEntry: false });
    if (git?.isDirectory() || git?.isFile()) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** sha256 (hex) of a file's bytes; undefined when it cannot be read. */
export function hashFile(file: string): string | undefined {
  try {
    return createHash("sha256").update(readFileSync(file)).digest("hex");
  } catch {
    return undefined;
  }
}

/** The paths `phctl plan` was given, resolved under `root` (absolute: ready for the loader). */
export function pathsForApply(m: PlanManifests, root: string): string[] {
  return m.paths.map((p) => under(root, p));
}

/** Which recorded place the manifests were found in (for the note apply shows). */
export type LocatedHow = "recorded path" | "checkout" | "beside the plan file";

/**
 * The manifests found (`exact`: every recorded file has its recorded content; otherwise
 * they all exist and the caller reports what differs), or not; `tried` lists every
 * directory looked in, in order, for the message either way.
 */
export type Located =
  | { root: string; paths: string[]; how: LocatedHow; exact: boolean; tried: string[] }
  | { root: undefined; tried: string[] };

/** What a candidate root holds of the recorded manifests. */
function examine(m: PlanManifests, root: string): "same" | "differs" | "missing" {
  if (statSync(root, { throwIfNoEntry: false })?.isDirectory() !== true) return "missing";
  // The loader refuses a path that does not exist: such a root cannot be applied from.
  const exists = (p: string) => statSync(under(root, p), { throwIfNoEntry: false }) !== undefined;
  if (!m.paths.every(exists) || !Object.keys(m.files).every(exists)) return "missing";
  const same = Object.entries(m.files).every(([f, hash]) => hashFile(under(root, f)) === hash);
  return same ? "same" : "differs";
}

/**
 * Find the manifests of a saved plan. Candidates, in order: (a) the recorded absolute
 * root; (b) the recorded path within its checkout, under the top of the git checkout
 * holding `cwd` (the same commit checked out elsewhere); (c) the recorded path from the
 * plan file, from where the plan file is now; (d) the plan file's directory. The first
 * holding every recorded file with its recorded content wins — so a stale copy at the old
 * absolute path loses to a matching checkout — else the first holding every recorded file
 * (the caller then refuses, naming what differs), else none.
 */
export function locateManifests(m: PlanManifests, o: { planFile: string; cwd: string }): Located {
  const planDir = dirname(resolve(o.cwd, o.planFile));
  const top = m.checkoutPath !== undefined ? checkoutTop(o.cwd) : undefined;
  const candidates: { root: string; how: LocatedHow }[] = [
    { root: resolve(m.root), how: "recorded path" },
    ...(top !== undefined && m.checkoutPath !== undefined
      ? [{ root: under(top, m.checkoutPath), how: "checkout" as const }]
      : []),
    ...(m.planPath !== undefined
      ? [{ root: under(planDir, m.planPath), how: "beside the plan file" as const }]
      : []),
    { root: planDir, how: "beside the plan file" },
  ];
  const tried: string[] = [];
  let fallback: { root: string; how: LocatedHow } | undefined;
  for (const c of candidates) {
    if (tried.includes(c.root)) continue;
    tried.push(c.root);
    const found = examine(m, c.root);
    if (found === "same")
      return { root: c.root, paths: pathsForApply(m, c.root), how: c.how, exact: true, tried };
    if (found === "differs") fallback ??= c;
  }
  if (fallback === undefined) return { root: undefined, tried };
  const { root, how } = fallback;
  return { root, paths: pathsForApply(m, root), how, exact: false, tried };
}
