/**
 * The check that adoption did what it says, on the manifests as they would be written,
 * before anything is: loaded again, every declared object compared with the one before.
 * An adopted entry's object must now declare what live has (each changed field equal to its
 * live value, or no longer managed), an object absent live must be declared no more, a
 * live object added to a list must be declared with its live fields; every other object
 * must be declared exactly as before, or have gone with a declaration that went. Problems
 * name the file to leave as it was: for an adopted entry, the one adoption wrote it to —
 * not the one that declares it, which may be a layer's that adoption left as it was.
 */
import equal from "fast-deep-equal";
import { changedFields } from "../engine/diff.js";
import type { PlanEntry } from "../engine/plan.js";
import { desiredOf } from "../engine/scope.js";
import type { DesiredObject } from "../kinds/kind.js";
import type { DesiredState } from "../manifest/types.js";
import { absentLive } from "./place-common.js";

/** One object adoption did not bring where it should, and the file that declares it. */
export interface Mismatch {
  key: string;
  file: string;
  problem: string;
}

function byKey(state: DesiredState): Map<string, DesiredObject> {
  const out = new Map<string, DesiredObject>();
  for (const list of desiredOf(state).values()) for (const d of list) out.set(d.key, d);
  return out;
}

/** Keys whose declaration goes with the one of `key` (a project's children, a git group's content). */
function goesWith(key: string, removed: ReadonlySet<string>): boolean {
  for (const r of removed) {
    if (key.startsWith(`${r}/`)) return true;
    const group = /^(project\/[^/]+)\/group$/.exec(r);
    if (group && /^(subgroup|repo|mirror)\//.test(key.slice(group[1].length + 1))) return true;
    const sub = /^(project\/[^/]+)\/subgroup\/(.+)$/.exec(r);
    if (sub && key.startsWith(`${sub[1]}/repo/${sub[2]}/`)) return true;
  }
  return false;
}

/**
 * Compare the states before and after adopting `entries` (written to the files of
 * `written`); empty when all is as it should be.
 */
export function verifyAdoption(
  before: DesiredState,
  after: DesiredState,
  entries: readonly PlanEntry[],
  written: ReadonlyMap<PlanEntry, string> = new Map(),
): Mismatch[] {
  const was = byKey(before);
  const now = byKey(after);
  const fileOf = (key: string) =>
    now.get(key)?.source?.file ?? was.get(key)?.source?.file ?? after.sources.get(key)?.file ?? "";
  const out: Mismatch[] = [];
  const bad = (key: string, problem: string) => out.push({ key, file: fileOf(key), problem });
  const touched = new Set(entries.map((e) => e.key));
  const removed = new Set(entries.filter(absentLive).map((e) => e.key));
  for (const e of entries) {
    if (goesWith(e.key, removed)) continue;
    const d = now.get(e.key);
    const file = written.get(e) ?? fileOf(e.key);
    const wrong = (problem: string) => out.push({ key: e.key, file, problem });
    if (absentLive(e)) {
      // Declared elsewhere than where adoption wrote: what it could not change, said where.
      const src = d?.source;
      if (d)
        wrong(
          src && src.file !== file
            ? `still declared, by ${src.file}:${src.line}: change that by hand`
            : "still declared",
        );
    } else if (!d) wrong("not declared");
    else if (e.action === "delete") {
      if (changedFields(d.fields, e.before ?? {}).length > 0) wrong("declared unlike live");
    } else {
      const stays = e.changes.filter((c) => {
        const v = d.fields[c.field];
        return v !== undefined && !equal(v, c.before);
      });
      if (stays.length > 0) wrong(`${stays.map((c) => c.field).join(", ")} not as live`);
    }
  }
  for (const [key, d] of was) {
    if (touched.has(key) || goesWith(key, removed)) continue;
    const n = now.get(key);
    if (!n) bad(key, "no longer declared");
    else if (!equal(n.fields, d.fields)) bad(key, "declared differently");
  }
  for (const key of now.keys())
    if (!was.has(key) && !touched.has(key)) bad(key, "declared by adoption without a reason");
  return out;
}
