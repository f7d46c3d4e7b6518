/**
 * The mass-removal rail (src/engine/guards.ts runs it before apply sends anything):
 * - per object: no more than `maxRemovals` of the live access entries, team memberships or
 *   repositories of one project or team (one removal is always allowed, unless it is 0);
 * - per Defaults layer: the same entry (a user at an access level, a team member, a
 *   repository) removed from more than `maxRemovals` of the objects a layer selects — what
 *   dropping it from the layer's values does to every object at once, although each object
 *   loses only one entry. The refusal names the layer and its line.
 * Pure functions of the plan, the live objects and the layers.
 */
import type { LiveObject } from "../kinds/kind.js";
import type { LayerSummary } from "../layers/effective.js";
import type { PlanEntry } from "./plan.js";
import type { Refusal } from "./guards.js";

/** Keys, the first `max` of them, then how many more. */
export function list(keys: readonly string[], max = 5): string {
  const shown = keys.slice(0, max).join(", ");
  return keys.length > max ? `${shown}, … (${keys.length - max} more)` : shown;
}

const OVERRIDE =
  "pass --allow-mass-removal if that is intended, or raise maxRemovals in phctl.yaml";

/**
 * Scopes of the mass-removal guard: a key → its scope (what, of whom), or undefined. `m[1]`
 * is the top-level object's key, `m[3]` the entry within it.
 */
const SCOPES: readonly { re: RegExp; what: string; of: (m: RegExpExecArray) => string }[] = [
  {
    re: /^(project\/([^/]+))\/(access\/.+)$/,
    what: "access entries",
    of: (m) => `project ${m[2]}`,
  },
  { re: /^(team\/([^/]+))\/(member\/.+)$/, what: "team memberships", of: (m) => `team ${m[2]}` },
  { re: /^(project\/([^/]+))\/(repo\/.+)$/, what: "repositories", of: (m) => `project ${m[2]}` },
];

function scopeOf(key: string): string | undefined {
  for (const s of SCOPES) {
    const m = s.re.exec(key);
    if (m) return `${s.what} of ${s.of(m)}`;
  }
  return undefined;
}

/** How many removals of `live` objects `fraction` allows: at least one, unless it is 0. */
export function allowedRemovals(live: number, fraction: number): number {
  return fraction <= 0 ? 0 : Math.max(1, Math.floor(fraction * live + 1e-9));
}

/** A refusal and the removals it refuses. */
interface Counted {
  refusal: Refusal;
  keys: string[];
}

/** Per object: more than `fraction` of one project's or team's entries removed. */
export function massRemovals(
  entries: readonly PlanEntry[],
  live: ReadonlyMap<string, LiveObject>,
  fraction: number,
): Refusal[] {
  return objectRemovals(entries, live, fraction).map((c) => c.refusal);
}

function objectRemovals(
  entries: readonly PlanEntry[],
  live: ReadonlyMap<string, LiveObject>,
  fraction: number,
): Counted[] {
  const removed = new Map<string, string[]>();
  for (const e of entries) {
    const scope = e.action === "delete" ? scopeOf(e.key) : undefined;
    if (!scope) continue;
    const keys = removed.get(scope);
    if (keys) keys.push(e.key);
    else removed.set(scope, [e.key]);
  }
  if (removed.size === 0) return [];
  const counts = new Map<string, number>();
  for (const key of live.keys()) {
    const scope = scopeOf(key);
    if (scope) counts.set(scope, (counts.get(scope) ?? 0) + 1);
  }
  const out: Counted[] = [];
  for (const [scope, keys] of [...removed].sort(([a], [b]) => a.localeCompare(b))) {
    const total = Math.max(counts.get(scope) ?? 0, keys.length);
    if (keys.length <= allowedRemovals(total, fraction)) continue;
    const pct = Math.round((keys.length / total) * 100);
    out.push({
      refusal: {
        rail: "mass-removal",
        message: `refusing a mass removal: the plan removes ${keys.length} of ${total} ${scope} (${pct} %, more than maxRemovals ${Math.round(fraction * 100)} %): ${list(keys)}; ${OVERRIDE}`,
      },
      keys,
    });
  }
  return out;
}

/** A removal as (top-level object, entry within it), when the rail counts it. */
function placeOf(key: string): { top: string; entry: string } | undefined {
  for (const s of SCOPES) {
    const m = s.re.exec(key);
    if (m) return { top: m[1], entry: m[3] };
  }
  return undefined;
}

const NOUN: Record<string, string> = { Project: "project", Team: "team", User: "user" };

/**
 * Per layer: the same entry removed from more than `fraction` of the objects a Project or
 * Team layer selects (at least one allowed, unless it is 0), naming the layer.
 */
export function layerRemovals(
  entries: readonly PlanEntry[],
  layers: readonly LayerSummary[] | undefined,
  fraction: number,
): Refusal[] {
  return layerGroups(entries, layers, fraction).map((c) => c.refusal);
}

function layerGroups(
  entries: readonly PlanEntry[],
  layers: readonly LayerSummary[] | undefined,
  fraction: number,
): Counted[] {
  const objectLayers = (layers ?? []).filter((l) => l.select.kind !== "Repository");
  if (objectLayers.length === 0) return [];
  // entry within an object → the keys removing it, by top-level object
  const removed = new Map<string, Map<string, string>>();
  for (const e of entries) {
    const at = e.action === "delete" ? placeOf(e.key) : undefined;
    if (!at) continue;
    let tops = removed.get(at.entry);
    if (!tops) removed.set(at.entry, (tops = new Map()));
    tops.set(at.top, e.key);
  }
  const out: Counted[] = [];
  for (const l of objectLayers) {
    const selected = new Set(l.selected);
    for (const [entry, tops] of [...removed].sort(([a], [b]) => a.localeCompare(b))) {
      const keys = [...tops].filter(([top]) => selected.has(top)).map(([, key]) => key);
      if (keys.length <= allowedRemovals(selected.size, fraction)) continue;
      const noun = NOUN[l.select.kind] ?? "object";
      const pct = Math.round((keys.length / selected.size) * 100);
      out.push({
        refusal: {
          rail: "mass-removal",
          message: `refusing a mass removal: Defaults ${l.name} (${l.source.file}:${l.source.line}) selects ${selected.size} ${noun}${selected.size === 1 ? "" : "s"}, and the plan removes ${entry} from ${keys.length} of them (${pct} %, more than maxRemovals ${Math.round(fraction * 100)} %): ${list(keys.sort())}; ${OVERRIDE}`,
        },
        keys,
      });
    }
  }
  return out;
}

/**
 * Both mass-removal rails. An object's refusal whose removals a layer's refusal holds every one
 * of is left out: those removals come from the layer, which is named once — not a refusal per
 * selected object.
 */
export function massRemovalRails(
  entries: readonly PlanEntry[],
  live: ReadonlyMap<string, LiveObject>,
  layers: readonly LayerSummary[] | undefined,
  fraction: number,
): Refusal[] {
  const byLayer = layerGroups(entries, layers, fraction);
  const fromLayers = new Set(byLayer.flatMap((c) => c.keys));
  const byObject = objectRemovals(entries, live, fraction).filter(
    (c) => !c.keys.every((k) => fromLayers.has(k)),
  );
  return [...byObject, ...byLayer].map((c) => c.refusal);
}
