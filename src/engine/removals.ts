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
import type { LayerImpact, PlanEntry } from "./plan.js";
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
const noun = (kind: string, n: number) => `${NOUN[kind] ?? "object"}${n === 1 ? "" : "s"}`;

/** Does a layer's `values` write the list an entry of an object sits in (`access.reporters`)? */
function writesPlace(values: Record<string, unknown>, entry: string): boolean {
  const [part, level] = entry.split("/");
  const at = (o: unknown, k: string) =>
    o !== null && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined;
  if (part === "access") return at(at(values, "access"), level) !== undefined;
  if (part === "member") return at(values, "members") !== undefined;
  if (part === "repo") return at(at(values, "git"), "repositories") !== undefined;
  return false;
}

/**
 * Who removes an entry: a layer this change edits (`PlanEntry.layer`, from a pull request's
 * plan: a layer it deletes is only in the base), else the config's layers that select the
 * object and write the list the entry is in — never a layer that gives nothing there.
 */
interface Remover {
  name: string;
  /** `file:line` and, for a layer the change removed, so. */
  where: string;
  kind: string;
  /** How many objects it selects (selected, when removed). */
  objects: number;
  removed: boolean;
  selects(top: string): boolean;
}

function removersOf(
  layers: readonly LayerSummary[],
  edited: readonly LayerImpact[],
): Map<string, Remover> {
  const out = new Map<string, Remover>();
  for (const l of layers) {
    if (l.select.kind === "Repository") continue;
    const selected = new Set(l.selected);
    out.set(l.name, {
      name: l.name,
      where: `${l.source.file}:${l.source.line}`,
      kind: l.select.kind,
      objects: selected.size,
      removed: false,
      selects: (top) => selected.has(top),
    });
  }
  for (const l of edited)
    if (l.change === "removed" && l.kind !== "Repository" && !out.has(l.name))
      out.set(l.name, {
        name: l.name,
        where: `${l.source.file}:${l.source.line}, removed by this change`,
        kind: l.kind,
        objects: l.objects,
        removed: true,
        selects: () => true,
      });
  return out;
}

/**
 * Per layer: the same entry removed from more than `fraction` of the objects a Project or
 * Team layer selects (at least one allowed, unless it is 0), naming the layer that removes it
 * (see Remover). `edited`: the Defaults a pull request's plan says it adds, alters or removes.
 */
export function layerRemovals(
  entries: readonly PlanEntry[],
  layers: readonly LayerSummary[] | undefined,
  fraction: number,
  edited: readonly LayerImpact[] = [],
): Refusal[] {
  return layerGroups(entries, layers, fraction, edited).map((c) => c.refusal);
}

function layerGroups(
  entries: readonly PlanEntry[],
  layers: readonly LayerSummary[] | undefined,
  fraction: number,
  edited: readonly LayerImpact[],
): Counted[] {
  const removers = removersOf(layers ?? [], edited);
  if (removers.size === 0) return [];
  const summaries = new Map((layers ?? []).map((l) => [l.name, l]));
  // layer → entry within an object → the keys removing it
  const groups = new Map<Remover, Map<string, string[]>>();
  for (const e of entries) {
    const at = e.action === "delete" ? placeOf(e.key) : undefined;
    if (!at) continue;
    const named = e.layer !== undefined ? removers.get(e.layer) : undefined;
    const by = named
      ? [named]
      : [...removers.values()].filter(
          (r) =>
            !r.removed && r.selects(at.top) && writesPlace(summaries.get(r.name)!.values, at.entry),
        );
    for (const r of by) {
      let byEntry = groups.get(r);
      if (!byEntry) groups.set(r, (byEntry = new Map()));
      byEntry.set(at.entry, [...(byEntry.get(at.entry) ?? []), e.key]);
    }
  }
  const out: Counted[] = [];
  for (const r of removers.values()) {
    const byEntry = groups.get(r);
    if (!byEntry) continue;
    for (const [entry, keys] of [...byEntry].sort(([a], [b]) => a.localeCompare(b))) {
      const total = Math.max(r.objects, keys.length);
      if (keys.length <= allowedRemovals(total, fraction)) continue;
      const pct = Math.round((keys.length / total) * 100);
      out.push({
        refusal: {
          rail: "mass-removal",
          message: `refusing a mass removal: Defaults ${r.name} (${r.where}) ${r.removed ? "selected" : "selects"} ${total} ${noun(r.kind, total)}, and the plan removes ${entry} from ${keys.length} of them (${pct} %, more than maxRemovals ${Math.round(fraction * 100)} %): ${list(keys.sort())}; ${OVERRIDE}`,
        },
        keys,
      });
    }
  }
  return out;
}

/**
 * The same entry removed from more than `fraction` of the live projects (or teams) while no
 * layer claims it: in a config with layers that is most likely a layer deleted or changed
 * since the last apply — which this config alone cannot name, so none is.
 */
function unclaimed(
  entries: readonly PlanEntry[],
  live: ReadonlyMap<string, LiveObject>,
  layers: readonly LayerSummary[] | undefined,
  fraction: number,
  edited: readonly LayerImpact[],
): Counted[] {
  const removers = removersOf(layers ?? [], edited);
  if (removers.size === 0) return [];
  const summaries = new Map((layers ?? []).map((l) => [l.name, l]));
  const byEntry = new Map<string, string[]>();
  for (const e of entries) {
    const at = e.action === "delete" ? placeOf(e.key) : undefined;
    if (!at || (e.layer !== undefined && removers.has(e.layer))) continue;
    const claimed = [...removers.values()].some(
      (r) =>
        !r.removed && r.selects(at.top) && writesPlace(summaries.get(r.name)!.values, at.entry),
    );
    if (claimed) continue;
    const id = `${at.top.slice(0, at.top.indexOf("/"))} ${at.entry}`;
    byEntry.set(id, [...(byEntry.get(id) ?? []), e.key]);
  }
  const out: Counted[] = [];
  for (const [id, keys] of [...byEntry].sort(([a], [b]) => a.localeCompare(b))) {
    const [top, entry] = id.split(" ");
    const tops = [...live.keys()].filter(
      (k) => k.startsWith(`${top}/`) && !k.includes("/", top.length + 1),
    );
    const total = Math.max(tops.length, keys.length);
    if (keys.length <= allowedRemovals(total, fraction)) continue;
    const pct = Math.round((keys.length / total) * 100);
    out.push({
      refusal: {
        rail: "mass-removal",
        message: `refusing a mass removal: the plan removes ${entry} from ${keys.length} of ${total} ${top}s (${pct} %, more than maxRemovals ${Math.round(fraction * 100)} %), and no Defaults layer of this config gives that list: a layer removed or changed since (plan --base names it): ${list(keys.sort())}; ${OVERRIDE}`,
      },
      keys,
    });
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
  edited: readonly LayerImpact[] = [],
): Refusal[] {
  const byLayer = [
    ...layerGroups(entries, layers, fraction, edited),
    ...unclaimed(entries, live, layers, fraction, edited),
  ];
  const fromLayers = new Set(byLayer.flatMap((c) => c.keys));
  const byObject = objectRemovals(entries, live, fraction).filter(
    (c) => !c.keys.every((k) => fromLayers.has(k)),
  );
  return [...byObject, ...byLayer].map((c) => c.refusal);
}
