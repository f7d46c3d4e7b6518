/**
 * Typed errors of the API client. Every one names the operation and the path TEMPLATE (never
 * the filled URL, never a header), so it can be printed, logged or put in a plan as it is:
 * no token can be in it by construction.
 *
 * - `ApiError`: the server answered with a non-2xx status (or no usable answer).
 * - `AmbiguousRequestError`: a non-idempotent request (POST, PATCH, a queued PUT) may or may
 *   not have taken effect — the connection dropped or timed out after it was sent, or a 5xx
 *   came back. Never retried blindly: re-read by natural key first (see `createOrFind`).
 * - `JobFailedError` / `JobTimeoutError`: a queued job ended `failed`/`error`, or did not end.
 * - `OutageError`: the service did not answer for the whole outage deadline; the client
 *   has given up and fails every call at once from then on.
 */
import { PhctlError } from "../errors.js";
import type { ApiKind } from "./auth.js";
import type { ShownProxy } from "./network.js";
import type { OperationId } from "./routes.js";

/** Where the request was going: enough to name it in one line, no ids, no secrets. */
export interface RequestTarget {
  readonly method: string;
  /** Path template from the route table (`/v1/projects/{projectSlug}`), or the raw path. */
  readonly pathTemplate: string;
  /** Operation id, when the request matched the route table. */
  readonly operation: OperationId | undefined;
}

/** One field error of a 400 answer. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** Stable codes of HTTP answers (the reference server's error table, by status). */
const STATUS_CODES: Readonly<Record<number, string>> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  422: "RULE_VIOLATED",
  429: "RATE_LIMITED",
  500: "INTERNAL",
  502: "BAD_GATEWAY",
  503: "UNAVAILABLE",
  504: "GATEWAY_TIMEOUT",
};

/** The stable code of an HTTP status (HTTP_418 for one without a name). */
export function codeOfStatus(status: number): string {
  return STATUS_CODES[status] ?? `HTTP_${status}`;
}

function describe(t: RequestTarget): string {
  return `${t.method} ${t.pathTemplate}${t.operation ? ` (${t.operation})` : ""}`;
}

/** `850 ms`, `5.2 s`, `2 min`, `2 min 30 s`: a duration for people. */
export function humanDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  const min = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return s === 0 ? `${min} min` : `${min} min ${s} s`;
}

/** What to do about a 401: which setting holds the token that was refused (never the token). */
function unauthorizedHint(api: ApiKind | undefined): string {
  return api === "git"
    ? " — the delivery-metrics token was not accepted: set a valid one in PHCTL_GIT_TOKEN"
    : " — the token was not accepted: set a valid one in PHCTL_TOKEN or pass --token-file FILE";
}

export interface ApiErrorInit {
  target: RequestTarget;
  /** HTTP status; 0 when no answer came back. */
  status: number;
  code: string;
  /** The server's `status.message`, or what went wrong on the wire. */
  serverMessage: string;
  fieldErrors?: readonly FieldError[];
  /** Parsed response body, when there was one (printed by `phctl api`). */
  body?: unknown;
  /** Retry-After of a 429/503 answer, ms. */
  retryAfterMs?: number;
  /** Attempts made before giving up (1 = no retry). */
  attempts: number;
  /** Why no (further) retry was made, for the message (e.g. "retry limit 5 reached"). */
  gaveUp?: string;
  /** The API the request went to: a 401's hint names its token setting. */
  api?: ApiKind;
  cause?: unknown;
}

/** The server said no, or could not be reached. `source` is `user`: a one-line message. */
export class ApiError extends PhctlError {
  readonly status: number;
  readonly method: string;
  readonly pathTemplate: string;
  readonly operation: OperationId | undefined;
  readonly serverMessage: string;
  readonly fieldErrors: readonly FieldError[];
  readonly body: unknown;
  readonly retryAfterMs: number | undefined;
  readonly attempts: number;

  constructor(init: ApiErrorInit) {
    const fields = init.fieldErrors?.length
      ? ` [${init.fieldErrors.map((f) => `${f.field}: ${f.message}`).join("; ")}]`
      : "";
    const what = init.status > 0 ? `${init.status} ${init.code}` : init.code;
    const gaveUp = init.gaveUp ? ` (${init.gaveUp})` : "";
    const hint = init.status === 401 ? unauthorizedHint(init.api) : "";
    const text = `${describe(init.target)}: ${what}: ${init.serverMessage}${fields}${gaveUp}${hint}`;
    super(init.code, text, {
      details: [
        `operation: ${init.target.operation ?? "(not in the route table)"}`,
        `attempts: ${init.attempts}`,
        ...(init.fieldErrors ?? []).map((f) => `field ${f.field}: ${f.message}`),
      ],
      ...(init.cause === undefined ? {} : { cause: init.cause }),
    });
    this.name = "ApiError";
    this.status = init.status;
    this.method = init.target.method;
    this.pathTemplate = init.target.pathTemplate;
    this.operation = init.target.operation;
    this.serverMessage = init.serverMessage;
    this.fieldErrors = init.fieldErrors ?? [];
    this.body = init.body;
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts;
  }
}

/**
 * A non-idempotent request may have taken effect: do not send it again before re-reading
 * the object by its natural key. `status` is the 5xx that came back, or 0 for a dropped
 * connection or a timeout after sending.
 */
export class AmbiguousRequestError extends ApiError {
  constructor(init: Omit<ApiErrorInit, "code" | "gaveUp">) {
    super({
      ...init,
      code: "AMBIGUOUS",
      gaveUp: "it may have taken effect; not retried — re-read before trying again",
    });
    this.name = "AmbiguousRequestError";
  }
}

/** A queued job ended failed (entitlement, transfer, rename) or error (organization team). */
export class JobFailedError extends PhctlError {
  constructor(
    readonly queue: string,
    readonly queueid: string,
    /** The job's `message`: the server's reason. */
    readonly jobMessage: string,
    /** The job's status word (`failed` or `error`). */
    readonly jobStatus: string,
  ) {
    super("JOB_FAILED", `${queue} job ${queueid} ${jobStatus}: ${jobMessage}`);
    this.name = "JobFailedError";
  }
}

/** A queued job was still open when the wait's timeout ran out. */
export class JobTimeoutError extends PhctlError {
  constructor(
    readonly queue: string,
    readonly queueid: string,
    readonly lastStatus: string,
    timeoutMs: number,
  ) {
    super(
      "JOB_TIMEOUT",
      `${queue} job ${queueid} still ${lastStatus} after ${Math.round(timeoutMs / 1000)} s; it may still complete — the journal keeps it, and the next phctl apply waits on it instead of sending it again (raise queueTimeout in phctl.yaml to wait longer)`,
    );
    this.name = "JobTimeoutError";
  }
}

/** What an `OutageError` knows: no URL beyond the origin, no token. */
export interface OutageInfo {
  /** Origin of the API (`https://api.example.org`): no path, no ids. */
  origin: string;
  /** "git": the git host's delivery-metrics API (absent: the administration API). */
  api?: "git";
  /** How long the service was not answering when the client gave up, ms. */
  unavailableMs: number;
  /** The last trouble seen (`503 UNAVAILABLE`, `connection refused (ECONNREFUSED)`). */
  lastTrouble: string;
  /** The proxy, when it was the proxy that did not answer (redacted). */
  proxy?: ShownProxy;
}

/**
 * The service did not answer for the whole outage deadline (`outageTimeoutMs`): every call
 * of the client that gave up rejects with this at once. For the apply engine: stop
 * launching actions; the run can be repeated safely once the service answers.
 */
export class OutageError extends PhctlError implements OutageInfo {
  readonly origin: string;
  readonly unavailableMs: number;
  readonly lastTrouble: string;

  readonly proxy?: ShownProxy;

  constructor(info: OutageInfo) {
    const p = info.proxy;
    const how = `has not answered for ${humanDuration(info.unavailableMs)} (last: ${info.lastTrouble}); gave up waiting`;
    const again =
      "run the command again once it answers — `phctl apply` waits on the jobs in its journal and sends nothing twice";
    super(
      "OUTAGE",
      p
        ? `the proxy ${p.url} (${p.variable}) ${how} for ${info.origin}. Check that the proxy runs and accepts connections, or correct ${p.variable} (NO_PROXY to go without it); ${again}`
        : info.api === "git"
          ? `the delivery-metrics API at ${info.origin} ${how}. Check the git host's status, and that PHCTL_GIT_API_URL (or --git-api-url) is its address; run the command again once it answers`
          : `the service at ${info.origin} ${how}. Check the service's status page and ${again}`,
      {
        details: [
          `origin: ${info.origin}`,
          ...(p ? [`proxy: ${p.url} (${p.variable})`] : []),
          `last trouble: ${info.lastTrouble}`,
        ],
      },
    );
    this.name = "OutageError";
    this.origin = info.origin;
    this.unavailableMs = info.unavailableMs;
    this.lastTrouble = info.lastTrouble;
    if (p) this.proxy = p;
  }
}

/** Read `{status: {message}, errors: [...]}` from an error answer, tolerating anything else. */
export function readErrorBody(body: unknown): { message?: string; fieldErrors: FieldError[] } {
  const b = body as { status?: { message?: unknown }; errors?: unknown; message?: unknown } | null;
  const message =
    typeof b?.status?.message === "string"
      ? b.status.message
      : typeof b?.message === "string"
        ? b.message
        : typeof body === "string" && body.length > 0
          ? body.slice(0, 200)
          : undefined;
  const fieldErrors: FieldError[] = Array.isArray(b?.errors)
    ? (b.errors as { field?: unknown; message?: unknown }[])
        .filter((e) => typeof e?.field === "string" && typeof e?.message === "string")
        .map((e) => ({ field: e.field as string, message: e.message as string }))
    : [];
  return message === undefined ? { fieldErrors } : { message, fieldErrors };
}
