/**
 * Guesses, from an answer that did not fit, of the profile value that would make it fit:
 * the one array field of a list answer, the one object with numbers beside it, the numeric
 * pagination field whose name looks right, the one string field of a queued answer. A guess
 * is offered only when it is the single plausible candidate.
 */
import { isObject } from "./envelope.js";

/** The single field holding an array (top level, or one level down as `a.b`). */
export function guessArray(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const found: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    if (Array.isArray(v)) found.push(k);
    else if (isObject(v))
      for (const [k2, v2] of Object.entries(v)) if (Array.isArray(v2)) found.push(`${k}.${k2}`);
  }
  return found.length === 1 ? found[0] : undefined;
}

/**
 * The single object with numeric fields beside the list (the pagination object), or `null`
 * when the answer has no other object at all (a service that does not page).
 */
export function guessObject(body: unknown, itemsPath: string): string | undefined {
  if (!isObject(body)) return undefined;
  const itemsTop = itemsPath.split(".")[0];
  const objects = Object.entries(body).filter(([k, v]) => k !== itemsTop && isObject(v));
  const numeric = objects.filter(([, v]) =>
    Object.values(v as object).some((x) => typeof x === "number"),
  );
  if (numeric.length === 1) return numeric[0][0];
  return objects.length === 0 ? "null" : undefined;
}

const LOOKS: Record<"page" | "limit" | "total" | "totalPages", RegExp> = {
  page: /^(page|current|number|pageNumber|pageIndex)$/i,
  limit: /size|limit|per_?page/i,
  total: /^(total|count|totalItems|totalCount|totalElements|itemCount)$/i,
  // Not /pages/ anywhere: `pageSize` has it.
  totalPages: /pages$|^pages|page_?count/i,
};

/**
 * The numeric field of a pagination object that looks like `name`, unclaimed by others
 * (the profile's names of the other fields, and the fields already guessed for them).
 */
export function guessNumber(
  p: Record<string, unknown>,
  name: keyof typeof LOOKS,
  claimed: readonly string[],
): string | undefined {
  const free = Object.entries(p)
    .filter(([k, v]) => typeof v === "number" && !claimed.includes(k))
    .map(([k]) => k);
  const like = free.filter((k) => LOOKS[name].test(k));
  return like.length === 1 ? like[0] : undefined;
}

const NOT_AN_ID = new Set(["code", "description", "message", "status"]);

/** The single string field of a queued answer that could be the job id. */
export function guessQueueId(one: unknown): string | undefined {
  if (!isObject(one)) return undefined;
  const strings = Object.entries(one)
    .filter(([k, v]) => typeof v === "string" && v.length > 0 && !NOT_AN_ID.has(k))
    .map(([k]) => k);
  if (strings.length === 1) return strings[0];
  const ids = strings.filter((k) => /id$/i.test(k));
  return ids.length === 1 ? ids[0] : undefined;
}
