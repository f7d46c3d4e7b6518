/**
 * What the client checks an operation's answer against (strict.ts): the route table's
 * schema with extra fields allowed, the fields phctl never reads optional (`UNREAD`) and no
 * `$id`s; which answers are relied on at all (reads, queued answers' job ids, and the
 * creates whose record a kind reads); the checkers, compiled lazily once per operation.
 */
import { createRequire } from "node:module";
import type { TObject, TSchema } from "@sinclair/typebox";
import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import { isObject } from "./envelope.js";
import type { RouteDef } from "./route-def.js";
import { routes, type OperationId } from "./routes.js";
import * as S from "./schemas.js";
import type { Mismatch } from "./shape-error.js";
import { mismatchOfErrors } from "./strict-errors.js";

/** Fields of the API's records that phctl never reads: a service may leave them out. */
const UNREAD: readonly (readonly [TObject, readonly string[]])[] = [
  [S.User, ["email", "active", "picture"]],
  [S.Organization, ["created"]],
  [S.OrgTeam, ["org_name", "created_date"]],
  [S.Project, ["created"]],
  [S.GitGroup, ["webUrl", "fullPath", "created"]],
  [S.Subgroup, ["fullPath", "parentId", "created"]],
  [S.Repository, ["created", "lastPush", "lastPull", "repoSizeBytes"]],
  [S.Mirror, ["statusCode", "created", "lastRun", "notes"]],
  [S.ArtifactRepo, ["created", "url"]],
  [S.Bundle, ["created"]],
];
const signature = (props: object) => Object.keys(props).sort().join(",");
const unreadBySignature = new Map(UNREAD.map(([s, f]) => [signature(s.properties), f]));

/** Writes whose answer a kind reads (the created record): checked like reads. */
const READ_WRITES = new Set<OperationId>([
  "projects.create",
  "git.repos.create",
  "git.fork",
  "mirrors.create",
]);

/** A job status record: phctl reads `status` (any word) and, on failure, `message`. */
const JOB_STATUS = {
  type: "object",
  required: ["status"],
  properties: { status: { type: "string" }, message: { type: ["string", "null"] } },
};
const STATUS_OPS = new Set<OperationId>([
  "users.entitlementStatus",
  "orgTeams.queueStatus",
  "users.transferStatus",
  "organizations.renameStatus",
]);

/** How much of an operation's answer phctl relies on. */
export function reliesOn(op: OperationId): "all" | "queue id" | "nothing" {
  const def = routes[op] as RouteDef;
  if (def.response === null) return "nothing";
  if (def.queue) return "queue id";
  return def.method === "GET" || READ_WRITES.has(op) ? "all" : "nothing";
}

/**
 * The schema phctl checks an answer (of a paged list: one item) against: the route table's,
 * with extra fields allowed, unread fields optional, no `$id`s.
 */
export function clientSchema(op: OperationId): Record<string, unknown> | undefined {
  if (STATUS_OPS.has(op)) return JOB_STATUS;
  const def = routes[op] as RouteDef;
  if (!def.response) return undefined;
  const schema = def.paging
    ? ((def.response as TObject).properties.data as unknown as { items: TSchema }).items
    : def.response;
  return relax(schema) as Record<string, unknown>;
}

function relax(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(relax);
  if (!isObject(s)) return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "$id" || (k === "additionalProperties" && v === false)) continue;
    out[k] = relax(v);
  }
  const props = s.properties;
  if (s.type === "object" && isObject(props) && Array.isArray(s.required)) {
    const unread = unreadBySignature.get(signature(props)) ?? [];
    // The `status` object of an envelope: phctl reads `data`, never a success's status.
    out.required = (s.required as string[]).filter(
      (n) => !unread.includes(n) && (props[n] as { $id?: unknown } | undefined)?.$id !== "Status",
    );
  }
  return out;
}

let ajv: Ajv | undefined;
const checkers = new Map<OperationId, ValidateFunction>();

function checkerOf(op: OperationId): ValidateFunction | undefined {
  let v = checkers.get(op);
  if (!v) {
    const schema = clientSchema(op);
    if (!schema) return undefined;
    if (!ajv) {
      // Loaded on first use: `phctl --version` and `validate` never pay for it.
      const mod = createRequire(import.meta.url)("ajv") as { default: new (o: object) => Ajv };
      ajv = new mod.default({
        strict: false,
        allErrors: false,
        verbose: true,
        validateFormats: false,
        // Our own route table's schemas: no meta-schema compile on the first response.
        validateSchema: false,
        // No optimising pass over the generated code: a third of a compile's time, for
        // checkers that run a few thousand times at most.
        code: { optimize: false },
      });
    }
    v = ajv.compile(schema);
    checkers.set(op, v);
  }
  return v;
}

/** Check `value` at `base` (a JSON pointer) against the operation's checker. */
export function checkAt(op: OperationId, value: unknown, base: string): Mismatch | undefined {
  const v = checkerOf(op);
  if (!v || v(value)) return undefined;
  return mismatchOfErrors(op, v.errors as ErrorObject[], base);
}
