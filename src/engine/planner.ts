/**
 * Build a plan from desired and live objects of every kind: pure, no I/O. Handles
 * ownership (authoritative lists, pruning, unmanaged objects), `phctl/protect`, `ignore`
 * globs, scopes (src/engine/scope.ts: only the top-level objects in scope are diffed, and
 * nothing outside it is listed or deleted), `--target` selection and the per-object
 * fingerprints a saved plan carries.
 */
import { createHash } from "node:crypto";
import type { DesiredState, GrantExpiry } from "../manifest/types.js";
import type { DiffContext, LiveObject, ResourceKind } from "../kinds/kind.js";
import { layerHolding } from "./change-sources.js";
import { deleteEntry, diffObject } from "./diff.js";
import { desiredOf, topKeyOf, type DesiredByKind } from "./scope.js";
import {
  PLAN_FORMAT_VERSION,
  summarize,
  type Plan,
  type PlanEntry,
  type PlanWarning,
  type UnmanagedEntry,
} from "./plan.js";

export interface PlanInput {
  state: DesiredState;
  kinds: readonly ResourceKind[];
  /** Live objects by kind name. */
  live: ReadonlyMap<string, readonly LiveObject[]>;
  ctx: DiffContext;
  apiUrl: string;
  organization: string;
  stats: Plan["stats"];
  warnings?: PlanWarning[];
  targets?: readonly string[];
  /**
   * A scoped plan: the top-level keys (`project/<slug>`, `user/<name>`, …) diffed. Objects
   * outside it — declared or live — are neither planned nor listed as unmanaged.
   */
  scope?: ReadonlySet<string>;
  /** The state's declared objects by kind, when the caller computed them (`desiredOf`). */
  desired?: DesiredByKind;
  now?: string;
}

/** `*` matches within one key segment, `**` across segments. */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .split("**")
    .map((part) =>
      part
        .split("*")
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/]*"),
    )
    .join(".*");
  return new RegExp(`^${body}(/.*)?$`);
}

/** Hash of a live object as planned from: a stale saved plan is one whose hashes moved. */
export function fingerprint(l: LiveObject): string {
  return createHash("sha256")
    .update(JSON.stringify([l.fields, l.ids]))
    .digest("hex")
    .slice(0, 16);
}

/** Why an expired grant is removed: its date, and whose `expires` it was when the user's. */
function expiredReason(g: GrantExpiry): string {
  return g.viaUser === undefined
    ? `expired on ${g.expires}`
    : `expired on ${g.expires} (the expires of ${g.viaUser})`;
}

export function buildPlan(input: PlanInput): Plan {
  const { state, kinds, ctx } = input;
  const ignore = state.config.ignore.map(globToRegExp);
  const ignored = (key: string) => ignore.some((r) => r.test(key));
  const scope = input.scope;
  const outside = (key: string) => scope !== undefined && !scope.has(topKeyOf(key));
  const desiredByKind: DesiredByKind = input.desired ?? desiredOf(state, kinds);
  const declared = new Set<string>();
  const protectedKeys = new Set<string>();
  for (const list of desiredByKind.values()) {
    for (const d of list) {
      declared.add(d.key);
      if (d.protect) protectedKeys.add(d.key);
    }
  }
  const isProtected = (key: string) =>
    [...protectedKeys].some((p) => key === p || key.startsWith(`${p}/`));

  const entries: PlanEntry[] = [];
  const unmanaged: UnmanagedEntry[] = [];
  const fingerprints: Record<string, string> = {};
  for (const kind of kinds) {
    const live = new Map((input.live.get(kind.kind) ?? []).map((l) => [l.key, l]));
    for (const d of desiredByKind.get(kind.kind) ?? []) {
      if (ignored(d.key) || outside(d.key)) continue;
      const l = live.get(d.key);
      const found = diffObject(kind, d, l, ctx, live);
      if (found.length > 0 && l) fingerprints[d.key] = fingerprint(l);
      const ended = state.expiries?.get(d.key);
      if (ended?.expired)
        for (const e of found) e.reason = `expired on ${ended.expires}: ${e.reason}`;
      entries.push(...found);
    }
    for (const l of live.values()) {
      if (declared.has(l.key) || ignored(l.key) || outside(l.key)) continue;
      const own = kind.ownership;
      switch (own.mode) {
        case "ignored":
          break;
        case "unmanaged":
          unmanaged.push({
            key: l.key,
            kind: kind.kind,
            note: "no manifest declares it; never touched",
          });
          break;
        case "authoritative": {
          const parent = own.parentKey(l.key);
          if (!declared.has(parent)) break;
          // A grant written with `expires:` whose last day has passed counts as absent.
          const ended = state.expiries?.get(l.key);
          entries.push(
            ended?.expired
              ? deleteEntry(kind, l, expiredReason(ended), ended.source)
              : deleteEntry(
                  kind,
                  l,
                  `not listed in ${parent}, whose list is authoritative`,
                  removalSourceOf(state, parent),
                ),
          );
          fingerprints[l.key] = fingerprint(l);
          break;
        }
        case "prune": {
          const parent = own.parentKey(l.key);
          if (!declared.has(parent)) break;
          if (!state.config.prune[own.setting]) {
            unmanaged.push({
              key: l.key,
              kind: kind.kind,
              note: `not declared; prune.${own.setting} is off in phctl.yaml`,
            });
          } else if (isProtected(l.key)) {
            unmanaged.push({
              key: l.key,
              kind: kind.kind,
              note: "not declared; kept: phctl/protect",
            });
          } else {
            entries.push(
              deleteEntry(
                kind,
                l,
                `not declared and prune.${own.setting} is on`,
                removalSourceOf(state, parent),
              ),
            );
            fingerprints[l.key] = fingerprint(l);
          }
          break;
        }
      }
    }
  }
  blockDependents(entries);
  const selected =
    input.targets && input.targets.length > 0 ? selectTargets(entries, input.targets) : entries;
  const keep = new Set(selected.map((e) => e.key));
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: input.now ?? new Date().toISOString(),
    apiUrl: input.apiUrl,
    organization: input.organization,
    entries: selected,
    unmanaged: unmanaged.sort((a, b) => a.key.localeCompare(b.key)),
    warnings: input.warnings ?? [],
    // The policies' verdict is added by the caller (src/engine/policy-check.ts).
    violations: [],
    summary: summarize(selected, unmanaged.length),
    stats: input.stats,
    fingerprints: Object.fromEntries(Object.entries(fingerprints).filter(([k]) => keep.has(k))),
    ...(input.targets && input.targets.length > 0 ? { targets: [...input.targets] } : {}),
    ...(scope ? { scope: [...scope].sort() } : {}),
  };
}

/**
 * A create that needs an object whose own create is blocked cannot happen either: it is
 * blocked too, naming the object it waits for — the plan never counts it as a create (a
 * user refused for a taken e-mail has no git account or project access to create).
 */
export function blockDependents(entries: PlanEntry[]): void {
  const root = new Map<string, PlanEntry>();
  for (const e of entries) if (e.action === "blocked" && e.before === null) root.set(e.key, e);
  for (let changed = root.size > 0; changed;) {
    changed = false;
    entries.forEach((e, i) => {
      if (e.action !== "create") return;
      const dep = e.dependsOn.find((d) => root.has(d));
      if (dep === undefined) return;
      const cause = root.get(dep)!;
      const reason = `needs ${cause.key}, which is blocked (its entry says why)`;
      entries[i] = { ...e, action: "blocked", blocked: { field: "dependsOn", reason }, reason };
      root.set(e.key, cause);
      changed = true;
    });
  }
}

function sourceOf(state: DesiredState, key: string): PlanEntry["source"] {
  const s = state.sources.get(key);
  return s ? { file: s.file, line: s.line, column: s.column } : null;
}

/**
 * Where a removal is: at its parent's line (`project/p1/group`) when the object's own manifest
 * writes it, else at the object's own document — a layer that gives the parent (`group:`) has
 * nothing to do with what the manifest no longer lists.
 */
function removalSourceOf(state: DesiredState, parent: string): PlanEntry["source"] {
  const at = sourceOf(state, parent);
  if (!at || !state.layers?.length) return at;
  const own = sourceOf(state, topKeyOf(parent));
  return own && layerHolding(state.layers, own, at) ? own : at;
}

/** Entries of the targets (a key or a key prefix) and, transitively, what they depend on. */
export function selectTargets(
  entries: readonly PlanEntry[],
  targets: readonly string[],
): PlanEntry[] {
  // A key matches a plain target that is the key or one of its `/` prefixes; a glob by its
  // pattern (compiled once: entries × targets regular expressions were the cost before).
  const plain = new Set(targets.filter((t) => !t.includes("*")));
  const globs = targets.filter((t) => t.includes("*")).map(globToRegExp);
  const matches = (key: string) => {
    for (let i = key.length; i > 0; i = key.lastIndexOf("/", i - 1))
      if (plain.has(key.slice(0, i))) return true;
    return globs.some((r) => r.test(key));
  };
  const wanted = new Set(entries.filter((e) => matches(e.key)).map((e) => e.key));
  const byKey = new Map<string, PlanEntry[]>();
  for (const e of entries) byKey.set(e.key, [...(byKey.get(e.key) ?? []), e]);
  const queue = [...wanted];
  while (queue.length > 0) {
    const k = queue.pop()!;
    for (const e of byKey.get(k) ?? []) {
      for (const dep of e.dependsOn) {
        if (!wanted.has(dep) && byKey.has(dep)) {
          wanted.add(dep);
          queue.push(dep);
        }
      }
    }
  }
  return entries.filter((e) => wanted.has(e.key));
}
