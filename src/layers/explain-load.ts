/**
 * The load behind `phctl explain`: only what can give the object values — phctl.yaml (its
 * organization is what selectors match), every document of kind Defaults, and the object's
 * own document — is parsed, checked and merged. A file that names neither `Defaults` nor the
 * object is never parsed: one repository of a 20,000-repository config is explained in a
 * fraction of a full load (issue 28 asks ≤ 0.5 s at size L). Cross-reference rules are
 * `validate`'s: explain reports the problems of the documents it reads.
 */
import type { ValidDoc } from "../manifest/check.js";
import { collectDocuments, type LoadOptions, type ManifestInput } from "../manifest/load.js";
import { repositoryEntryKey } from "./shape.js";
import type { Diagnostic } from "../manifest/types.js";
import { applyLayers, type LayeredObject, type LayerSummary } from "./effective.js";
import type { ExplainTarget } from "./explain.js";

/** One object and the layers, loaded for explain. */
export interface ExplainLoad {
  /** The object's effective document; undefined: no such object in the config. */
  doc?: ValidDoc;
  layered?: LayeredObject;
  layers: LayerSummary[];
  /** Problems of the documents read (a selector that matches nothing is not one here). */
  diagnostics: Diagnostic[];
}

const bytesOf = (i: ManifestInput) =>
  typeof i.content === "string" ? Buffer.from(i.content, "utf8") : Buffer.from(i.content);

/** A byte that may be part of a name: `p7` in `p70` is not the name `p7`. */
const NAME_BYTE = /[A-Za-z0-9._-]/;
const namePart = (b: Buffer, at: number) =>
  at >= 0 && at < b.length && NAME_BYTE.test(String.fromCharCode(b[at]));

/** Whether `name` occurs in `b` as a whole word (quoted or not). */
function holdsWord(b: Buffer, name: string): boolean {
  const n = Buffer.byteLength(name);
  for (let at = b.indexOf(name); at >= 0; at = b.indexOf(name, at + 1))
    if (!namePart(b, at - 1) && !namePart(b, at + n)) return true;
  return false;
}

/**
 * Whether a file may hold a Defaults document or the object named `name`. A file not in
 * UTF-8 (a byte-order mark, NUL bytes of UTF-16) cannot be searched as bytes: it is read.
 */
function mayMatter(i: ManifestInput, name: string): boolean {
  if (i.config) return true;
  const b = bytesOf(i);
  if (b.includes(0) || b[0] === 0xef || b[0] === 0xfe || b[0] === 0xff) return true;
  return holdsWord(b, "Defaults") || holdsWord(b, name);
}

/** Load the target's object and every layer from `inputs` (see the module comment). */
export function loadForExplain(
  inputs: readonly ManifestInput[],
  target: ExplainTarget,
  opts: LoadOptions = {},
): ExplainLoad {
  const read = collectDocuments(
    inputs.filter((i) => mayMatter(i, target.name)),
    opts,
  );
  const mine = read.valid.filter(
    (d) => d.kind === "Defaults" || (d.kind === target.kind && d.name === target.name),
  );
  const layers = applyLayers(mine, read.config);
  const layered = layers.layered.get(`${target.kind}/${target.name}`);
  const doc = layered?.doc ?? layers.docs.find((d) => d.kind === target.kind);
  return {
    ...(doc ? { doc } : {}),
    ...(layered ? { layered } : {}),
    layers: layers.layers,
    // Other objects were not read: "matches nothing" would be untrue.
    diagnostics: [
      ...read.diagnostics,
      ...layers.diagnostics.filter((d) => d.code !== "selector-matches-nothing"),
    ],
  };
}

/** Every key explain takes of the config (for did-you-mean): objects and their repositories. */
export function explainKeys(inputs: readonly ManifestInput[], opts: LoadOptions = {}): string[] {
  const keys: string[] = [];
  for (const d of collectDocuments(inputs, opts).valid) {
    if (d.kind !== "Project" && d.kind !== "User" && d.kind !== "Team") continue;
    const top = `${d.kind.toLowerCase()}/${d.name}`;
    keys.push(top);
    const git = (d.value.spec as { git?: { repositories?: unknown[] } }).git;
    for (const r of git?.repositories ?? [])
      if (r && typeof r === "object" && typeof (r as { name?: unknown }).name === "string")
        keys.push(`${top}/repo/${repositoryEntryKey(r as Record<string, unknown>)}`);
  }
  return keys;
}
