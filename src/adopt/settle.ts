/**
 * The last check of `drift --adopt` before anything is written (see index.ts): the config
 * loaded as it would be written, each file that would make it invalid or that would not
 * declare an adopted entry as live has it left out, until what is left checks; and the
 * entries whose files are written (adopted) against those of files left out (not adopted).
 */
import { type ManifestInput } from "../manifest/load.js";
import { loadManifestTexts } from "../pipeline/load.js";
import type { PlanEntry } from "../engine/plan.js";
import type { DesiredState } from "../manifest/types.js";
import type { FileText } from "./file-text.js";
import type { NotAdoptable } from "./unmanaged.js";
import { verifyAdoption } from "./verify.js";

/**
 * Load the config as it would be written and verify it; leave out each file that makes it
 * invalid or holds a mismatch, and check again, until what is left checks.
 */
export function settle(
  input: { state: DesiredState },
  inputs: readonly ManifestInput[],
  texts: ReadonlyMap<string, FileText>,
  fileOf: ReadonlyMap<PlanEntry, string>,
  failed: Map<string, string>,
): void {
  for (let round = 0; round <= texts.size; round++) {
    const edited = inputs.flatMap((i): ManifestInput[] => {
      const t = texts.get(i.file);
      if (!t || failed.has(i.file)) return [i];
      const text = t.text();
      return text === undefined ? [] : [{ ...i, content: text }];
    });
    const loaded = loadManifestTexts(edited);
    const errors = loaded.diagnostics.filter((d) => d.severity === "error");
    let more = false;
    for (const d of errors)
      if (!failed.has(d.file) && texts.has(d.file)) {
        failed.set(d.file, `would not validate (${d.message})`);
        more = true;
      }
    if (more) continue;
    if (!loaded.state) {
      for (const file of texts.keys())
        if (!failed.has(file)) failed.set(file, `would not validate (${errors[0]?.message ?? ""})`);
      return;
    }
    const entries = [...fileOf].filter(([, f]) => !failed.has(f)).map(([e]) => e);
    // An adopted entry's mismatch names the file it was written to, wherever it is declared
    // (a layer's entry, say): that file is left out and the entry not adopted. Any other
    // object's names the file that declares it: one left as it is is not adoption's doing.
    const mismatches = verifyAdoption(input.state, loaded.state, entries, fileOf).filter(
      (m) => !failed.has(m.file),
    );
    for (const m of mismatches)
      if (m.file && texts.has(m.file) && !failed.has(m.file)) {
        failed.set(m.file, `would not declare ${m.key} as live has it (${m.problem})`);
        more = true;
      }
    if (more) continue;
    // A mismatch no file left to revert explains: write nothing at all.
    if (mismatches.length > 0)
      for (const file of texts.keys())
        if (!failed.has(file))
          failed.set(file, `not written: ${mismatches[0].key} would not be as live has it`);
    return;
  }
}

/**
 * The entries whose file is written, and those of refused files (with why): an entry is
 * adopted only when the file that declares it is written whole.
 */
export function splitByFile(
  entries: Iterable<PlanEntry>,
  fileOf: ReadonlyMap<PlanEntry, string>,
  failed: ReadonlyMap<string, string>,
): { adopted: PlanEntry[]; refused: NotAdoptable[] } {
  const adopted: PlanEntry[] = [];
  const refused: NotAdoptable[] = [];
  for (const e of entries) {
    const file = fileOf.get(e) ?? "";
    const why = failed.get(file);
    if (why === undefined) adopted.push(e);
    else
      refused.push({ key: e.key, kind: e.kind, why: `${file} ${why}; nothing was written to it` });
  }
  return { adopted, refused };
}
