/**
 * Objects the config declares but that did not load (a schema error, a YAML error): a
 * selector that chooses none of the loaded objects may still choose one of these, so "the
 * selector matches nothing" would be untrue until the errors are fixed. A file-level error
 * (unparsable YAML, an unknown kind) may hide any object: it stands for every one.
 */
import type { Selector } from "../manifest/schema/selector.js";
import type { Diagnostic } from "../manifest/types.js";
import { globMatch } from "./selector.js";

/** One object that did not load: its kind and name when the error says them. */
export interface UnreadObject {
  kind?: string;
  name?: string;
}

const OBJECT_KINDS = new Set(["Project", "User", "Team", "Organization"]);

/** The objects the load's errors hide: one per erroneous object document (or file). */
export function unreadObjects(diagnostics: readonly Diagnostic[]): UnreadObject[] {
  const out: UnreadObject[] = [];
  const seen = new Set<string>();
  for (const d of diagnostics) {
    if (d.severity !== "error") continue;
    if (d.kind !== undefined && !OBJECT_KINDS.has(d.kind)) continue; // a Defaults or Policy
    const id = `${d.kind ?? ""}/${d.name ?? ""}/${d.kind === undefined ? d.file : ""}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({
      ...(d.kind !== undefined ? { kind: d.kind } : {}),
      ...(d.name !== undefined ? { name: d.name } : {}),
    });
  }
  return out;
}

/**
 * Whether `select` may choose one of `unread`: same kind (a project's for a Repository
 * selector) and, when both are known, a name its globs match. Labels and organizations of an
 * object that did not load are unknown: they may match.
 */
export function mayChooseUnread(select: Selector, unread: readonly UnreadObject[]): boolean {
  const kind = select.kind === "Repository" ? "Project" : select.kind;
  return unread.some(
    (u) =>
      (u.kind === undefined || u.kind === kind) &&
      (u.name === undefined || !select.names || select.names.some((g) => globMatch(g, u.name!))),
  );
}
