/** Options of `buildServer()` and of `phctl serve`. */
import type { ApiProfile } from "../api/profile.js";

export interface TokenSpec {
  /** The bearer value. Never logged or echoed. */
  secret: string;
  role: "member" | "projects-admin" | "users-admin" | "system-admin";
  parentOrganization: string;
  /**
   * Test-admin capability (`--token SECRET:ROLE:PARENT_ORG:test-admin`): this token's
   * /_control calls see and act on every parent organization. Without it, /_control is
   * confined to the token's own parent organization. It changes nothing in the API.
   */
  testAdmin?: boolean;
}

export interface ServerOptions {
  /** SQLite file, or ":memory:" (default). */
  db?: string;
  tokens?: TokenSpec[];
  /** Host name in clone URLs (default git.example.org). */
  gitHost?: string;
  /** Mean injected latency per request, ms (with ±25 % jitter). */
  latencyMs?: number;
  /** Probability of an injected fault per request (500, 503, 429 with Retry-After, dropped connection). */
  faultRate?: number;
  /** Seed of the fault and latency PRNG, for reproducible chaos runs. */
  faultSeed?: number;
  /** How long a queued job stays open before it completes, ms (default 0: next tick). */
  queueDelayMs?: number;
  /** Largest page size the server accepts; larger `limit`s are clamped (default 100). */
  maxPageSize?: number;
  /** Check every response against its schema (tests; a mismatch is a 500). */
  checkResponses?: boolean;
  /**
   * Serve the `/_control` test endpoints (request log, one-shot faults, outbox, seeding),
   * each confined to the caller's parent organization unless its token is a test-admin.
   * Default false (`phctl serve --control`).
   */
  control?: boolean;
  /**
   * Keep a request log (method, url, operation, status) — `PhServer.requestLog`, and
   * `/_control/requests` with `control`. Default false (`phctl serve --request-log [N]`).
   */
  requestLog?: boolean;
  /** How many of the most recent requests the log keeps (default 10,000). */
  requestLogSize?: number;
  /**
   * Serve the API shaped as this profile says (its paths and methods, list envelope and
   * queue id field) instead of the route table's shape (`phctl serve --api-profile`).
   */
  apiProfile?: ApiProfile;
  /** Fastify logger (default off). */
  logger?: boolean;
}
