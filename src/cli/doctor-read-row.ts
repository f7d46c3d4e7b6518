/**
 * One row of `phctl doctor`'s read table: an operation's answer — does it come, does it fit
 * what phctl reads (strict.ts), how many items — and for a paged list whether it pages:
 * page 1 and page 2 of limit 1 differ and agree on the total, and `all=true` brings every
 * item where the route table says the service supports it.
 */
import { ApiError } from "../api/errors.js";
import { getPath, type CanonicalPage } from "../api/envelope.js";
import type { OperationId } from "../api/routes.js";
import { profileFixFor, type Mismatch } from "../api/shape-error.js";
import { checkResponse, readPage } from "../api/strict.js";
import { BIG_PAGE } from "../api/paging.js";
import type { QueryValue } from "../api/request.js";
import type { ReadCheck, ShapeProblem } from "./doctor-report.js";
import { dataOf, ms, type Answer, type Prober, type Refusal } from "./doctor-probe.js";

export type Params = Record<string, string | number>;

const shapeOf = (m: Mismatch): ShapeProblem => {
  const fix = profileFixFor(m);
  return {
    path: m.path,
    expected: m.expected,
    got: m.got,
    ...(m.had ? { had: [...m.had] } : {}),
    ...(fix ? { profileFix: fix } : {}),
  };
};

/** The items of a fitting answer (a paged list's data, an array, or undefined). */
export function itemsOf(p: Prober, op: OperationId, body: unknown): unknown[] | undefined {
  if (p.route(op).paging) return readPage(op, body, p.profile).data;
  const d = dataOf(body);
  return Array.isArray(d) ? d : undefined;
}

/** The row of one answer: status, shape, items. */
function rowOf(p: Prober, op: OperationId, a: Answer | Refusal, params: Params): ReadCheck {
  const def = p.route(op);
  const base = {
    operation: op,
    ...(Object.keys(params).length ? { params } : {}),
    method: def.method,
    path: def.path,
    http: a.status,
    ms: Math.round(a.ms),
  };
  if (!a.ok) {
    const e = a.error;
    const text =
      e instanceof ApiError
        ? `${e.status > 0 ? `${e.status} ${e.code}: ` : ""}${e.serverMessage}`
        : e.message;
    const shape: ShapeProblem[] =
      a.status === 404 || a.status === 405
        ? [
            {
              path: "",
              expected: `${def.method} ${def.path} to exist`,
              got: `${a.status}`,
              profileFix: `operations.${op}.path: <the service's path for ${def.path}>`,
            },
          ]
        : [];
    return {
      ...base,
      status: "fail",
      detail: text,
      ...(shape.length ? { shape } : {}),
    };
  }
  const mismatches = checkResponse(op, a.body, p.profile);
  if (mismatches.length > 0)
    return {
      ...base,
      status: "fail",
      detail: "answers, but does not fit",
      shape: mismatches.map(shapeOf),
    };
  const items = itemsOf(p, op, a.body);
  return {
    ...base,
    status: "ok",
    detail: `fits${items ? `, ${items.length} item${items.length === 1 ? "" : "s"}` : ""}, ${ms(a.ms)}`,
    ...(items ? { items: items.length } : {}),
  };
}

/** page 1 and page 2 of limit 1, and all=true, of a paged operation that fits. */
async function pagingOf(
  p: Prober,
  op: OperationId,
  params: Params,
  first: Answer,
): Promise<ReadCheck["paging"]> {
  const q = p.profile.list.query;
  const whole = readPage(op, first.body, p.profile);
  const total = whole.pagination?.total ?? whole.data.length;
  // A service may give no item count (strict.ts then counts this answer): not compared.
  const pager = p.profile.list.pagination;
  const counted =
    pager !== null &&
    typeof field(getPath(first.body, pager), p.profile.list.fields.total) === "number";
  const out: NonNullable<ReadCheck["paging"]> = { detail: "" };
  const notes: string[] = counted
    ? []
    : [
        `no ${pager === null ? "pagination" : `${pager}.${p.profile.list.fields.total}`}: totals not compared`,
      ];
  if (p.route(op).paging?.all) {
    const all = counted && whole.data.length < total;
    out.all = all ? "fail" : "ok";
    notes.push(
      all
        ? `${q.all}=true brought ${whole.data.length} of ${total}: the service ignores it`
        : `${q.all}=true ok`,
    );
  }
  if (total < 2) {
    out.pageLimit = "skip";
    notes.push("page/limit not checked (fewer than 2 items)");
  } else {
    const page = async (n: number): Promise<CanonicalPage | string> => {
      const a = await p.get(op, params, { [q.page]: n, [q.limit]: 1 });
      if (!a.ok) return `page ${n}: ${a.status}`;
      if (checkResponse(op, a.body, p.profile).length > 0) return `page ${n} does not fit`;
      return readPage(op, a.body, p.profile);
    };
    const [one, two] = [await page(1), await page(2)];
    const why =
      typeof one === "string"
        ? one
        : typeof two === "string"
          ? two
          : one.data.length !== 1 || two.data.length !== 1
            ? `${q.limit}=1 gave ${one.data.length} and ${two.data.length} items`
            : JSON.stringify(one.data[0]) === JSON.stringify(two.data[0])
              ? `pages 1 and 2 hold the same item (${q.page} ignored?)`
              : counted && one.pagination && one.pagination.total !== total
                ? `total ${one.pagination.total} with ${q.limit}=1, ${total} without`
                : undefined;
    out.pageLimit = why ? "fail" : "ok";
    notes.push(why ? `paging: ${why}` : `${q.page}/${q.limit} ok (total ${total})`);
  }
  out.detail = notes.join("; ");
  return out;
}

/** The paging query plan uses for a list: `all=true` where supported, else a big page. */
export function mainQuery(p: Prober, op: OperationId): Record<string, QueryValue> {
  const paging = p.route(op).paging;
  const q = p.profile.list.query;
  if (!paging) return {};
  return paging.all ? { [q.all]: true } : { [q.page]: 1, [q.limit]: BIG_PAGE };
}

/** The rows so far, and how to add one. */
export class Reads {
  readonly rows: ReadCheck[] = [];
  constructor(readonly p: Prober) {}

  /** Call an operation once as a row (paged lists as plan reads them, then their paging). */
  async row(
    op: OperationId,
    params: Params = {},
    query: Record<string, QueryValue> = {},
  ): Promise<unknown[] | undefined> {
    return this.record(
      op,
      await this.p.get(op, params, { ...query, ...mainQuery(this.p, op) }),
      params,
    );
  }

  /** Add the row of an answer; the items of a fitting answer, for the next probes. */
  async record(
    op: OperationId,
    a: Answer | Refusal,
    params: Params,
  ): Promise<unknown[] | undefined> {
    const r = rowOf(this.p, op, a, params);
    this.rows.push(r);
    if (!a.ok || r.status !== "ok") return undefined;
    if (this.p.route(op).paging) {
      const paging = await pagingOf(this.p, op, params, a);
      if (paging) r.paging = paging;
      if (paging?.pageLimit === "fail" || paging?.all === "fail") r.status = "fail";
    }
    return itemsOf(this.p, op, a.body);
  }

  skip(op: OperationId, why: string): void {
    const def = this.p.route(op);
    this.rows.push({
      operation: op,
      method: def.method,
      path: def.path,
      status: "skip",
      detail: why,
    });
  }
}

export const field = (o: unknown, k: string): unknown =>
  o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined;
