/**
 * The profile lines doctor suggests (`envelope.list.items: items`, from strict.ts's
 * mismatches), applied to a profile in memory — so that doctor can read again as if the
 * administrator had written them, and name every fix in one run rather than one per run.
 */
import type { ApiProfile, ListEnvelope } from "../api/profile.js";

type PageField = keyof ListEnvelope["fields"];
const PAGE_FIELDS: readonly PageField[] = ["page", "limit", "total", "totalPages"];

/** Is this a line with a value doctor could guess (not `<the service's name>`)? */
export const concrete = (line: string) => !line.includes("<");

/**
 * The profile with the lines applied, or undefined when a line is not one of the shape
 * settings (an operation's path) or has no guessed value: nothing to try then.
 */
export function applyProfileFixes(
  profile: ApiProfile,
  lines: readonly string[],
): ApiProfile | undefined {
  let list: ListEnvelope = profile.list;
  let queueId = profile.queueId;
  for (const line of lines) {
    const i = line.indexOf(": ");
    const [key, value] = [line.slice(0, i), line.slice(i + 2)];
    if (i < 0 || !concrete(line)) return undefined;
    if (key === "envelope.list.items") list = { ...list, items: value };
    else if (key === "envelope.list.pagination")
      list = { ...list, pagination: value === "null" ? null : value };
    else if (key.startsWith("envelope.list.pageFields.")) {
      const f = key.slice("envelope.list.pageFields.".length) as PageField;
      if (!PAGE_FIELDS.includes(f)) return undefined;
      list = { ...list, fields: { ...list.fields, [f]: value } };
    } else if (key === "queue.id") queueId = [value, ...queueId.filter((n) => n !== value)];
    else return undefined;
  }
  return { ...profile, list, queueId };
}
