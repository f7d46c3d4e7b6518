/**
 * Moving answers and queries between the route table's shape (the canonical one: paged
 * lists are `{pagination: {page, limit, total, totalPages}, data}`, queued answers carry
 * `queueid`, paging parameters are `page`, `limit`, `all`) and a profile's shape. The
 * client reads a service's answers into the canonical shape (after strict.ts checked
 * them); the reference server writes its canonical answers out in the profile's shape.
 */
import type { ApiProfile, ListEnvelope } from "./profile.js";

type Obj = Record<string, unknown>;

export const isObject = (v: unknown): v is Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The value at a dotted path (`result.items`), or undefined. */
export function getPath(o: unknown, dotted: string): unknown {
  let cur = o;
  for (const k of dotted.split(".")) {
    if (!isObject(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** Set a value at a dotted path, making the objects on the way. */
export function setPath(o: Obj, dotted: string, value: unknown): void {
  const keys = dotted.split(".");
  let cur = o;
  for (const k of keys.slice(0, -1)) {
    const next = cur[k];
    cur = isObject(next) ? next : (cur[k] = {});
  }
  cur[keys[keys.length - 1]] = value;
}

/** A dotted path as a JSON pointer (`result.items` → `/result/items`). */
export const pointerOf = (dotted: string) =>
  `/${dotted
    .split(".")
    .map((k) => k.replace(/~/g, "~0").replace(/\//g, "~1"))
    .join("/")}`;

/** A paged answer in the canonical shape. */
export interface CanonicalPage {
  pagination?: { page: number; limit: number; total: number; totalPages: number };
  data: unknown[];
}

/** A canonical paged answer in the profile's envelope (the reference server's answers). */
export function toProfileList(answer: CanonicalPage, list: ListEnvelope): Obj {
  const out: Obj = {};
  setPath(out, list.items, answer.data);
  if (list.pagination !== null && answer.pagination) {
    const p = answer.pagination;
    const f = list.fields;
    setPath(out, list.pagination, {
      [f.page]: p.page,
      [f.limit]: p.limit,
      [f.total]: p.total,
      [f.totalPages]: p.totalPages,
    });
  }
  return out;
}

/** Rename the paging query parameters (`from` names → `to` names); others stay. */
export function renamePageQuery<V>(
  query: Readonly<Record<string, V>>,
  from: ListEnvelope["query"],
  to: ListEnvelope["query"],
): Record<string, V> {
  const out: Record<string, V> = {};
  const map = new Map<string, string>([
    [from.page, to.page],
    [from.limit, to.limit],
    [from.all, to.all],
  ]);
  for (const [k, v] of Object.entries(query)) out[map.get(k) ?? k] = v;
  return out;
}

/** The queue id of one queued answer object by the profile's names, or undefined. */
export function findQueueId(one: unknown, names: readonly string[]): string | undefined {
  if (!isObject(one)) return undefined;
  for (const n of names) {
    const id = one[n];
    if (typeof id === "string" && id.length > 0) return id;
  }
  return undefined;
}

/**
 * A canonical queued answer with the job id under the profile's name (the reference
 * server's answers): `queueid` / `queuid` become `profile.queueId[0]`.
 */
export function toProfileQueued(answer: unknown, profile: ApiProfile): unknown {
  const name = profile.queueId[0];
  const one = (a: unknown) => {
    if (!isObject(a)) return a;
    const { queueid, queuid, ...rest } = a;
    const id = queueid ?? queuid;
    return id === undefined ? a : { ...rest, [name]: id };
  };
  return Array.isArray(answer) ? answer.map(one) : one(answer);
}
