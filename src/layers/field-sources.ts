/**
 * Where a plan's changed field got its desired value, when a layer gave it: the plan names the
 * layer's line (`defaults/repositories.yaml:9`), not the object's. A field the object's own
 * manifest writes (or nobody writes: a default) is left to src/engine/change-sources.ts, which
 * finds it in the object's file.
 */
import type { FieldPath } from "../manifest/positions.js";
import type { LayerSource } from "../manifest/types.js";
import type { LayeredObject } from "./effective.js";
import type { Winner } from "./handle.js";
import { repositoryEntryKey } from "./shape.js";

/** The source of a field of a plan entry (its kind, key and field), when a layer decides it. */
export type LayerFieldSource = (
  kind: string,
  key: string,
  field: string,
) => LayerSource | undefined;

const FIELD: Record<string, (f: string) => string> = {
  Repository: (f) => (f === "fork" ? "forkFrom" : f),
};

function indexWhere(list: unknown, match: (x: Record<string, unknown>) => boolean): number {
  return Array.isArray(list) ? list.findIndex((x) => match(x as Record<string, unknown>)) : -1;
}

/** The object of a plan key and the path of that key's object in its document. */
function locate(
  layered: ReadonlyMap<string, LayeredObject>,
  key: string,
): { object: LayeredObject; base: FieldPath } | undefined {
  const [top, name, part, ...rest] = key.split("/");
  const kind =
    top === "project" ? "Project" : top === "user" ? "User" : top === "team" ? "Team" : "";
  const object = layered.get(`${kind}/${name}`);
  if (!object) return undefined;
  const spec = (object.doc.value as { spec: Record<string, unknown> }).spec;
  const git = (spec.git ?? {}) as Record<string, unknown>;
  const tail = rest.join("/");
  if (part === undefined)
    return { object, base: kind === "Team" ? ["spec", "services"] : ["spec"] };
  if (kind === "User" && part === "service") return { object, base: ["spec", "services", tail] };
  if (kind !== "Project") return undefined;
  if (part === "group") return { object, base: ["spec", "git", "group"] };
  const at = (list: FieldPath, i: number) => (i < 0 ? undefined : { object, base: [...list, i] });
  if (part === "repo")
    return at(
      ["spec", "git", "repositories"],
      indexWhere(git.repositories, (r) => repositoryEntryKey(r) === tail),
    );
  if (part === "mirror")
    return at(
      ["spec", "git", "mirrors"],
      indexWhere(git.mirrors, (m) => m.to === tail),
    );
  if (part === "artifact") {
    const list = (spec.artifacts as { repositories?: unknown } | undefined)?.repositories;
    return at(
      ["spec", "artifacts", "repositories"],
      indexWhere(list, (a) => (a.name ?? name) === tail),
    );
  }
  return undefined;
}

/**
 * Who decides a changed field of a plan entry (its kind, key and field): the contributor and
 * where it says it (drift --adopt writes there or overrides it). Undefined: no layer touched
 * the object.
 */
export function fieldWinner(
  layered: ReadonlyMap<string, LayeredObject>,
  kind: string,
  key: string,
  field: string,
): Winner | undefined {
  const found = locate(layered, key);
  if (!found) return undefined;
  return found.object.handle.winner([...found.base, (FIELD[kind] ?? ((f) => f))(field)]);
}

/** The lookup over the layered objects of one load. */
export function layerFieldSources(layered: ReadonlyMap<string, LayeredObject>): LayerFieldSource {
  return (kind, key, field) => {
    const w = fieldWinner(layered, kind, key, field);
    const layer = w?.contributor.layer;
    return layer ? { ...w.contributor.handle.at(w.at, "key"), layer: layer.name } : undefined;
  };
}
