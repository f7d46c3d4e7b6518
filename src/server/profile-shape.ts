/**
 * The reference server speaking an API profile (`phctl serve --api-profile FILE`): the
 * handlers keep working in the route table's shape, and this module translates at the
 * edge — paging query parameters in (the profile's names → `page`, `limit`, `all`; a
 * service that does not page answers everything at once), paged lists and queued answers
 * out (the profile's list envelope, pagination names and queue id field). The routes
 * themselves come from the profile's effective route table (app.ts).
 */
import {
  isObject,
  renamePageQuery,
  toProfileList,
  toProfileQueued,
  type CanonicalPage,
} from "../api/envelope.js";
import { DEFAULT_LIST, type ApiProfile } from "../api/profile.js";
import type { RouteDef } from "../api/route-def.js";

/** True when the profile changes nothing the handlers see or answer. */
export function shapesNothing(profile: ApiProfile): boolean {
  const l = profile.list;
  return (
    l.items === DEFAULT_LIST.items &&
    l.pagination === DEFAULT_LIST.pagination &&
    JSON.stringify(l.fields) === JSON.stringify(DEFAULT_LIST.fields) &&
    JSON.stringify(l.query) === JSON.stringify(DEFAULT_LIST.query) &&
    profile.queueId[0] === "queueid"
  );
}

/** A paged route's query with the profile's paging names renamed back (before validation). */
export function canonicalQuery(
  def: RouteDef,
  query: Record<string, unknown>,
  profile: ApiProfile,
): Record<string, unknown> {
  return def.paging ? renamePageQuery(query, profile.list.query, DEFAULT_LIST.query) : query;
}

/** The profile's names of the paging query parameters, by canonical name (for error fields). */
export function profileQueryNames(profile: ApiProfile): Record<string, string> {
  const q = profile.list.query;
  const d = DEFAULT_LIST.query;
  return { [d.page]: q.page, [d.limit]: q.limit, [d.all]: q.all };
}

/** A paged route's validated query: everything at once when the profile's service does not page. */
export function pagingOf(
  def: RouteDef,
  query: Record<string, unknown>,
  profile: ApiProfile,
): Record<string, unknown> {
  return def.paging && profile.list.pagination === null ? { ...query, all: true } : query;
}

/** A handler's answer in the profile's shape (lists and queued answers; others as they are). */
export function shapeAnswer(def: RouteDef, body: unknown, profile: ApiProfile): unknown {
  if (def.paging && isObject(body) && Array.isArray(body.data))
    return toProfileList(body as unknown as CanonicalPage, profile.list);
  if (def.queue) return toProfileQueued(body, profile);
  return body;
}
