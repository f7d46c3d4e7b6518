/**
 * Where the CLI's API client points, and with which credentials: `--api-url` /
 * `PHCTL_API_URL`, the token from `PHCTL_TOKEN` or `--token-file` (never a flag value, which
 * would land in shell history), `--git-api-url` / `PHCTL_GIT_API_URL` with
 * `PHCTL_GIT_TOKEN` for the delivery-metrics API. With no API URL at all, `connect()` starts
 * the reference server in-process on `.phctl/embedded.sqlite` beside phctl.yaml (settings.ts
 * `stateDirOf`) and says where on stderr.
 * The client-side throttle: `--max-rps`, else `PHCTL_MAX_RPS`, else phctl.yaml's `maxRps`
 * (the one the command read; for api, export and doctor the working directory's).
 *
 * `connect()` is what every command that talks to the service uses (api, plan, apply, …).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { ApiClient, type ClientOptions } from "../api/client.js";
import type { ClientEvent } from "../api/request.js";
import { resolveNetwork, type NetworkSettings } from "../api/network.js";
import { userError } from "../errors.js";
import { loadApiProfileFor } from "./api-profile.js";
import { ALWAYS, describeEvent, eventJson } from "./client-events.js";
import { CONCURRENCY, describeRule, MAX_RPS, MAX_RPS_SETTING, parseNumberFlag } from "./flags.js";
import { outageTimeoutOf } from "./outage-timeout.js";
import { redact, registerSecret } from "../secrets.js";

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
  /** `--outage-timeout DURATION` (commands that talk to the service; outage-timeout.ts). */
  outageTimeout?: string;
}

/** Resolved settings; `apiUrl` undefined means "use the embedded server". */
export interface ResolvedConfig {
  apiUrl: string | undefined;
  token: string | undefined;
  gitApiUrl: string | undefined;
  gitToken: string | undefined;
  maxRps: number;
  /** Where `maxRps` came from (undefined: nowhere, no throttle). */
  maxRpsFrom?: "--max-rps" | "PHCTL_MAX_RPS" | "phctl.yaml";
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

const given = (v: string | number | undefined): v is string | number => v !== undefined && v !== "";

/**
 * Settings from flags, the environment and phctl.yaml's `maxRps` (`configMaxRps`); no I/O
 * but reading the token file. Precedence of the throttle: --max-rps, PHCTL_MAX_RPS,
 * phctl.yaml.
 */
export function resolveConfig(
  o: GlobalOptions,
  env: NodeJS.ProcessEnv = process.env,
  configMaxRps?: number,
): ResolvedConfig {
  const apiUrl = nonEmpty(o.apiUrl) ?? nonEmpty(env.PHCTL_API_URL);
  const token = o.tokenFile ? readTokenFile(o.tokenFile) : nonEmpty(env.PHCTL_TOKEN);
  if (apiUrl && !token) {
    throw userError(
      "NO_TOKEN",
      `no token for ${apiUrl}: set PHCTL_TOKEN or pass --token-file FILE`,
    );
  }
  const throttle: Pick<ResolvedConfig, "maxRps" | "maxRpsFrom"> = given(o.maxRps)
    ? { maxRps: parseNumberFlag("--max-rps", o.maxRps, MAX_RPS), maxRpsFrom: "--max-rps" }
    : given(env.PHCTL_MAX_RPS)
      ? {
          maxRps: parseNumberFlag("PHCTL_MAX_RPS", env.PHCTL_MAX_RPS, MAX_RPS),
          maxRpsFrom: "PHCTL_MAX_RPS",
        }
      : configMaxRps !== undefined
        ? { maxRps: configMaxRps, maxRpsFrom: "phctl.yaml" }
        : { maxRps: 0 };
  return {
    apiUrl,
    token,
    gitApiUrl: nonEmpty(o.gitApiUrl) ?? nonEmpty(env.PHCTL_GIT_API_URL),
    gitToken: nonEmpty(env.PHCTL_GIT_TOKEN),
    ...throttle,
    concurrency: given(o.concurrency)
      ? parseNumberFlag("--concurrency", o.concurrency, CONCURRENCY)
      : undefined,
  };
}

/**
 * `maxRps:` of the working directory's phctl.yaml (commands that read no manifests: api,
 * export, doctor), or undefined when there is none or it sets none.
 */
export async function maxRpsOfWorkingDirectory(cwd: string): Promise<number | undefined> {
  const { workingSetting } = await import("./working-config.js");
  const found = workingSetting(cwd, "maxRps");
  if (!found) return undefined;
  const name = found.file;
  const v = found.value;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !(v >= MAX_RPS_SETTING.min && v <= MAX_RPS_SETTING.max))
    throw userError(
      "BAD_CONFIG",
      `${name}: maxRps must be ${describeRule(MAX_RPS_SETTING)} (got ${JSON.stringify(v)}); run phctl validate`,
    );
  return v;
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
  /** The working directory (default process.cwd()): its phctl.yaml is asked when unsaid. */
  cwd?: string;
  /** `.phctl/` of the config (settings.ts `stateDirOf`); default `.phctl` in `cwd`. */
  stateDir?: string;
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
  /**
   * phctl.yaml's `maxRps:` (settings.ts `serviceOf`), or null when the command read a
   * phctl.yaml that sets none; undefined: the working directory's phctl.yaml is asked.
   * `--max-rps` and PHCTL_MAX_RPS win.
   */
  maxRps?: number | null;
  /**
   * Outage deadline (ms) unless `--outage-timeout` says: phctl.yaml's `outageTimeout:`
   * (settings.ts `serviceOf`) or the command's own; undefined: the working directory's
   * phctl.yaml is asked, else the client's default.
   */
  outageTimeout?: number;
}

/**
 * Connect to the configured API, or start the embedded reference server when none is
 * configured. Registers every token with the redactor before anything can print.
 */
export async function connect(global: GlobalOptions, o: ConnectOptions = {}): Promise<Connection> {
  const write = (line: string) =>
    (o.stderr ?? ((s: string) => process.stderr.write(s)))(`${redact(line)}\n`);
  const configMaxRps =
    o.maxRps === undefined
      ? await maxRpsOfWorkingDirectory(o.cwd ?? process.cwd())
      : (o.maxRps ?? undefined);
  const cfg = resolveConfig(global, o.env, configMaxRps);
  const outageTimeoutMs = await outageTimeoutOf(
    global.outageTimeout,
    o.outageTimeout,
    o.cwd ?? process.cwd(),
  );
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
      ...(outageTimeoutMs !== undefined ? { outageTimeoutMs } : {}),
      ...o.client,
    });
  // The throttle in use and where it was set: `--verbose` says it, `--json` carries it.
  const throttle = { maxRps: cfg.maxRps, from: cfg.maxRpsFrom ?? null };
  const finish = (client: ApiClient) => {
    if (global.json)
      write(JSON.stringify({ event: "api.metrics", ...client.metrics.snapshot(), throttle }));
    else if (global.verbose) {
      const [first, ...rest] = client.metrics.summary();
      write(`phctl: ${first}`);
      if (cfg.maxRps > 0)
        write(
          `phctl: api: throttled to ${cfg.maxRps} requests per second (${cfg.maxRpsFrom === "phctl.yaml" ? "maxRps in phctl.yaml" : cfg.maxRpsFrom})`,
        );
      for (const l of rest) write(`phctl: ${l}`);
    }
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

  const cwd = o.cwd ?? process.cwd();
  const dir = o.stateDir ?? join(cwd, ".phctl");
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
  }).catch((e: unknown) => {
    // The server's bundle has its own PhctlError class: its code says what it is.
    if ((e as { code?: unknown }).code === "SQLITE_MISSING")
      throw userError("SQLITE_MISSING", (e as Error).message);
    throw e;
  });
  const url = await server.listen(0, "127.0.0.1");
  const shown = relative(cwd, join(dir, "embedded.sqlite")).split(sep).join("/");
  write(
    `phctl: no API URL configured (--api-url or PHCTL_API_URL): using the embedded reference server on ${shown}`,
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
