/** Configs for the layers' tests: documents as data, loaded from text like any config. */
import { stringify } from "yaml";
import { type ManifestInput } from "../../src/manifest/load.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import type { LoadResult } from "../../src/pipeline/types.js";

export type Doc = Record<string, unknown>;

export const project = (name: string, spec: Doc = {}, labels?: Record<string, string>): Doc => ({
  apiVersion: "phctl/v1",
  kind: "Project",
  metadata: { name, ...(labels ? { labels } : {}) },
  spec: { title: name.toUpperCase(), access: { admins: ["jdoe"] }, ...spec },
});

export const user = (name: string, spec: Doc = {}): Doc => ({
  apiVersion: "phctl/v1",
  kind: "User",
  metadata: { name },
  spec: { firstName: "F", lastName: "L", externalEmail: `${name}@example.org`, ...spec },
});

export const team = (name: string, spec: Doc = {}): Doc => ({
  apiVersion: "phctl/v1",
  kind: "Team",
  metadata: { name },
  spec,
});

export const defaults = (name: string, spec: Doc): Doc => ({
  apiVersion: "phctl/v1",
  kind: "Defaults",
  metadata: { name },
  spec,
});

/** Files of documents (`---` between them). */
export const file = (name: string, ...docs: Doc[]): ManifestInput => ({
  file: name,
  content: docs.map((d) => stringify(d)).join("---\n"),
});

export const load = (...inputs: ManifestInput[]): LoadResult => loadManifestTexts(inputs);

/** The effective spec of `Kind/name` (its own, when no layer touched it). */
export function effective(r: LoadResult, key: string): Doc | undefined {
  const layered = r.layers?.layered.get(key);
  if (layered) return (layered.doc.value as { spec: Doc }).spec;
  return undefined;
}

/** Diagnostics as `file:line code message`, for assertions. */
export const lines = (r: LoadResult) =>
  r.diagnostics.map((d) => `${d.file}:${d.line} ${d.severity} ${d.code} ${d.message}`);

/**
 * A load result as plain data: the layers' handles and the state's source lookup are
 * functions of the reader that made them, so they are compared by what they give.
 */
export function comparable(r: LoadResult): unknown {
  return {
    ...r,
    state: r.state && { ...r.state, layerSources: undefined },
    layers: r.layers && {
      layers: r.layers.layers,
      diagnostics: r.layers.diagnostics,
      effective: [...r.layers.layered].map(([k, o]) => [k, o.doc.value]),
    },
  };
}
