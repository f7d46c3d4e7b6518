/**
 * Where the CLI's API client points, and with which credentials: `--api-url` /
 * `PHCTL_API_URL`, the token from `PHCTL_TOKEN` or `--token-file` (never a flag value, which
 * would land in shell history), `--git-api-url` / `PHCTL_GIT_API_URL` with
 * `PHCTL_GIT_TOKEN` for the delivery-metrics API. With no API URL at all, `connect()` starts
 * the reference server in-process on `.phctl/embedded.sqlite` and says so on stderr.
 *
 * `connect()` is what every command that talks to the service uses (api, plan, apply, …).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ApiClient, type ClientOptions } from "../api/client.js";
import { humanDuration } from "../api/errors.js";
import type { ClientEvent } from "../api/request.js";
import { resolveNetwork, type NetworkSettings } from "../api/network.js";
import { userError } from "../errors.js";
import { loadApiProfileFor } from "./api-profile.js";
import { redact, registerSecret } from "./redact.js";

/** The program's global options (see program.ts) plus the client knobs commands may add. */
export interface GlobalOptions {
  apiUrl?: string;
  tokenFile?: string;
  gitApiUrl?: string;
  verbose?: boolean;
  json?: boolean;
  /** Client-side throttle, requests per second (`--max-rps`, env PHCTL_MAX_RPS). */
  maxRps?: string | number;
  /** Requests in flight at once (`--concurrency`). */
  concurrency?: string | number;
  /** `--api-profile FILE`: the service's shape where it differs from the route table. */
  apiProfile?: string;
}

/** Resolved settings; `apiUrl` undefined means "use the embedded server". */
export interface ResolvedConfig {
  apiUrl: string | undefined;
  token: string | undefined;
  gitApiUrl: string | undefined;
  gitToken: string | undefined;
  maxRps: number;
  concurrency: number | undefined;
}

const nonEmpty = (s: string | undefined) => (s && s.trim() !== "" ? s.trim() : undefined);

function readTokenFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw userError(
      "READ_FAILED",
      `--token-file ${file}: ${(e as NodeJS.ErrnoException).code ?? "cannot read"}`,
    );
  }
  const token = text
    .split(/\r?\n/)
    .find((l) => l.trim() !== "")
    ?.trim();
  if (!token) throw userError("NO_TOKEN", `--token-file ${file} is empty`);
  return token;
}

function positive(name: string, v: string | number | undefined): number | undefined {
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0)
    throw userError("BAD_FLAG", `${name} must be a number ≥ 0 (got ${v})`);
  return n;
}

/** Settings from flags and environment; no I/O but reading the token file. */
export function resolveConfig(
  o: GlobalOptions,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedConfig {
  const apiUrl = nonEmpty(o.apiUrl) ?? nonEmpty(env.PHCTL_API_URL);
  const token = o.tokenFile ? readTokenFile(o.tokenFile) : nonEmpty(env.PHCTL_TOKEN);
  if (apiUrl && !token) {
    throw userError(
      "NO_TOKEN",
      `no token for ${apiUrl}: set PHCTL_TOKEN or pass --token-file FILE`,
    );
  }
  const concurrency = positive("--concurrency", o.concurrency);
  return {
    apiUrl,
    token,
    gitApiUrl: nonEmpty(o.gitApiUrl) ?? nonEmpty(env.PHCTL_GIT_API_URL),
    gitToken: nonEmpty(env.PHCTL_GIT_TOKEN),
    maxRps: positive("--max-rps", o.maxRps ?? env.PHCTL_MAX_RPS) ?? 0,
    concurrency: concurrency === 0 ? undefined : concurrency,
  };
}

/** A client and what to do when the command is done with it. */
export interface Connection {
  client: ApiClient;
  /** True when talking to the in-process reference server. */
  embedded: boolean;
  apiUrl: string;
  /** Proxy and CAs the client's connections use (`phctl doctor` shows them). */
  network: NetworkSettings;
  /** Close the client (and the embedded server); prints the metrics summary with --verbose. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Where stderr lines go (default process.stderr); every line is redacted. */
  stderr?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Directory that holds `.phctl/` (default the working directory). */
  cwd?: string;
  /** Parent organization of the embedded server's token (default acme; phctl.yaml's). */
  organization?: string;
  /** Extra client options (commands and tests). */
  client?: Partial<ClientOptions>;
  /** PEM bundle of extra CAs: phctl.yaml's `caFile:`, resolved (else env PHCTL_CA_FILE). */
  caFile?: string;
  /**
   * phctl.yaml's `apiProfile:` (settings.ts `apiProfileOf`), or null when the command read a
   * phctl.yaml that names none; undefined: the working directory's phctl.yaml is asked.
   * `--api-profile` wins (cli/api-profile.ts).
   */
  apiProfile?: string | null;
}

/** The stderr line of a client event, for people (undefined: nothing to say). */
function describeEvent(e: ClientEvent): string | undefined {
  switch (e.type) {
    case "retry": {
      const t = e.target;
      return `retry ${t.method} ${t.pathTemplate}${t.operation ? ` (${t.operation})` : ""} in ${e.delayMs} ms after ${e.reason} (attempt ${e.attempt})`;
    }
    case "outage-start":
      return `the service is not answering (${e.reason}): all requests paused; probing every few seconds for up to ${humanDuration(e.timeoutMs)}`;
    case "outage-end":
      return `the service answers again after ${humanDuration(e.pausedMs)}; resuming`;
    // The OutageError every call gets says it, once, through main().
    case "outage-timeout":
    case "done":
      return undefined;
  }
}

/** The `--json` stderr line of a client event (undefined: none). */
function eventJson(e: ClientEvent): Record<string, unknown> | undefined {
  switch (e.type) {
    case "retry":
      return {
        event: "api.retry",
        method: e.target.method,
        path: e.target.pathTemplate,
        operation: e.target.operation ?? null,
        attempt: e.attempt,
        delayMs: e.delayMs,
        reason: e.reason,
      };
    case "outage-start":
      return {
        event: "api.outage",
        state: "start",
        reason: e.reason,
        trigger: e.trigger,
        timeoutMs: e.timeoutMs,
      };
    case "outage-end":
      return { event: "api.outage", state: "end", pausedMs: e.pausedMs, probes: e.probes };
    case "outage-timeout":
      return {
        event: "api.outage",
        state: "timeout",
        reason: e.reason,
        pausedMs: e.pausedMs,
        probes: e.probes,
      };
    case "done":
      return undefined;
  }
}

/** Outages are reported always; retries only with --verbose or --json. */
const ALWAYS = new Set<ClientEvent["type"]>(["outage-start", "outage-end", "outage-timeout"]);

/**
 * Connect to the configured API, or start the embedded reference server when none is
 * configured. Registers every token with the redactor before anything can print.
 */
export async function connect(global: GlobalOptions, o: ConnectOptions = {}): Promise<Connection> {
  const write = (line: string) =>
    (o.stderr ?? ((s: string) => process.stderr.write(s)))(`${redact(line)}\n`);
  const cfg = resolveConfig(global, o.env);
  registerSecret(cfg.token);
  registerSecret(cfg.gitToken);
  const profile = await loadApiProfileFor(global.apiProfile, o.apiProfile, o.cwd);

  const onEvent = (e: ClientEvent) => {
    if (!global.verbose && !global.json && !ALWAYS.has(e.type)) return;
    if (global.json) {
      const json = eventJson(e);
      if (json) write(JSON.stringify(json));
      return;
    }
    const line = describeEvent(e);
    if (line) write(`phctl: ${line}`);
  };
  const clientOptions = (apiUrl: string, token: string, git: Partial<ClientOptions>) =>
    new ApiClient({
      apiUrl,
      token,
      ...git,
      maxRps: cfg.maxRps,
      ...(cfg.concurrency ? { concurrency: cfg.concurrency } : {}),
      onEvent,
      ...(profile ? { profile } : {}),
      ...o.client,
    });
  const finish = (client: ApiClient) => {
    if (global.json) write(JSON.stringify({ event: "api.metrics", ...client.metrics.snapshot() }));
    else if (global.verbose) for (const l of client.metrics.summary()) write(`phctl: ${l}`);
  };

  if (cfg.apiUrl) {
    const network = resolveNetwork({
      ...(o.env ? { env: o.env } : {}),
      ...(o.caFile !== undefined ? { caFile: o.caFile } : {}),
    });
    const client = clientOptions(cfg.apiUrl, cfg.token!, {
      ...(cfg.gitApiUrl ? { gitApiUrl: cfg.gitApiUrl } : {}),
      ...(cfg.gitToken ? { gitToken: cfg.gitToken } : {}),
      network,
    });
    return {
      client,
      embedded: false,
      apiUrl: cfg.apiUrl,
      network,
      async close() {
        finish(client);
        await client.close();
      },
    };
  }

  const dir = join(o.cwd ?? process.cwd(), ".phctl");
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw userError("EMBEDDED", `cannot create ${dir}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
  // Loaded only here: fastify and SQLite are not needed to talk to a real service.
  const { buildServer, developmentToken } = await import("../server/app.js");
  const token = developmentToken(o.organization ?? "acme");
  registerSecret(token.secret);
  // The embedded server speaks the profile too: the same commands work against either.
  const server = await buildServer({
    db: join(dir, "embedded.sqlite"),
    tokens: [token],
    ...(profile ? { apiProfile: profile } : {}),
  });
  const url = await server.listen(0, "127.0.0.1");
  write(
    `phctl: no API URL configured (--api-url or PHCTL_API_URL): using the embedded reference server on .phctl/embedded.sqlite`,
  );
  // The embedded server is on loopback: never through a proxy.
  const network = resolveNetwork({ ...(o.env ? { env: o.env } : {}), noProxy: true });
  const client = clientOptions(url, token.secret, {
    // The embedded server also serves the delivery-metrics API, with the same token.
    gitApiUrl: `${url}/git-api`,
    gitToken: token.secret,
    network,
  });
  return {
    client,
    embedded: true,
    apiUrl: url,
    network,
    async close() {
      finish(client);
      await client.close();
      await server.close();
    },
  };
}
