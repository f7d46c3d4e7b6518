/**
 * `drift --adopt` without the CLI: turn a drift plan's live values into edits of the
 * manifest files it was made from, in place (src/adopt/doc-text.ts keeps every untouched
 * line as it was). Nothing is written here: every edit is computed first, each file read
 * back and the whole config loaded again and checked against the plan (settle.ts,
 * verify.ts); a file that changed since the plan read it, that cannot be edited in place or
 * that would not check is left out whole, with its entries listed as not adopted. What a
 * Defaults layer gave goes by layers.ts (a field) and layer-lists.ts (a list entry). write.ts
 * writes.
 */
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { FieldChange, Plan, PlanEntry } from "../engine/plan.js";
import { type ManifestInput } from "../manifest/load.js";
import { loadManifestTexts } from "../pipeline/load.js";
import { credentialIn } from "../secrets.js";
import { CONFIG_NAMES } from "../manifest/discover.js";
import type { DesiredState } from "../manifest/types.js";
import { EditError } from "./doc-text.js";
import { docId, FileText } from "./file-text.js";
import {
  layerAdoption,
  layeredChanges,
  manifestValue,
  type LayerAdoption,
  type LayeredChange,
} from "./layers.js";
import type { Op } from "./ops.js";
import { unmanagedEntries, type NotAdoptable } from "./unmanaged.js";
import { absentLive } from "./place-common.js";
import { documentOf, placeEntry } from "./places.js";
import { changedSinceLoad } from "./unchanged.js";
import {
  dropFromLayer,
  listAdoption,
  listAdoptionNote,
  tombstoneOps,
  untombOps,
} from "./layer-lists.js";
import { settle, splitByFile } from "./settle.js";
import { sortByEvidence, type AdoptEvidence } from "./evidence.js";

export type { AdoptEvidence, LayerAdoption, NotAdoptable };
export { splitByFile };

/** A manifest file adoption changes: its text before, and after (undefined: deleted). */
export interface AdoptedFile {
  file: string;
  before: string;
  after: string | undefined;
}

export interface AdoptResult {
  /** The entries whose live values the manifests now declare, in plan order. */
  adopted: PlanEntry[];
  /** Where each adopted entry was written. */
  fileOf: Map<PlanEntry, string>;
  files: AdoptedFile[];
  notAdoptable: NotAdoptable[];
  /**
   * Drifted values a Defaults layer gave: written into the layer, or as an override (a list
   * entry gone live: out of the layer, or a tombstone).
   */
  layers: LayerAdoption[];
}

export interface AdoptInput {
  plan: Plan;
  state: DesiredState;
  /** The files the plan's manifests were loaded from (relative to `cwd`). */
  files: readonly string[];
  cwd?: string;
  /**
   * What shows which objects existed live and which changes were applied (evidence.ts).
   * Without it no declaration of an object absent live is removed.
   */
  evidence?: AdoptEvidence;
}

const GIT_KINDS = new Set(["Subgroup", "Repository", "Mirror"]);

/** Compute the adoption of a drift plan (reads the manifest files; writes nothing). */
export function adopt(input: AdoptInput): AdoptResult {
  const cwd = input.cwd ?? process.cwd();
  // What adoption cannot prove live did (a declaration not applied yet) it leaves alone.
  const { plan, held } = sortByEvidence(input.plan, input.evidence);
  const inputs: ManifestInput[] = input.files.map((file) => ({
    file,
    content: readFileSync(resolve(cwd, file), "utf8"),
    config: CONFIG_NAMES.includes(basename(file)),
  }));
  const changed = changedSinceLoad(input.state, inputs);
  const texts = new Map<string, FileText>();
  const docFile = new Map<string, FileText>();
  for (const i of inputs) {
    if (i.config) continue;
    const t = new FileText(i.file, String(i.content));
    texts.set(i.file, t);
    for (const id of t.ids()) if (!docFile.has(id)) docFile.set(id, t);
  }
  const failed = new Map<string, string>();
  const notAdoptable: NotAdoptable[] = [...held];
  const fileOf = new Map<PlanEntry, string>();
  const absent = new Set(plan.entries.filter(absentLive).map((e) => e.key));
  const gitGone = new Set<string>();
  const organization = input.state.config.organization ?? plan.organization;
  // Where layered values came from: only a config with layers is loaded again for it.
  const loaded = input.state.layerSources ? loadManifestTexts(inputs) : undefined;
  const layerNotes: LayerAdoption[] = [];
  for (const e of plan.entries) {
    const skip = (why: string) => notAdoptable.push({ key: e.key, kind: e.kind, why });
    const doc = documentOf(e.key);
    const t = doc ? docFile.get(doc) : undefined;
    if (!doc || !t) {
      skip("its declaration was not found in the manifests read");
      continue;
    }
    const credential = credentialIn(JSON.stringify([e.before, e.changes.map((c) => c.before)]));
    if (credential !== undefined) {
      // Written into a manifest it would be committed; masked it would be applied back.
      skip(`its live value holds ${credential}: remove it from the service, then adopt`);
      continue;
    }
    const ended = input.state.expiries?.get(e.key);
    if (ended?.expired && !absentLive(e)) {
      // Not drift to keep: the manifest ends it (`expires:`); adopting would grant it again.
      // (Its entry may go: `report access --propose` deletes the entries of ended grants.)
      skip(
        `expired on ${ended.expires} (${ended.source.file}:${ended.source.line}): apply removes it; to keep it, write a later expires`,
      );
      continue;
    }
    fileOf.set(e, t.file);
    if (changed.has(t.file) || failed.has(t.file) || t.removed(doc)) continue;
    if (GIT_KINDS.has(e.kind) && gitGone.has(doc)) continue;
    try {
      const layered = loaded ? layeredChanges(loaded, e) : new Map<FieldChange, LayeredChange>();
      // A layer whose selector names this object alone takes the live value itself.
      const intoLayer = [...layered.values()].filter((l) => l.alone);
      const unwritable = [...layered.values()].find(
        (l) => manifestValue(e.kind, l.change) === undefined,
      );
      if (unwritable) {
        fileOf.delete(e);
        skip(
          `Defaults ${unwritable.layer.name} gives ${unwritable.change.field} and live has none a manifest can write: change the layer by hand`,
        );
        continue;
      }
      const own = {
        ...e,
        changes: e.changes.filter((c) => !intoLayer.some((l) => l.change === c)),
      };
      // A list entry gone live that a layer gives: out of the layer, or a tombstone.
      const list = loaded && absentLive(e) ? listAdoption(loaded, e) : undefined;
      const placed =
        untombOps(e, t.value(doc)) ??
        (own.changes.length > 0 || e.changes.length === 0
          ? placeEntry(own, { organization, value: t.value(doc), absent })
          : []);
      if (!Array.isArray(placed)) {
        fileOf.delete(e);
        skip(placed.why);
        continue;
      }
      const layerOps: { t: FileText; id: string; op: Op }[] = [];
      const layerText = (name: string) => {
        const lt = docFile.get(docId("Defaults", name));
        if (lt && changed.has(lt.file))
          throw new EditError(`${lt.file} changed since phctl read it`);
        if (!lt) throw new EditError(`Defaults ${name} was not found`);
        return lt;
      };
      for (const l of intoLayer) {
        const lt = layerText(l.layer.name);
        const path = l.at.map((x) => (typeof x === "number" ? x : String(x)));
        const op: Op = { op: "set", path, value: manifestValue(e.kind, l.change) };
        layerOps.push({ t: lt, id: docId("Defaults", l.layer.name), op });
        layerNotes.push(layerAdoption(e, l, "layer", lt.file));
      }
      if (list?.into === "layer")
        for (const g of list.layers) {
          const lt = layerText(g.layer.name);
          layerOps.push({ t: lt, id: docId("Defaults", g.layer.name), op: dropFromLayer(list, g) });
          layerNotes.push(listAdoptionNote(e, list, g, lt.file));
        }
      // A field the layer gives elsewhere: an override, even at the default (no key removed).
      const ops = placed.map((op, i): Op => {
        const l = placed.length === own.changes.length ? layered.get(own.changes[i]) : undefined;
        if (!l) return op;
        layerNotes.push(layerAdoption(e, l, "override", t.file));
        return op.op === "unset"
          ? { op: "set", path: op.path, value: manifestValue(e.kind, l.change) }
          : op;
      });
      const ownWrites = e.changes.length > 0 ? own.changes.length > 0 : list?.own !== false;
      if (!ownWrites && layerOps.length > 0) fileOf.set(e, layerOps[0].t.file);
      for (const op of ops) t.apply(doc, op);
      if (list?.into === "tombstone") {
        for (const op of tombstoneOps(list.place, t.value(doc))) t.apply(doc, op);
        layerNotes.push(listAdoptionNote(e, list, list.named, t.file));
      }
      for (const { t: lt, id, op } of layerOps) lt.apply(id, op);
      if (e.kind === "GitGroup" && absentLive(e)) gitGone.add(doc);
    } catch (err) {
      if (!(err instanceof EditError)) throw err;
      failed.set(t.file, `cannot be edited in place (${err.message})`);
    }
  }
  for (const [file, t] of texts) {
    if (failed.has(file) || changed.has(file)) continue;
    try {
      t.check();
    } catch (err) {
      if (!(err instanceof EditError)) throw err;
      failed.set(file, err.message);
    }
  }
  for (const file of changed) failed.set(file, "changed since phctl read it");
  settle(input, inputs, texts, fileOf, failed);
  const { adopted, refused } = splitByFile(fileOf.keys(), fileOf, failed);
  notAdoptable.push(...refused);
  const files: AdoptedFile[] = [];
  for (const [file, t] of texts) {
    if (failed.has(file)) continue;
    const after = t.text();
    if (after !== t.original) files.push({ file, before: t.original, after });
  }
  const done = new Set(adopted.map((e) => e.key));
  return {
    adopted,
    fileOf,
    files,
    notAdoptable: [...notAdoptable, ...unmanagedEntries(input.plan)],
    layers: layerNotes.filter((n) => done.has(n.key)),
  };
}
