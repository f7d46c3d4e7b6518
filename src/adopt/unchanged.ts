/**
 * Has a manifest file changed since the plan's load? The files are read again for
 * adoption; each one whose declarations (objects and the places of their fields) differ
 * from those the plan was made from is left alone: its live values would overwrite edits
 * phctl never planned against.
 */
import { type ManifestInput } from "../manifest/load.js";
import { loadManifestTexts } from "../pipeline/load.js";
import type { DesiredState, Source } from "../manifest/types.js";

/** What a state declares, by file: its objects and the sources of its keys there (as JSON). */
function declaredByFile(state: DesiredState | undefined): Map<string, string> {
  const parts = new Map<string, unknown[]>();
  const add = (file: string, x: unknown) => {
    const list = parts.get(file);
    if (list) list.push(x);
    else parts.set(file, [x]);
  };
  if (!state) return new Map();
  for (const list of [state.organizations, state.users, state.teams, state.projects])
    for (const o of list as { source: Source }[]) add(o.source.file, o);
  for (const [key, s] of state.sources) add(s.file, [key, s]);
  return new Map([...parts].map(([file, xs]) => [file, JSON.stringify(xs)]));
}

/** The files of `inputs` whose declarations are not those of `state`. */
export function changedSinceLoad(
  state: DesiredState,
  inputs: readonly ManifestInput[],
): Set<string> {
  const now = loadManifestTexts(inputs).state;
  const was = declaredByFile(state);
  const is = declaredByFile(now);
  const changed = new Set<string>();
  const configChanged = !now || JSON.stringify(now.config) !== JSON.stringify(state.config);
  for (const i of inputs)
    if (!i.config && (configChanged || was.get(i.file) !== is.get(i.file))) changed.add(i.file);
  return changed;
}
