/**
 * Safety rails checked before apply sends anything. Each returns refusals (values, with a
 * message that says what would happen and how to override deliberately); the CLI prints
 * them and stops. Pure functions of the plan, the live objects and the desired state.
 *
 * - deletes of data-bearing objects (the `prune` kinds) only with `--allow-delete`, never
 *   under `phctl/protect`;
 * - the mass-removal guard: no more than `maxRemovals` of the live access entries, team
 *   memberships or repositories of one project or team (one removal is always allowed,
 *   unless maxRemovals is 0), nor the same entry removed from more than `maxRemovals` of the
 *   objects a Defaults layer selects (src/engine/removals.ts), unless `--allow-mass-removal`;
 * - the admin floor (admin-floor.ts): a project is never left without an active admin, nor
 *   a declared git group without an active maintainer (users or organization teams);
 * - a saved plan whose objects changed since it was made is stale (`staleObjects`).
 */
import { kinds as allKinds } from "../kinds/index.js";
import type { LiveObject, ResourceKind } from "../kinds/kind.js";
import type { DesiredState } from "../manifest/types.js";
import type { LayerImpact, Plan, PlanEntry } from "./plan.js";
import { fingerprint } from "./planner.js";
import { adminFloor } from "./admin-floor.js";
import { list, massRemovalRails } from "./removals.js";

export { adminFloor } from "./admin-floor.js";
export { allowedRemovals, massRemovals } from "./removals.js";

export type Rail = "delete" | "protect" | "mass-removal" | "admin-floor";

export interface Refusal {
  rail: Rail;
  message: string;
}

export interface RailOptions {
  allowDelete: boolean;
  allowMassRemoval: boolean;
  /** Deliberately leave projects without an admin or git groups without a maintainer. */
  allowNoAdmin?: boolean;
  /** Fraction (0.25 = 25 %). */
  maxRemovals: number;
  /** The Defaults a reviewed pull request's plan edits (its `layers`): they name removals. */
  editedLayers?: readonly LayerImpact[];
  kinds?: readonly ResourceKind[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Every rail; an empty array means the plan may be applied. */
export function checkRails(
  entries: readonly PlanEntry[],
  live: ReadonlyMap<string, LiveObject>,
  state: DesiredState,
  o: RailOptions,
): Refusal[] {
  return [
    ...deleteRails(entries, state, o),
    ...(o.allowMassRemoval
      ? []
      : massRemovalRails(entries, live, state.layers, o.maxRemovals, o.editedLayers)),
    ...(o.allowNoAdmin ? [] : adminFloor(entries, live, state)),
  ];
}

function deleteRails(
  entries: readonly PlanEntry[],
  state: DesiredState,
  o: RailOptions,
): Refusal[] {
  const kinds = o.kinds ?? allKinds;
  const pruned = entries.filter(
    (e) =>
      e.action === "delete" && kinds.find((k) => k.kind === e.kind)?.ownership.mode === "prune",
  );
  if (pruned.length === 0) return [];
  const protectedKeys = kinds.flatMap((k) =>
    k.desired(state).flatMap((d) => (d.protect ? [d.key] : [])),
  );
  const guarded = pruned.filter((e) =>
    protectedKeys.some((p) => e.key === p || e.key.startsWith(`${p}/`)),
  );
  const out: Refusal[] = [];
  if (guarded.length > 0)
    out.push({
      rail: "protect",
      message: `refusing to delete ${plural(guarded.length, "object")} under phctl/protect: ${list(guarded.map((e) => e.key))} (remove the annotation first if they must go)`,
    });
  if (!o.allowDelete)
    out.push({
      rail: "delete",
      message: `the plan deletes ${plural(pruned.length, "data-bearing object")}: ${list(pruned.map((e) => e.key))}; pass --allow-delete to delete ${pruned.length === 1 ? "it" : "them"}, or leave ${pruned.length === 1 ? "it" : "them"} out with --target`,
    });
  return out;
}

/** A saved plan's object that changed since the plan was made, and how. */
export interface StaleObject {
  key: string;
  /** `field: before → now` lines, or what happened to the object. */
  changes: string[];
}

const show = (v: unknown) => JSON.stringify(v ?? null);

/**
 * Objects of a saved plan whose live state moved since it was made: a fingerprint that no
 * longer matches, an object that vanished, or one that a create would now collide with.
 * `fresh` is the plan of the same keys now (it tells the current values of fields the saved
 * plan did not show: those were as declared then).
 */
export function staleObjects(
  saved: Plan,
  live: ReadonlyMap<string, LiveObject>,
  fresh: Plan,
): StaleObject[] {
  const out: StaleObject[] = [];
  const seen = new Set<string>();
  for (const e of saved.entries) {
    if (seen.has(e.key)) continue;
    const l = live.get(e.key);
    const planned = saved.fingerprints[e.key];
    if (e.action === "create" && planned === undefined) {
      if (l) {
        seen.add(e.key);
        out.push({ key: e.key, changes: ["created since the plan was made"] });
      }
      continue;
    }
    if (planned === undefined) continue;
    if (!l) {
      seen.add(e.key);
      out.push({ key: e.key, changes: ["deleted since the plan was made"] });
      continue;
    }
    if (fingerprint(l) === planned) continue;
    seen.add(e.key);
    const changes: string[] = [];
    const shown = new Set<string>();
    for (const [field, before] of Object.entries(e.before ?? {})) {
      shown.add(field);
      const now = l.fields[field];
      if (show(now) !== show(before)) changes.push(`${field}: ${show(before)} → ${show(now)}`);
    }
    for (const f of fresh.entries.filter((x) => x.key === e.key))
      for (const c of f.changes)
        if (!shown.has(c.field)) {
          shown.add(c.field);
          changes.push(`${c.field}: ${show(c.after)} → ${show(c.before)}`);
        }
    out.push({
      key: e.key,
      changes: changes.length > 0 ? changes : ["changed since the plan was made"],
    });
  }
  return out;
}
