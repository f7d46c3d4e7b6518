/**
 * `drift --adopt` where a Defaults layer gives an entry of a keyed list: an access user or
 * organization team, a team member, a license, a subgroup, a repository, a mirror, an
 * artifact repository. Removing the entry from the object's own list is not enough — the
 * layer would give it again — so an entry gone live leaves the layer itself only when the
 * layer selects nothing but this object (the rule of layers.ts); otherwise a tombstone,
 * `{ $remove: KEY }`, goes into the object's own list (created where the object has none)
 * and the adoption says which layer gives the entry to how many other objects. An entry
 * granted live again where the object's own tombstone removed it loses the tombstone.
 */
import type { PlanEntry } from "../engine/plan.js";
import type { LayerSummary } from "../layers/effective.js";
import { listRule, setKey, tombstoneKey } from "../layers/shape.js";
import type { FieldPath } from "../manifest/positions.js";
import { REMOVE } from "../manifest/schema/layering.js";
import type { LoadResult } from "../pipeline/types.js";
import type { LayerAdoption } from "./layers.js";
import { namesAlone, othersText } from "./layers.js";
import { getIn, type Op } from "./ops.js";
import { documentOf } from "./places.js";

/** Where a list entry is in its object's effective document: the list, and its key there. */
export interface ListPlace {
  /** `Kind/name` of the object's document. */
  doc: string;
  /** The list's path (an access level's users or organizationTeams: the mapping form). */
  path: string[];
  key: string;
}

/** The list place of a plan entry; undefined when the entry is no list entry. */
export function listPlace(e: PlanEntry): ListPlace | undefined {
  const doc = documentOf(e.key);
  const p = e.key.split("/");
  const from = (n: number) => p.slice(n).join("/");
  const at = (path: string[], key: string) => (doc ? { doc, path, key } : undefined);
  switch (e.kind) {
    case "ProjectAccess":
      return at(["spec", "access", p[3], "users"], from(5));
    case "ProjectTeamAccess":
      return at(["spec", "access", p[3], "organizationTeams"], from(5));
    case "TeamMember":
      return at(["spec", "members"], from(3));
    case "ProjectLicense":
      return at(["spec", "licenses"], from(3));
    case "Subgroup":
      return at(["spec", "git", "subgroups"], from(3));
    case "Repository":
      return at(["spec", "git", "repositories"], from(3));
    case "Mirror":
      // A second live mirror to one destination has no entry of its own in a manifest.
      return e.key.includes("#") ? undefined : at(["spec", "git", "mirrors"], from(3));
    case "ArtifactRepo":
      return at(["spec", "artifacts", "repositories"], from(3));
    default:
      return undefined;
  }
}

/** A list's items by key: its merge rule's key; undefined for a tombstone. */
function keyOf(place: ListPlace): (item: unknown) => string | undefined {
  const [kind, name] = place.doc.split("/");
  const rule = listRule(kind, place.path.join("."));
  return (item) => {
    if (tombstoneKey(item) !== undefined) return undefined;
    if (rule.merge === "set") return setKey(item);
    return rule.merge === "keyed" ? rule.key(item as Record<string, unknown>, name) : undefined;
  };
}

/** A layer that gives a list entry, and where its list is in the layer's document. */
export interface Giver {
  layer: LayerSummary;
  list: FieldPath;
  /** How many other objects the layer selects. */
  others: number;
  /** The layer's selector names this object alone (see layers.ts namesAlone). */
  alone: boolean;
}

/** What gives an entry gone live: the layers, and whether the object's own list does too. */
export interface ListAdoption {
  place: ListPlace;
  layers: Giver[];
  own: boolean;
  /** Out of the layers (each selects nothing else), or a tombstone in the object's own list. */
  into: "layer" | "tombstone";
  /** The layer a tombstone's report names: the first that selects other objects too. */
  named: Giver;
}

/** How to adopt an entry gone live that a layer gives; undefined when no layer gives it. */
export function listAdoption(loaded: LoadResult, e: PlanEntry): ListAdoption | undefined {
  const place = listPlace(e);
  const object = place ? loaded.layers?.layered.get(place.doc) : undefined;
  if (!place || !object) return undefined;
  const list = getIn(object.doc.value, place.path);
  const key = keyOf(place);
  const i = Array.isArray(list) ? list.findIndex((x) => key(x) === place.key) : -1;
  if (i < 0) return undefined;
  const givers = object.handle.givers([...place.path, i]);
  const self = e.key.split("/").slice(0, 2).join("/");
  const layers = givers.flatMap((c): Giver[] => {
    const layer = c.layer && loaded.layers?.layers.find((l) => l.name === c.layer?.name);
    if (!layer) return [];
    const others = layer.selected.filter((k) => k !== self).length;
    return [{ layer, list: c.at.slice(0, -1), others, alone: namesAlone(layer, self) }];
  });
  if (layers.length === 0) return undefined;
  const own = givers.some((c) => !c.layer);
  const named = layers.find((l) => !l.alone);
  return { place, layers, own, into: named ? "tombstone" : "layer", named: named ?? layers[0] };
}

/** The edit that takes the entry out of a layer's list (`spec.values` itself stays). */
export function dropFromLayer(a: ListAdoption, g: Giver): Op {
  const key = keyOf(a.place);
  const path = g.list.map((x) => (typeof x === "number" ? x : String(x)));
  return { op: "drop", path, item: (x) => key(x) === a.place.key, keep: 2 };
}

/**
 * The edits that write the tombstone into the object's own document, as it is now: an access
 * level may be written as a list of users (`reporters: [a]`), a mapping, or not at all.
 */
export function tombstoneOps(place: ListPlace, value: Record<string, unknown>): Op[] {
  const tomb = { [REMOVE]: place.key };
  const [spec, access, level, list] = place.path;
  if (access === "access") {
    const at = [spec, access, level];
    const now = getIn(value, at);
    if (now === undefined || now === null)
      return [{ op: "set", path: at, value: list === "users" ? [tomb] : { [list]: [tomb] } }];
    if (Array.isArray(now))
      return list === "users"
        ? [{ op: "add", path: at, value: tomb }]
        : [{ op: "set", path: at, value: { users: now, [list]: [tomb] } }];
  }
  return [{ op: "add", path: place.path, value: tomb }];
}

/**
 * An entry granted live that the object's own tombstone removes from a list of names (access,
 * members, licenses, subgroups): the edit that drops the tombstone, so that the layer gives
 * it again. Undefined otherwise (an entry with fields is written out beside its tombstone).
 */
export function untombOps(e: PlanEntry, value: Record<string, unknown>): Op[] | undefined {
  const place = e.action === "delete" ? listPlace(e) : undefined;
  if (!place) return undefined;
  if (listRule(place.doc.split("/")[0], place.path.join(".")).merge !== "set") return undefined;
  let path = place.path;
  if (path[1] === "access" && Array.isArray(getIn(value, path.slice(0, 3)))) {
    if (path[3] !== "users") return undefined;
    path = path.slice(0, 3);
  }
  const mine = (x: unknown) => tombstoneKey(x) === place.key;
  const list = getIn(value, path);
  if (!Array.isArray(list) || !list.some(mine)) return undefined;
  return [{ op: "drop", path, item: mine, keep: path[1] === "git" ? 2 : 1 }];
}

/** The report of an entry gone live that a layer gives, written into `file`. */
export function listAdoptionNote(
  e: PlanEntry,
  a: ListAdoption,
  g: Giver,
  file: string,
): LayerAdoption {
  const field = a.place.path.slice(1).join(".");
  const written = a.into === "layer" ? "layer" : "tombstone";
  const message =
    written === "layer"
      ? `${e.key}: removed from Defaults ${g.layer.name} (${file}), which selects nothing else`
      : `${e.key}: tombstone written to ${file}: Defaults ${g.layer.name} gives it to ${othersText(g)}`;
  return { key: e.key, field, layer: g.layer.name, written, file, others: g.others, message };
}
