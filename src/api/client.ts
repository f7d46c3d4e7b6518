/**
 * The phctl API client: one typed method per operation of the route table, over one
 * `request()` (auth, keep-alive pool, shared concurrency, throttle, retries, timeouts,
 * typed errors, metrics). Everything in phctl that talks to the service uses it. Calls go
 * by the API profile's routes (profile.ts), and every answer phctl relies on is checked
 * before it is returned, in the route table's shape (strict.ts: `ResponseShapeError`).
 *
 *   const api = new ApiClient({ apiUrl, token });
 *   const repo = await api.call("git.repos.create", { params: { projectSlug }, body: { name } });
 *   const same = await api.ops.git.repos.create({ params: { projectSlug }, body: { name } });
 *   const users = await api.listAll("users.list", { query: { organization: "acme" } });
 *   await api.waitForJob("entitlement", queueid);
 *   if (api.outage) stopLaunching(api.outage); // the service stayed down: the client gave up
 *
 * Must not be used to send credentials anywhere but the configured API URLs.
 */
import type { QueueKind, RouteDef } from "./route-def.js";
import { routes, type OperationId } from "./routes.js";
import { Credentials, parseBase, type ApiKind, type Base } from "./auth.js";
import { FlowControl, type FlowStats } from "./limit.js";
import { Metrics } from "./metrics.js";
import { buildMethods, type OperationMethods } from "./methods.js";
import type {
  ArgsOf,
  CallArgs,
  CallOptions,
  ItemOf,
  PagedOperationId,
  ResponseOf,
} from "./op-types.js";
import { asPaged, collectAll, streamPages, type PageQuery, type PagedAnswer } from "./paging.js";
import {
  GIT_API_PREFIX,
  prepareCall,
  prepareRaw,
  splitPath,
  type CallArgsLoose,
  type RawOptions,
} from "./prepare.js";
import {
  STATUS_OPERATION,
  queueIdOf,
  waitForJob,
  type JobStatus,
  type WaitOptions,
} from "./queue.js";
import {
  request,
  wireOf,
  type ApiResponse,
  type ClientEvent,
  type PreparedRequest,
  type RequestDeps,
} from "./request.js";
import { DEFAULT_RETRY, RetryBudget, type RetryOptions } from "./retry.js";
import { renamePageQuery } from "./envelope.js";
import {
  DEFAULT_LIST,
  DEFAULT_PROFILE,
  effectiveRoutes,
  type ApiProfile,
  type RouteTable,
} from "./profile.js";
import { acceptResponse } from "./strict.js";
import { matchRoute, type RouteMatch } from "./route-match.js";
import type { ApiError, OutageError } from "./errors.js";
import { OutageGate } from "./outage.js";
import { probeWindowMs } from "./outage-watch.js";
import { Transport, type WireOutcome } from "./transport.js";
import type { NetworkSettings } from "./network.js";
import { VERSION } from "../version.js";

export interface ClientOptions {
  /** Base URL of the administration API (paths start with /v1). */
  apiUrl: string;
  /** Bearer token. */
  token: string;
  /** Base URL of the delivery-metrics API (default: `<apiUrl>/git-api`, as the reference server). */
  gitApiUrl?: string;
  /** PRIVATE-TOKEN of the delivery-metrics API. */
  gitToken?: string;
  /** Requests in flight at once, shared by every caller (default 8). */
  concurrency?: number;
  /** Client-side throttle, requests per second (default 0 = none). */
  maxRps?: number;
  /** Per-attempt timeout, ms (default 30 s). */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  /**
   * How long the service may stay unreachable (the outage gate closed, every call paused)
   * before the client gives up and fails every call with `OutageError`, ms (default 2 min).
   */
  outageTimeoutMs?: number;
  /** Defaults of `waitForJob` (tests make polling fast with `pollStartMs`). */
  wait?: WaitOptions;
  userAgent?: string;
  /** Observer of retries, finished calls and outages (the CLI's --verbose and stderr). */
  onEvent?: (e: ClientEvent) => void;
  /** Source of jitter (tests). */
  random?: () => number;
  /**
   * How the service differs from the route table (paths, list envelope, queue id): the
   * client calls through the profile's routes and reads answers through its envelope.
   */
  profile?: ApiProfile;
  /** Proxy and extra CAs of the connections (default: from the environment; network.ts). */
  network?: NetworkSettings;
}

export type { CallArgsLoose, RawOptions } from "./prepare.js";

/** A raw call's answer, with the route it matched (if any). */
export interface RawResponse extends ApiResponse {
  operation: OperationId | undefined;
}

export class ApiClient {
  /** Counts, retries and latency by operation (`--verbose`, the benchmark). */
  readonly metrics = new Metrics();
  /** Every operation as a named method: `ops.git.repos.create(args)`. */
  readonly ops: OperationMethods;
  readonly #deps: RequestDeps;
  readonly #credentials: Credentials;
  readonly #transport: Transport;
  /** The administration API's outage gate (the one commands wait on and report). */
  readonly #gate: OutageGate;
  /** The git host's: its outage pauses only the delivery-metrics calls. */
  readonly #gitGate: OutageGate;
  readonly #wait: WaitOptions;
  readonly #memo = new Map<string, Promise<unknown>>();
  readonly #profile: ApiProfile;
  readonly #flow: FlowControl;
  #refused: ApiError | undefined;

  constructor(o: ClientOptions) {
    this.#profile = o.profile ?? DEFAULT_PROFILE;
    const concurrency = o.concurrency ?? 8;
    const retry = { ...DEFAULT_RETRY, ...o.retry };
    const budget = new RetryBudget(retry.budget, retry.budgetRefill);
    this.metrics.budgetDenied = () => budget.denied;
    this.#credentials = new Credentials(o.token, o.gitToken);
    const outageTimeoutMs = o.outageTimeoutMs ?? 120_000;
    this.#transport = new Transport({
      connections: concurrency,
      // No connection may take longer than the outage deadline allows.
      connectTimeoutMs: Math.min(10_000, outageTimeoutMs),
      ...(o.network ? { network: o.network } : {}),
    });
    const bases: Record<ApiKind, Base> = {
      admin: parseBase(o.apiUrl, "--api-url"),
      git: parseBase(
        o.gitApiUrl ?? `${o.apiUrl.replace(/\/+$/, "")}${GIT_API_PREFIX}`,
        "--git-api-url",
      ),
    };
    const flow = new FlowControl(concurrency, o.maxRps ?? 0);
    this.#flow = flow;
    const timeoutMs = o.timeoutMs ?? 30_000;
    const random = o.random ?? Math.random;
    // The probe: an authenticated GET past the (closed) gate — of the organization list on
    // the administration API; on the git host, of a group no one has (any answer, a 404 too,
    // says the host answers again). On connections of its own and with no concurrency slot:
    // attempts hanging on every slot and pooled connection must not hold it back. Probes
    // keep to the throttle by their spacing (`minProbeGapMs`).
    const probeOf = (req: () => PreparedRequest) => () => {
      const wire = wireOf(this.#deps, req(), Math.min(timeoutMs, probeWindowMs(outageTimeoutMs)));
      return this.#transport.send({ ...wire, deadlineMs: wire.timeoutMs, probe: true });
    };
    const gateOf = (api: ApiKind, probe: () => Promise<WireOutcome>) =>
      new OutageGate({
        origin: bases[api].origin,
        api,
        timeoutMs: outageTimeoutMs,
        probe,
        random,
        onOpen: () => budget.refillAll(),
        onPaused: (ms, probes) => this.metrics.paused(ms, probes),
        // Gave up: the attempts of this API still out end now, not at their own deadline.
        onGiveUp: (e) => this.#transport.cutShort(api, e.message),
        ...((o.maxRps ?? 0) > 0 ? { minProbeGapMs: 1000 / o.maxRps! } : {}),
        ...(o.onEvent ? { onEvent: o.onEvent } : {}),
      });
    this.#gate = gateOf(
      "admin",
      probeOf(() => this.prepare("organizations.list", {})),
    );
    this.#gitGate = gateOf(
      "git",
      probeOf(() =>
        this.prepare("dora.group", {
          params: { id: "0" },
          query: { metric: "deployment_frequency" },
        }),
      ),
    );
    this.#deps = {
      bases,
      credentials: this.#credentials,
      transport: this.#transport,
      flow,
      retry,
      budget,
      gates: { admin: this.#gate, git: this.#gitGate },
      metrics: this.metrics,
      timeoutMs,
      userAgent: o.userAgent ?? `phctl/${VERSION}`,
      random,
      ...(o.onEvent ? { onEvent: o.onEvent } : {}),
      onRefused: (e) => (this.#refused ??= e),
      refused: () => this.#refused,
    };
    this.#wait = o.wait ?? {};
    this.ops = buildMethods((op, ...args) => this.call(op, ...(args as ArgsOf<typeof op>)));
  }

  /**
   * A value read once per client (the token's parent organization, say), shared by every
   * view of it (apply gives each action one); a failed read is not kept.
   */
  memo<T>(name: string, read: () => Promise<T>): Promise<T> {
    let p = this.#memo.get(name) as Promise<T> | undefined;
    if (!p) {
      p = read();
      this.#memo.set(name, p);
      p.catch(() => this.#memo.delete(name));
    }
    return p;
  }

  /** Requests in flight at once at most (the concurrency slots every caller shares). */
  get concurrency(): number {
    return this.#flow.concurrency;
  }

  /** The client-side throttle, requests per second (0: none). */
  get maxRps(): number {
    return this.#flow.maxRps;
  }

  /**
   * Requests now: `running` sent and not yet answered; `queued` waiting for the throttle
   * or a concurrency slot (a call in a retry backoff, at the outage gate or between the
   * polls of a queued job is neither). Cheap: progress lines poll it.
   */
  flowStats(): FlowStats {
    return this.#flow.stats;
  }

  /** The API profile this client calls through (the default: the route table as it is). */
  get profile(): ApiProfile {
    return this.#profile;
  }

  /** Base URL of the git host's delivery-metrics API (`--git-api-url`, else the default). */
  get gitApiUrl(): string {
    const { origin, prefix } = this.#deps.bases.git;
    return `${origin}${prefix}`;
  }

  /** The effective route table: the route table with the profile's methods and paths. */
  get routeTable(): RouteTable {
    return effectiveRoutes(this.#profile);
  }

  /**
   * Call one operation of the route table; resolves to its typed response body, checked
   * (strict.ts: a `ResponseShapeError` when it does not fit what phctl reads) and in the
   * route table's shape whatever the profile.
   */
  async call<K extends OperationId>(op: K, ...args: ArgsOf<K>): Promise<ResponseOf<K>> {
    const [a, options] = args as unknown as [CallArgsLoose | undefined, CallOptions | undefined];
    const res = await request(this.#deps, this.prepare(op, a ?? {}, options ?? {}));
    return acceptResponse(op, res.body, this.#profile) as ResponseOf<K>;
  }

  /** The request of an operation call, before auth and the wire (for tests and tools). */
  prepare(op: OperationId, args: CallArgsLoose, options: CallOptions = {}): PreparedRequest {
    return prepareCall(op, args, options, this.#profile);
  }

  /**
   * A raw call by method and path (`/v1/users`, with or without a query string). A path of
   * the route table gets that route's auth, retry and idempotency rules; another path is
   * sent as it is, retried only if its method is idempotent.
   */
  async raw(method: string, rawPath: string, o: RawOptions = {}): Promise<RawResponse> {
    const { request: req, match } = prepareRaw(method, rawPath, o, this.#profile);
    const res = await request(this.#deps, req);
    return { ...res, operation: match?.operation };
  }

  /** The route of a raw method and path, if it is in the table. */
  route(method: string, rawPath: string): RouteMatch | undefined {
    return matchRoute(method.toUpperCase(), splitPath(rawPath).path, this.routeTable);
  }

  /**
   * A raw GET of every page of a paged list, merged (`phctl api --paginate`): a paged
   * operation of the route table page by page through the profile's envelope (checked, a
   * `ResponseShapeError` when it does not fit); any other path's answer as it came.
   */
  async rawAll(rawPath: string, o: RawOptions = {}): Promise<unknown> {
    const match = this.route("GET", rawPath);
    if (!match?.def.paging) return (await this.raw("GET", rawPath, o)).body;
    const op = match.operation;
    const names = this.#profile.list.query;
    const userLimit = { ...splitPath(rawPath).query, ...o.query }[names.limit];
    const fetch = async (q: PageQuery): Promise<PagedAnswer<unknown>> => {
      const paging = renamePageQuery(
        q as Record<string, number | boolean>,
        DEFAULT_LIST.query,
        names,
      );
      const res = await this.raw("GET", rawPath, { ...o, query: { ...o.query, ...paging } });
      return asPaged(op, res.body, this.#profile, false);
    };
    return collectAll(fetch, {
      supportsAll: match.def.paging.all && userLimit === undefined,
      ...(userLimit !== undefined ? { pageSize: Number(userLimit) } : {}),
    });
  }

  /** Every item of a paged operation (all=true where supported, else concurrent pages). */
  async listAll<K extends PagedOperationId>(
    op: K,
    args?: Omit<CallArgs<K>, "query"> & {
      query?: Omit<NonNullable<CallArgs<K>["query"]>, "page" | "limit" | "all">;
    },
    options: CallOptions & { pageSize?: number } = {},
  ): Promise<ItemOf<K>[]> {
    const def = routes[op] as RouteDef;
    return collectAll(this.pageFetcher<K>(op, args, options), {
      supportsAll: def.paging?.all === true,
      ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
    });
  }

  /** Items of a paged operation, streamed page by page. */
  async *iterate<K extends PagedOperationId>(
    op: K,
    args?: Omit<CallArgs<K>, "query"> & {
      query?: Omit<NonNullable<CallArgs<K>["query"]>, "page" | "limit" | "all">;
    },
    options: CallOptions & { pageSize?: number } = {},
  ): AsyncGenerator<ItemOf<K>, void, undefined> {
    const pages = streamPages(this.pageFetcher<K>(op, args, options), {
      ...(options.pageSize !== undefined ? { pageSize: options.pageSize } : {}),
    });
    for await (const page of pages) yield* page;
  }

  private pageFetcher<K extends PagedOperationId>(
    op: K,
    args: object | undefined,
    options: CallOptions,
  ): (q: PageQuery) => Promise<PagedAnswer<ItemOf<K>>> {
    const a = (args ?? {}) as CallArgsLoose;
    return async (q) => {
      const res = await request(
        this.#deps,
        this.prepare(op, { ...a, query: { ...a.query, ...q } }, options),
      );
      return asPaged(op, res.body, this.#profile) as PagedAnswer<ItemOf<K>>;
    };
  }

  /**
   * Wait for a queued job: polls the queue's status endpoint with backoff (no concurrency
   * slot held while sleeping); rejects with JobFailedError (the job's message) or
   * JobTimeoutError.
   */
  waitForJob(kind: QueueKind, queueid: string, options: WaitOptions = {}): Promise<JobStatus> {
    return waitForJob(
      async (k, id, signal) => {
        const op = STATUS_OPERATION[k];
        const res = await request(
          this.#deps,
          this.prepare(op, { params: { queueid: id } }, signal ? { signal } : {}),
        );
        return acceptResponse(op, res.body, this.#profile) as JobStatus;
      },
      kind,
      queueid,
      { ...this.#wait, ...options },
      { random: this.#deps.random },
    );
  }

  /**
   * Call an operation and, when it answered a queue id, wait for the job. `job` is
   * undefined for an answer without a queue id (e.g. adding an admin, which is immediate).
   */
  async callAndWait<K extends OperationId>(
    op: K,
    args: ArgsOf<K>[0],
    wait: WaitOptions = {},
  ): Promise<{ response: ResponseOf<K>; job: JobStatus | undefined }> {
    const response = await this.call(
      op,
      ...([args, wait.signal ? { signal: wait.signal } : {}] as ArgsOf<K>),
    );
    const kind = (routes[op] as RouteDef).queue;
    const id = kind ? queueIdOf(response, op) : undefined;
    const job = kind && id ? await this.waitForJob(kind, id, wait) : undefined;
    return { response, job };
  }

  /**
   * The error of an outage the client gave up on (the service did not answer for
   * `outageTimeoutMs`), or undefined while it has not: from then on every call rejects with
   * it at once, so a caller should stop starting new work.
   */
  get outage(): OutageError | undefined {
    return this.#gate.error;
  }

  /**
   * The first call the service answered 401 (the token expired or was revoked), or undefined:
   * every later call would be refused too, so a caller should stop starting new work.
   */
  get refused(): ApiError | undefined {
    return this.#refused;
  }

  /** True while the outage gate is closed (calls are paused, a probe is checking). */
  get paused(): boolean {
    return !this.#gate.isOpen && this.#gate.error === undefined;
  }

  /** The secrets this client sends (so a CLI can scrub them from anything it prints). */
  secrets(): string[] {
    return this.#credentials.secrets();
  }

  /** Close the connection pool (and stop probing, failing calls paused by an outage). */
  async close(): Promise<void> {
    this.#gate.dispose();
    this.#gitGate.dispose();
    await this.#transport.close();
  }

  toJSON(): Record<string, unknown> {
    return { client: "phctl", bases: this.#deps.bases };
  }
}
