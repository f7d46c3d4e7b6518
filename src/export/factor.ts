/**
 * `phctl export --factor`: values most exported objects share move into Defaults documents,
 * and each object keeps only what differs. The rule, per kind (projects, their repositories,
 * users, teams):
 *
 * - A value goes into the kind's layer when at least `share` of the objects have it: a
 *   scalar (only where an object without it can say the default, or every object has it),
 *   an entry of a keyed set (a license, a subgroup, a user or team on an access level, a team
 *   member), an empty mapping (a user's `git: {}` account). Names, titles, descriptions,
 *   organizations and the repository, mirror and artifact lists are never factored (a
 *   repository's fields are: by a Repository layer over every repository).
 * - Each object keeps what differs: its own scalar where it differs (the default written
 *   out where it has none), its extra set entries, and a tombstone (`$remove`) for each
 *   entry the layer gives that it lacks.
 * - Every object is checked by merging it with the layers exactly as the loader does: one
 *   that would not come out as exported (a user without the git account the layer gives: a
 *   mapping cannot be removed) is written whole with `inherit: false`.
 *
 * So the factored files load to the same desired state as the plain export.
 */
import equal from "fast-deep-equal";
import type { DocHandle } from "../manifest/positions.js";
import { API_VERSION } from "../manifest/schema/common.js";
import type { SelectKind } from "../manifest/schema/selector.js";
import { OWN_PRIORITY, type Contributor, type Layer } from "../layers/contributor.js";
import { mergeNode, type MergeContext } from "../layers/merge.js";
import { accessLevelForm, listRule } from "../layers/shape.js";
import type { ExportDocument, ExportDocuments } from "./documents.js";
import { NEVER, SCALAR_DEFAULTS } from "./factor-places.js";

type Obj = Record<string, unknown>;
const isMap = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

interface Leaf {
  path: string[];
  /** A scalar or plain list, a set entry, or an empty mapping. */
  is: "value" | "entry" | "empty";
  value: unknown;
  n: number;
}

/** Count the leaves of one spec into `into` (a leaf counted once per object). */
function countLeaves(
  kind: string,
  dotted: string,
  path: string[],
  v: unknown,
  into: Map<string, Leaf>,
) {
  if (NEVER.has(dotted)) return;
  const add = (is: Leaf["is"], value: unknown) => {
    const id = `${dotted}\u0000${is}\u0000${JSON.stringify(value)}`;
    const leaf = into.get(id);
    if (leaf) leaf.n++;
    else into.set(id, { path, is, value, n: 1 });
  };
  const form = accessLevelForm(dotted, kind, v);
  if (isMap(form)) {
    const keys = Object.keys(form);
    if (keys.length === 0 && path.length > 0) add("empty", {});
    for (const k of keys) countLeaves(kind, `${dotted}.${k}`, [...path, k], form[k], into);
  } else if (Array.isArray(form) && listRule(kind, dotted).merge === "set") {
    for (const x of new Set(form)) add("entry", x);
  } else if (!(Array.isArray(form) && listRule(kind, dotted).merge === "keyed")) add("value", form);
}

/** The layer's values: the leaves at least `min` of the `total` objects share. */
function layerValues(kind: string, leaves: Iterable<Leaf>, min: number, total: number): Obj {
  const out: Obj = {};
  for (const leaf of leaves) {
    if (leaf.n < min) continue;
    const dotted = ["spec", ...leaf.path].join(".");
    if (leaf.is === "value" && leaf.n < total && !(dotted in (SCALAR_DEFAULTS[kind] ?? {})))
      continue;
    let at: Obj = out;
    for (const k of leaf.path.slice(0, -1)) at = isMap(at[k]) ? at[k] : (at[k] = {});
    const last = leaf.path[leaf.path.length - 1];
    if (leaf.is === "entry")
      at[last] = [...((at[last] as unknown[] | undefined) ?? []), leaf.value];
    else if (leaf.is === "empty") at[last] = isMap(at[last]) ? at[last] : {};
    else at[last] = leaf.value;
  }
  return out;
}

const OMIT = Symbol("omit");
class Inexpressible extends Error {}

/** What an object must say so that, merged over `layer`, it is `own` (see the module comment). */
function subtract(kind: string, dotted: string, own: unknown, layer: unknown): unknown {
  if (layer === undefined) return own === undefined ? OMIT : own;
  own = accessLevelForm(dotted, kind, own);
  layer = accessLevelForm(dotted, kind, layer);
  const set = Array.isArray(layer) && listRule(kind, dotted).merge === "set";
  if (isMap(layer) && (own === undefined || isMap(own))) {
    if (own === undefined && Object.keys(layer).length === 0) throw new Inexpressible();
    const mine: Obj = own ?? {};
    const out: Obj = {};
    for (const k of new Set([...Object.keys(mine), ...Object.keys(layer)])) {
      const r = subtract(kind, `${dotted}.${k}`, mine[k], layer[k]);
      if (r !== OMIT) out[k] = r;
    }
    return Object.keys(out).length > 0 ? out : own === undefined ? out : OMIT;
  }
  if (set && (own === undefined || Array.isArray(own))) {
    const mine = (own ?? []) as unknown[];
    const theirs = layer as unknown[];
    const r = [
      ...mine.filter((x) => !theirs.includes(x)),
      ...theirs.filter((x) => !mine.includes(x)).map((x) => ({ $remove: x })),
    ];
    return r.length > 0 ? r : OMIT;
  }
  if (own === undefined) {
    const d = SCALAR_DEFAULTS[kind]?.[dotted];
    if (d === undefined) throw new Inexpressible();
    return d;
  }
  return equal(own, layer) ? OMIT : own;
}

/** Access levels with users only back in list form (`admins: [a]`), as export writes them. */
function tidyAccess(spec: Obj): void {
  const access = spec.access;
  if (!isMap(access)) return;
  for (const [level, v] of Object.entries(access))
    if (isMap(v) && Object.keys(v).length === 1 && Array.isArray(v.users)) access[level] = v.users;
}

/**
 * A value with set lists sorted, access levels in one form and scalars at their defaults
 * written out (export leaves them out; a residual may say them): what "the same" compares.
 */
function canonical(kind: string, dotted: string, v: unknown): unknown {
  const form = accessLevelForm(dotted, kind, v);
  if (isMap(form)) {
    const out: Obj = {};
    for (const [place, d] of Object.entries(SCALAR_DEFAULTS[kind] ?? {}))
      if (place.slice(0, place.lastIndexOf(".")) === dotted)
        out[place.slice(dotted.length + 1)] = d;
    for (const [k, x] of Object.entries(form)) out[k] = canonical(kind, `${dotted}.${k}`, x);
    return out;
  }
  if (!Array.isArray(form)) return form;
  const rule = listRule(kind, dotted);
  if (rule.merge === "set") return [...form].map(String).sort();
  if (kind === "Project" && dotted === "spec.git.repositories")
    return form.map((x) => canonical("Repository", "spec", x));
  return form.map((x) => canonical(kind, rule.merge === "keyed" ? dotted : `${dotted}[]`, x));
}

const handle = (): DocHandle => ({}) as DocHandle;

/** The loader's merge of `spec` over the layers (test: the same as applyLayers). */
function merged(kind: string, name: string, spec: Obj, layers: Layer[], repo?: Layer): unknown {
  const at = (l: Layer): Contributor => ({
    layer: l,
    priority: l.priority,
    handle: l.handle,
    at: [],
    value: l.values,
  });
  const own: Contributor = { priority: OWN_PRIORITY, handle: handle(), at: [], value: spec };
  const ctx: MergeContext = {
    kind,
    name,
    problems: [],
    ...(repo ? { repositoryLayers: () => [at(repo)] } : {}),
  };
  const out = mergeNode(ctx, "spec", "spec", [own, ...layers.map(at)]);
  return ctx.problems.length > 0 ? undefined : out;
}

const layerOf = (name: string, kind: SelectKind, values: Obj, order: number): Layer => ({
  name,
  priority: 0,
  select: { kind },
  values,
  handle: handle(),
  order,
});

/** One object's spec over the layers: what differs, or itself whole with `inherit: false`. */
function residual(
  kind: string,
  name: string,
  spec: Obj,
  layer: Layer | undefined,
  repo: Layer | undefined,
): Obj {
  try {
    let out = (layer ? subtract(kind, "spec", spec, layer.values) : spec) as Obj | typeof OMIT;
    if (out === OMIT) out = {};
    if (repo) {
      const git = out.git as Obj | undefined;
      const repos = (spec.git as Obj | undefined)?.repositories;
      if (Array.isArray(repos))
        out = {
          ...out,
          git: {
            ...git,
            repositories: repos.map((r: Obj) => {
              const x = subtract("Repository", "spec", r, repo.values);
              return x === OMIT ? { name: r.name } : x;
            }),
          },
        };
    }
    tidyAccess(out);
    const back = merged(kind, name, out, layer ? [layer] : [], repo);
    if (equal(canonical(kind, "spec", back), canonical(kind, "spec", spec))) return out;
  } catch (e) {
    if (!(e instanceof Inexpressible)) throw e;
  }
  return { inherit: false, ...spec };
}

/** The shared values of `specs` (a kind's objects) as a layer's values, or undefined. */
function shared(kind: string, specs: Obj[], share: number): Obj | undefined {
  if (specs.length < 2) return undefined;
  const leaves = new Map<string, Leaf>();
  for (const s of specs) countLeaves(kind, "spec", [], s, leaves);
  const values = layerValues(kind, leaves.values(), Math.ceil(share * specs.length), specs.length);
  return Object.keys(values).length > 0 ? values : undefined;
}

const specOf = (d: ExportDocument): Obj => (d.value.spec as Obj | undefined) ?? {};

function layerDocument(l: Layer, what: string): ExportDocument {
  return {
    kind: "Defaults",
    name: l.name,
    value: {
      apiVersion: API_VERSION,
      kind: "Defaults",
      metadata: { name: l.name },
      spec: {
        description: `What most ${what} share (phctl export --factor)`,
        select: l.select,
        values: l.values,
      },
    },
    comments: [],
  };
}

/**
 * The documents factored: the layers (Defaults documents, one per kind with something
 * shared) and every object with what differs from them. `share`: the fraction (over one
 * half) of a kind's objects that must have a value for it to go into the layer.
 */
export function factorDocuments(docs: ExportDocuments, share: number): ExportDocuments {
  const layers: ExportDocument[] = [];
  let order = 0;
  const kindLayer = (kind: SelectKind, specs: Obj[], name: string) => {
    const values = shared(kind, specs, share);
    return values ? layerOf(name, kind, values, order++) : undefined;
  };
  const projectSpecs = docs.projects.map(specOf);
  const project = kindLayer("Project", projectSpecs, "projects");
  const repos = projectSpecs.flatMap((s) => {
    const list = (s.git as Obj | undefined)?.repositories;
    return Array.isArray(list) ? (list as Obj[]) : [];
  });
  const repo = kindLayer("Repository", repos, "repositories");
  const user = kindLayer("User", docs.users.map(specOf), "users");
  const team = kindLayer("Team", docs.teams.map(specOf), "teams");
  for (const [l, what] of [
    [project, "projects"],
    [repo, "repositories"],
    [user, "users"],
    [team, "teams"],
  ] as const)
    if (l) layers.push(layerDocument(l, what));
  const apply = (list: ExportDocument[], kind: string, l?: Layer, r?: Layer) =>
    l || r
      ? list.map((d) => ({
          ...d,
          value: { ...d.value, spec: residual(kind, d.name, specOf(d), l, r) },
        }))
      : list;
  return {
    organizations: docs.organizations,
    users: apply(docs.users, "User", user),
    teams: apply(docs.teams, "Team", team),
    projects: apply(docs.projects, "Project", project, repo),
    defaults: layers,
    warnings: docs.warnings,
  };
}
