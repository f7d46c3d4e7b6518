/**
 * `plan --base`: load the head manifests and the base checkout's together, without the
 * API. A pull request changes few files, so a base file with the same bytes as a head file
 * is not read twice: its documents (parsed and schema-checked once) are taken over under
 * the base file's name. Layers, cross-reference rules and normalisation run on each side whole
 * (settleDocuments), so each state is exactly what `loadManifests` would make of it.
 */
import { createHash } from "node:crypto";
import type { ValidDoc } from "../manifest/check.js";
import { collectDocuments, readInputs, type ManifestInput } from "../manifest/load.js";
import { settleDocuments } from "../pipeline/load.js";
import type { DocHandle } from "../manifest/positions.js";
import type { Diagnostic } from "../manifest/types.js";
import type { LoadResult } from "../pipeline/types.js";

/** What one manifest file gave: its valid documents and its own diagnostics. */
interface FileResult {
  valid: ValidDoc[];
  diagnostics: Diagnostic[];
}

const digest = (i: ManifestInput) => createHash("sha1").update(i.content).digest("hex");

/** The same document, its positions named in another file (same bytes, another checkout). */
function renamed(h: DocHandle, file: string): DocHandle {
  return {
    file,
    sourceAt: (offset) => ({ ...h.sourceAt(offset), file }),
    get start() {
      return { ...h.start, file };
    },
    at: (path, which) => ({ ...h.at(path, which), file }),
  };
}

function reuse(r: FileResult, file: string): FileResult {
  return {
    valid: r.valid.map((d) => ({ ...d, handle: renamed(d.handle, file) })),
    diagnostics: r.diagnostics.map((d) => ({ ...d, file })),
  };
}

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of xs) {
    const list = out.get(key(x));
    if (list) list.push(x);
    else out.set(key(x), [x]);
  }
  return out;
}

/**
 * Load `inputs` (as loadManifests does), taking files whose content `known` holds from it;
 * returns the result and what each file gave, by content.
 */
function loadWith(
  inputs: readonly ManifestInput[],
  extra: readonly Diagnostic[],
  known: ReadonlyMap<string, FileResult>,
): { result: LoadResult; byContent: Map<string, FileResult> } {
  const keys = new Map(inputs.map((i) => [i, i.config ? "" : digest(i)]));
  const fresh = new Set(inputs.filter((i) => i.config || !known.has(keys.get(i)!)));
  const collected = collectDocuments([...fresh]);
  const validByFile = groupBy(collected.valid, (d) => d.handle.file);
  const diagnosticsByFile = groupBy(collected.diagnostics, (d) => d.file);
  const byContent = new Map<string, FileResult>();
  const valid: ValidDoc[] = [];
  const diagnostics: Diagnostic[] = [...collected.diagnostics];
  for (const i of inputs) {
    if (i.config) continue;
    const key = keys.get(i)!;
    const before = fresh.has(i) ? undefined : known.get(key);
    const r = before
      ? reuse(before, i.file)
      : { valid: validByFile.get(i.file) ?? [], diagnostics: diagnosticsByFile.get(i.file) ?? [] };
    if (before) diagnostics.push(...r.diagnostics);
    valid.push(...r.valid);
    byContent.set(key, r);
  }
  const all = { config: collected.config, valid, diagnostics };
  const files = inputs.map((i) => i.file);
  return { result: settleDocuments(all, files, { extra }), byContent };
}

/**
 * The head manifests under `paths`, the base config under `baseDir` and, given
 * `appliedDir`, the config of the last applied commit (files of the same bytes read once).
 */
export async function loadHeadAndBase(
  paths: readonly string[],
  baseDir: string,
  cwd: string = process.cwd(),
  appliedDir?: string,
): Promise<{ head: LoadResult; base: LoadResult; applied?: LoadResult }> {
  const [h, b, a] = await Promise.all([
    readInputs(paths, cwd),
    readInputs([baseDir], cwd),
    appliedDir === undefined ? undefined : readInputs([appliedDir], cwd),
  ]);
  const head = loadWith(h.inputs, h.diagnostics, new Map());
  const base = loadWith(b.inputs, b.diagnostics, head.byContent);
  if (!a) return { head: head.result, base: base.result };
  const known = new Map([...head.byContent, ...base.byContent]);
  const applied = loadWith(a.inputs, a.diagnostics, known);
  return { head: head.result, base: base.result, applied: applied.result };
}
