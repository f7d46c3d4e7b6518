/**
 * How a scoped plan (src/engine/scope.ts) reads: which top-level objects `--target` names,
 * which ones besides the scope must be read for its diff to be right, and which declared
 * objects its entries pull in. Pure.
 *
 * - A target names a key, a key prefix or a glob (as `selectTargets` matches them); it
 *   scopes the top-level objects of the declared keys it matches, or the declared
 *   top-level object it lies under (`project/p/repo/new`). A target matching neither is an
 *   error: it would plan nothing.
 * - A repository declared as a fork of a repository of another declared project is
 *   compared with its source's record: that project is read too (not planned).
 * - An entry in scope that depends on a declared object outside it (an access entry on a
 *   user that must be created first, a fork of a repository another project creates)
 *   pulls that object into the scope: it is read and planned whole. A scope is closed
 *   under these dependencies, so that applying it never waits on something it left out.
 */
import { userError } from "../errors.js";
import { didYouMean } from "../manifest/hints.js";
import type { DesiredState } from "../manifest/types.js";
import type { PlanEntry } from "./plan.js";
import { globToRegExp } from "./planner.js";
import { topKeyOf } from "./scope.js";

const GLOB = /[*]/;

/** The top-level keys `targets` scope; throws a user error for a target matching nothing. */
export function targetScope(
  declaredKeys: Iterable<string>,
  declaredTops: ReadonlySet<string>,
  targets: readonly string[],
): string[] {
  const keys = [...declaredKeys];
  // Every declared key and each of its `/`-prefixes, with the top-level keys under it: a plain
  // target is one lookup (a saved plan passes every key of the plan as a target, so a scan of
  // every key per target would be quadratic). Globs still test each key.
  const under = new Map<string, Set<string>>();
  for (const k of keys) {
    const top = topKeyOf(k);
    for (let i = k.indexOf("/"); ; i = k.indexOf("/", i + 1)) {
      const prefix = i < 0 ? k : k.slice(0, i);
      let tops = under.get(prefix);
      if (!tops) under.set(prefix, (tops = new Set()));
      tops.add(top);
      if (i < 0) break;
    }
  }
  const out = new Set<string>();
  for (const t of targets) {
    const glob = GLOB.test(t) ? globToRegExp(t) : undefined;
    let found = false;
    if (glob) {
      for (const k of keys) {
        if (k === t || glob.test(k)) {
          out.add(topKeyOf(k));
          found = true;
        }
      }
    } else {
      const tops = under.get(t);
      if (tops) {
        for (const top of tops) out.add(top);
        found = true;
      }
    }
    const top = topKeyOf(t);
    if (!glob && declaredTops.has(top)) {
      out.add(top);
      found = true;
    }
    if (!found) {
      const hint = didYouMean(top, declaredTops);
      throw userError(
        "UNKNOWN_TARGET",
        `--target ${t} matches nothing declared; declared keys look like project/<slug>, user/<name>, team/<name>, organization/<name> and keys under them (project/<slug>/repo/<name>, …)${hint ? `; ${hint}` : ""}`,
      );
    }
  }
  return [...out].sort();
}

/** The top-level keys to read for a scope: the scope, and the projects its forks come from. */
export function readKeys(state: DesiredState, scope: ReadonlySet<string>): Set<string> {
  const out = new Set(scope);
  for (const p of state.projects) {
    if (!scope.has(p.key)) continue;
    for (const r of p.git?.repositories ?? [])
      if (r.forkFromKey !== undefined) out.add(topKeyOf(r.forkFromKey));
  }
  return out;
}

/** Declared top-level objects outside the scope that entries in it depend on. */
export function pulledKeys(
  entries: readonly PlanEntry[],
  scope: ReadonlySet<string>,
  declaredTops: ReadonlySet<string>,
): string[] {
  const out = new Set<string>();
  for (const e of entries)
    for (const d of e.dependsOn) {
      const top = topKeyOf(d);
      if (!scope.has(top) && declaredTops.has(top)) out.add(top);
    }
  return [...out].sort();
}
