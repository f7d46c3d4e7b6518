/**
 * Strict responses: every 2xx answer phctl relies on is checked before anything reads it,
 * so a service shaped differently stops the run with a `ResponseShapeError` naming the
 * operation and field — never an empty list, never a planned create.
 *
 * - Paged lists: the array at the profile's `envelope.list.items`; the pagination object
 *   (unless the profile says the service does not page) with a numeric `limit` and a
 *   numeric `totalPages` or `total` (`page` and `total` must be numbers when present).
 * - Queued operations: a job id under one of the profile's `queue.id` names (the organization-
 *   access add of an admin answers `{status}` at once, as the route table allows).
 * - Everything else phctl reads — every GET and the creates whose answer a kind reads —
 *   against the route table's schema, extra fields allowed, and with the fields phctl never
 *   reads (record timestamps, avatars, …: `UNREAD`) optional. Other writes' answers are not
 *   read, so they are not checked: a write that landed must not fail the run on its echo.
 *
 * Checkers are compiled lazily, once per operation (ajv itself is loaded on first use).
 * Answers come out in the canonical shape (envelope.ts), whatever the profile.
 */
import { findQueueId, getPath, isObject, pointerOf, type CanonicalPage } from "./envelope.js";
import { DEFAULT_PROFILE, type ApiProfile } from "./profile.js";
import type { RouteDef } from "./route-def.js";
import { routes, type OperationId } from "./routes.js";
import { describeValue, ResponseShapeError, type Mismatch } from "./shape-error.js";
import { checkAt, reliesOn } from "./strict-schema.js";
import { guessArray, guessNumber, guessObject, guessQueueId } from "./strict-guess.js";

export { clientSchema, reliesOn } from "./strict-schema.js";

interface Inspected {
  canonical: unknown;
  mismatches: Mismatch[];
}

function inspectPage(
  op: OperationId,
  body: unknown,
  profile: ApiProfile,
  checkItems = true,
): Inspected {
  const list = profile.list;
  const mismatches: Mismatch[] = [];
  const top = isObject(body) ? Object.keys(body) : undefined;
  const items = getPath(body, list.items);
  if (!Array.isArray(items)) {
    const suggestion = guessArray(body);
    mismatches.push({
      operation: op,
      path: pointerOf(list.items),
      expected: "an array",
      got: describeValue(items),
      ...(top ? { had: top } : {}),
      setting: "envelope.list.items",
      ...(suggestion ? { suggestion } : {}),
    });
  }
  let pagination: CanonicalPage["pagination"];
  if (list.pagination !== null) {
    const at = pointerOf(list.pagination);
    const p = getPath(body, list.pagination);
    if (!isObject(p)) {
      const suggestion = guessObject(body, list.items);
      mismatches.push({
        operation: op,
        path: at,
        expected: `an object (${list.fields.limit}, ${list.fields.totalPages}, …)`,
        got: describeValue(p),
        ...(top ? { had: top } : {}),
        setting: "envelope.list.pagination",
        ...(suggestion ? { suggestion } : {}),
      });
    } else {
      const r = readPagination(op, p, at, profile);
      mismatches.push(...r.mismatches);
      pagination = r.pagination;
    }
  }
  if (mismatches.length > 0) return { canonical: undefined, mismatches };
  const data = items as unknown[];
  for (let i = 0; checkItems && i < data.length; i++) {
    const m = checkAt(op, data[i], `${pointerOf(list.items)}/${i}`);
    if (m) return { canonical: undefined, mismatches: [m] };
  }
  // A service that gives no item count: the count of this answer (nothing reads it).
  if (pagination && pagination.total < 0) pagination.total = data.length;
  return { canonical: pagination ? { pagination, data } : { data }, mismatches };
}

function readPagination(
  op: OperationId,
  p: Record<string, unknown>,
  at: string,
  profile: ApiProfile,
): { pagination?: NonNullable<CanonicalPage["pagination"]>; mismatches: Mismatch[] } {
  const f = profile.list.fields;
  const mismatches: Mismatch[] = [];
  // A field guessed for one name is not offered for another: `pageSize` is the limit, so
  // it is not also a candidate for the number of pages.
  const guessed: string[] = [];
  const num = (name: keyof typeof f, required: boolean): number | undefined => {
    const v = p[f[name]];
    if (typeof v === "number" && Number.isFinite(v)) return v;
    if (v === undefined && !required) return undefined;
    const suggestion = guessNumber(p, name, [...Object.values(f), ...guessed]);
    if (suggestion) guessed.push(suggestion);
    mismatches.push({
      operation: op,
      path: `${at}/${f[name]}`,
      expected: "a number",
      got: describeValue(v),
      ...(v === undefined ? { had: Object.keys(p) } : {}),
      setting: `envelope.list.pageFields.${name}`,
      ...(suggestion ? { suggestion } : {}),
    });
    return undefined;
  };
  const limit = num("limit", true);
  const total = num("total", false);
  const page = num("page", false);
  const totalPages = num("totalPages", total === undefined);
  if (mismatches.length > 0 || limit === undefined) return { mismatches };
  const pages = totalPages ?? (limit > 0 ? Math.ceil((total ?? 0) / limit) : 1);
  return {
    mismatches,
    pagination: { page: page ?? 1, limit, total: total ?? -1, totalPages: pages },
  };
}

function inspectQueued(op: OperationId, body: unknown, profile: ApiProfile): Inspected {
  const def = routes[op] as RouteDef;
  const many = (def.response as { type?: unknown }).type === "array";
  const one: unknown = many ? (Array.isArray(body) ? body[0] : undefined) : body;
  const id = findQueueId(one, profile.queueId);
  if (id !== undefined) {
    const add = (a: unknown) => (isObject(a) ? { ...a, queueid: id } : a);
    return { canonical: many ? (body as unknown[]).map(add) : add(body), mismatches: [] };
  }
  // An answer that took effect at once (`{status}`), where the table allows one.
  const immediate = ((def.response as { anyOf?: { properties?: object }[] }).anyOf ?? []).some(
    (b) => b.properties !== undefined && "status" in b.properties,
  );
  if (immediate && isObject(one) && isObject(one.status))
    return { canonical: body, mismatches: [] };
  const name = profile.queueId[0];
  const suggestion = guessQueueId(one);
  return {
    canonical: undefined,
    mismatches: [
      {
        operation: op,
        path: `${many ? "/0" : ""}/${name}`,
        expected: "a job id (a string)",
        got: describeValue(isObject(one) ? one[name] : one),
        ...(isObject(one) ? { had: Object.keys(one) } : {}),
        setting: "queue.id",
        ...(suggestion ? { suggestion } : {}),
      },
    ],
  };
}

function inspect(op: OperationId, body: unknown, profile: ApiProfile): Inspected {
  const def = routes[op] as RouteDef;
  switch (reliesOn(op)) {
    case "nothing":
      return { canonical: body, mismatches: [] };
    case "queue id":
      return inspectQueued(op, body, profile);
    case "all": {
      if (def.paging) return inspectPage(op, body, profile);
      const m = checkAt(op, body, "");
      return { canonical: body, mismatches: m ? [m] : [] };
    }
  }
}

/**
 * Every way an operation's answer does not fit what phctl reads ([] when it fits), for a
 * probe such as `phctl doctor`; `profileFixFor` (shape-error.ts) gives each one's fix.
 */
export function checkResponse(
  op: OperationId,
  body: unknown,
  profile: ApiProfile = DEFAULT_PROFILE,
): Mismatch[] {
  return inspect(op, body, profile).mismatches;
}

/**
 * One page of a paged operation in the canonical shape (`checkItems: false`: the envelope
 * only, for `phctl api --paginate`), or a `ResponseShapeError`.
 */
export function readPage(
  op: OperationId,
  body: unknown,
  profile: ApiProfile,
  checkItems = true,
): CanonicalPage {
  const r = inspectPage(op, body, profile, checkItems);
  if (r.mismatches.length > 0) throw new ResponseShapeError(r.mismatches, profile.file);
  return r.canonical as CanonicalPage;
}

/** The answer in the canonical shape, or a `ResponseShapeError` when it does not fit. */
export function acceptResponse(op: OperationId, body: unknown, profile: ApiProfile): unknown {
  const r = inspect(op, body, profile);
  if (r.mismatches.length > 0) throw new ResponseShapeError(r.mismatches, profile.file);
  return r.canonical;
}
