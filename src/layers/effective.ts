/**
 * Layers applied: the valid documents of a config → the effective documents (each object with
 * the Defaults that select it merged under its own spec), a summary of every layer (what it
 * selects: the blast radius of a change to it), and the problems as diagnostics. Everything
 * downstream — cross-reference rules, policies, DesiredState — sees effective documents, whose
 * handles name the line each value came from.
 *
 * An object's effective document depends on its own document and the layers alone: not on
 * file or document order, nor on which other objects exist (test/layers/property.test.ts).
 */
import type { ValidDoc } from "../manifest/check.js";
import { makeDiagnostic } from "../manifest/diagnostics.js";
import { ownerList } from "../manifest/owner-list.js";
import { schemaDiagnostics } from "../manifest/schema-errors.js";
import type { Diagnostic, LayerSummary, ManifestConfig } from "../manifest/types.js";
import { validateAgainst } from "../manifest/validator.js";
import { byPrecedence, OWN_PRIORITY, type Contributor, type Layer } from "./contributor.js";
import { LayeredHandle } from "./handle.js";
import { BAIL, fastNode, type FastContext } from "./fast-merge.js";
import { specPlace } from "./place.js";
import { mergeNode, type MergeContext, type MergeProblem, type TraceEntry } from "./merge.js";
import { problemDiagnostic } from "./problems.js";
import {
  checkSelector,
  narrowsRepositories,
  selects,
  selectsRepository,
  type SelectTarget,
} from "./selector.js";
import { repositoryEntryKey, usesLayerWords } from "./shape.js";
import { mayChooseUnread, type UnreadObject } from "./unread.js";

export type { LayerSummary };

/** An object with layers under it: what explain, render and plan sources ask about. */
export interface LayeredObject {
  doc: ValidDoc;
  own: ValidDoc;
  handle: LayeredHandle;
  /** Recompute the merge with every value's contributors recorded. */
  trace(): TraceEntry[];
}

export interface LayersResult {
  /** The documents with layers merged in; Defaults and other documents as they were. */
  docs: ValidDoc[];
  layers: LayerSummary[];
  /** Objects some layer (or a tombstone) changed, by `Kind/name`. */
  layered: Map<string, LayeredObject>;
  diagnostics: Diagnostic[];
}

type ObjectKind = "Project" | "User" | "Team";
const OBJECT_KINDS = new Set<string>(["Project", "User", "Team"]);

const specOf = (d: ValidDoc): Record<string, unknown> =>
  (d.value as { spec?: Record<string, unknown> }).spec ?? {};
const labelsOf = (d: ValidDoc): Record<string, string> =>
  (d.value.metadata as { labels?: Record<string, string> }).labels ?? {};

function targetOf(d: ValidDoc, config: ManifestConfig): SelectTarget {
  const spec = specOf(d).organization;
  const organization = typeof spec === "string" ? spec : config.organization;
  return {
    kind: d.kind as ObjectKind,
    name: d.name,
    ...(organization !== undefined ? { organization } : {}),
    labels: labelsOf(d),
  };
}

function layerOf(d: ValidDoc<"Defaults">, order: number): Layer {
  const s = d.value.spec;
  return {
    ...(s.owners !== undefined ? { owners: ownerList(s.owners) } : {}),
    name: d.name,
    priority: s.priority ?? 0,
    select: s.select,
    values: s.values,
    handle: d.handle,
    order,
    ...(s.description !== undefined ? { description: s.description } : {}),
  };
}

/** A layer's say at `spec` of every object it selects: one object per layer, never changed. */
const contributorOf = new WeakMap<Layer, Contributor>();
const layerContributor = (l: Layer): Contributor => {
  let c = contributorOf.get(l);
  if (!c)
    contributorOf.set(
      l,
      (c = {
        layer: l,
        priority: l.priority,
        handle: l.handle,
        at: ["spec", "values"],
        value: l.values,
      }),
    );
  return c;
};

/**
 * Apply the Defaults documents among `valid` to the objects among them. `unread`: objects
 * that did not load (unread.ts), which a layer selecting nothing loaded may still select.
 */
export function applyLayers(
  valid: readonly ValidDoc[],
  config: ManifestConfig,
  unread: readonly UnreadObject[] = [],
): LayersResult {
  const diagnostics: Diagnostic[] = [];
  const defaults = valid
    .filter((d): d is ValidDoc<"Defaults"> => d.kind === "Defaults")
    .sort((a, b) =>
      a.handle.file === b.handle.file
        ? a.handle.start.line - b.handle.start.line
        : a.handle.file < b.handle.file
          ? -1
          : 1,
    );
  const layers: Layer[] = [];
  const byName = new Map<string, ValidDoc>();
  for (const d of defaults) {
    // A second layer of one name is the identity rule's to report (it sees the Defaults too).
    if (byName.has(d.name)) continue;
    byName.set(d.name, d);
    const bad = checkSelector(d.value.spec.select, d.handle, ["spec", "select"]);
    for (const x of bad) diagnostics.push({ ...x, kind: "Defaults", name: d.name });
    if (bad.length === 0) layers.push(layerOf(d, layers.length));
  }
  const words = new Map(layers.map((l) => [l, usesLayerWords(l.values)]));
  const wordy = (l: Layer) => words.get(l) === true;
  const selected = new Map<Layer, string[]>(layers.map((l) => [l, []]));
  const repoProjects = new Map<Layer, Set<string>>();
  const layered = new Map<string, LayeredObject>();
  const docs: ValidDoc[] = [];
  for (const d of valid) {
    if (!OBJECT_KINDS.has(d.kind)) {
      docs.push(d);
      continue;
    }
    const target = targetOf(d, config);
    const mine = layers.filter((l) => selects(l.select, target));
    const repoLayers =
      d.kind === "Project"
        ? layers.filter((l) => selects(l.select, { ...target, kind: "Repository" }))
        : [];
    const spec = specOf(d);
    const ownWords = usesLayerWords(spec);
    if (mine.length === 0 && repoLayers.length === 0 && !ownWords) {
      docs.push(d);
      continue;
    }
    const own: Contributor = {
      priority: OWN_PRIORITY,
      handle: d.handle,
      at: ["spec"],
      value: spec,
    };
    const contributors = [own, ...mine.map(layerContributor)].sort(byPrecedence);
    const repositoryLayers = repositoryLayersOf(repoLayers);
    // No word of layering anywhere: the fast merge (fast-merge.ts) may do, unless a problem.
    const plain = !ownWords && !mine.some(wordy) && !repoLayers.some(wordy);
    const defined = contributors.filter((c) => c.value !== undefined);
    const merge = (trace?: TraceEntry[]) => {
      if (plain && !trace)
        try {
          const fast: FastContext = {
            kind: d.kind,
            name: d.name,
            ...(repoLayers.length > 0 ? { repositoryLayers } : {}),
          };
          const out = fastNode(
            fast,
            specPlace(d.kind),
            defined,
            defined.map((c) => c.value),
          );
          return { spec: (out ?? {}) as Record<string, unknown>, problems: [] as MergeProblem[] };
        } catch (e) {
          if (e !== BAIL) throw e;
        }
      const ctx: MergeContext = {
        kind: d.kind,
        name: d.name,
        ...(repoLayers.length > 0 ? { repositoryLayers } : {}),
        problems: [],
        ...(trace ? { trace } : {}),
      };
      const out = mergeNode(ctx, "spec", "spec", contributors) as Record<string, unknown>;
      return { spec: out ?? {}, problems: ctx.problems };
    };
    const { spec: merged, problems } = merge();
    const value = { ...(d.value as Record<string, unknown>), spec: merged };
    const handle = new LayeredHandle(
      d.handle,
      d.kind,
      d.name,
      value,
      contributors,
      repositoryLayers,
    );
    const effective = { ...d, value, handle } as unknown as ValidDoc;
    layered.set(`${d.kind}/${d.name}`, {
      doc: effective,
      own: d,
      handle,
      trace: () => {
        const t: TraceEntry[] = [];
        merge(t);
        return t;
      },
    });
    for (const l of mine) selected.get(l)!.push(`${d.kind.toLowerCase()}/${d.name}`);
    countRepositories(merged, repositoryLayers, d.name, selected, repoProjects);
    for (const p of problems) diagnostics.push(problemDiagnostic(p, effective));
    if (problems.length === 0) {
      const errors = validateAgainst(d.kind, value);
      if (errors.length > 0)
        diagnostics.push(
          ...schemaDiagnostics(errors, value, handle, { kind: d.kind, name: d.name }),
        );
    }
    docs.push(releasable(effective));
  }
  const summaries = layers.map((l): LayerSummary => {
    const keys = selected.get(l)!;
    if (keys.length === 0 && !mayChooseUnread(l.select, unread))
      diagnostics.push(
        makeDiagnostic(
          "warning",
          "selector-matches-nothing",
          l.handle.at(["spec", "select"], "key"),
          `the selector matches no ${l.select.kind === "Repository" ? "repository" : l.select.kind.toLowerCase()} in this config: the layer does nothing`,
          {
            kind: "Defaults",
            name: l.name,
            path: "spec.select",
            hint: "check its kind, names and labels",
          },
        ),
      );
    return {
      name: l.name,
      source: l.handle.start,
      priority: l.priority,
      select: l.select,
      ...(l.description !== undefined ? { description: l.description } : {}),
      values: l.values,
      ...(l.owners ? { owners: l.owners } : {}),
      selected: keys,
      ...(l.select.kind === "Repository" ? { projects: repoProjects.get(l)?.size ?? 0 } : {}),
    };
  });
  return { docs, layers: summaries, layered, diagnostics };
}

/**
 * The Repository layers of one entry of a project's repository list (by its key,
 * `subgroup/name`), in precedence, from `repoLayers`: those whose project part selects the
 * project. Those that do not narrow by repository select every entry; the others are tested
 * on each key once, and entries selected by the same layers share one list.
 */
function repositoryLayersOf(repoLayers: readonly Layer[]): (key: string) => Contributor[] {
  const all = repoLayers.map(layerContributor).sort(byPrecedence);
  const narrowing = all.filter((c) => narrowsRepositories(c.layer!.select));
  if (narrowing.length === 0) return () => all;
  const byKey = new Map<string, Contributor[]>();
  const byChoice = new Map<string, Contributor[]>();
  return (key) => {
    let got = byKey.get(key);
    if (got) return got;
    const slash = key.lastIndexOf("/");
    const repository = {
      name: key.slice(slash + 1),
      subgroup: slash < 0 ? "" : key.slice(0, slash),
    };
    const out = new Set(narrowing.filter((c) => !selectsRepository(c.layer!.select, repository)));
    const choice = narrowing.map((c) => (out.has(c) ? "0" : "1")).join("");
    got = byChoice.get(choice);
    if (!got) byChoice.set(choice, (got = out.size === 0 ? all : all.filter((c) => !out.has(c))));
    byKey.set(key, got);
    return got;
  };
}

/**
 * The document handed on: normalise may spend (clear) its repository list as it goes to save
 * memory, so it gets a copy of that list and the layered object keeps its own.
 */
function releasable(d: ValidDoc): ValidDoc {
  const spec = (d.value as { spec: Record<string, unknown> }).spec;
  const git = spec.git as { repositories?: unknown[] } | undefined;
  if (!git?.repositories) return d;
  const copy = { ...spec, git: { ...git, repositories: [...git.repositories] } };
  return { ...d, value: { ...d.value, spec: copy } } as unknown as ValidDoc;
}

/** Count, per Repository layer, the repositories (and their projects) it selected. */
function countRepositories(
  spec: Record<string, unknown>,
  repositoryLayers: (key: string) => Contributor[],
  slug: string,
  selected: Map<Layer, string[]>,
  projects: Map<Layer, Set<string>>,
): void {
  const repos = (spec.git as { repositories?: unknown[] } | undefined)?.repositories ?? [];
  for (const r of repos) {
    const key = repositoryEntryKey(r as Record<string, unknown>);
    for (const c of repositoryLayers(key)) {
      selected.get(c.layer!)!.push(`project/${slug}/repo/${key}`);
      let set = projects.get(c.layer!);
      if (!set) projects.set(c.layer!, (set = new Set()));
      set.add(slug);
    }
  }
}

const FROM_LAYER = "the value comes from";
const LAYER_CODES = new Set(["layer-conflict", "tombstone-unused"]);

/**
 * A problem with a layered object — its schema, a cross-reference rule — sits at the line of
 * the document that gave the value (the handle sees to it): when that is a layer, say so and
 * name the object it was applied to, after the problem's own hint.
 */
export function attributeToLayers(
  diagnostics: readonly Diagnostic[],
  result: LayersResult,
): Diagnostic[] {
  if (result.layered.size === 0) return [...diagnostics];
  return diagnostics.map((d) => {
    const object = d.kind && d.name ? result.layered.get(`${d.kind}/${d.name}`) : undefined;
    // The layers' own problems already name both documents.
    if (!object || d.hint?.includes(FROM_LAYER) || LAYER_CODES.has(d.code)) return d;
    let best: { line: number; layer: string | undefined } | undefined;
    const consider = (file: string, line: number, layer?: string) => {
      if (file === d.file && line <= d.line && (!best || line > best.line)) best = { line, layer };
    };
    const own = object.own.handle;
    consider(own.file, own.start.line);
    for (const l of result.layers) consider(l.source.file, l.source.line, l.name);
    const layer = best?.layer;
    if (!layer) return d;
    // The rule's own hint (what to fix) stays first.
    const from = `${FROM_LAYER} Defaults ${layer}, applied to ${d.kind} ${d.name} (${own.file}:${own.start.line}); fix the layer, or override the field in the object`;
    return { ...d, hint: d.hint ? `${d.hint}; ${from}` : from, layer };
  });
}

export type { MergeProblem, TraceEntry };
