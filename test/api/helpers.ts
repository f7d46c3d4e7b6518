/**
 * A reference server on loopback plus an ApiClient on it, with fast retry and poll timings
 * so resilience tests run in milliseconds (Retry-After is still honoured as the server says).
 */
import { ApiClient, type ClientOptions } from "../../src/api/client.js";
import { buildServer, type PhServer, type RequestLogEntry } from "../../src/server/app.js";
import type { ServerOptions } from "../../src/server/options.js";
import { startServer, TOKENS, type TestServer, type Who } from "../helpers/server.js";
import { routes } from "../../src/api/routes.js";

export interface ClientFixture extends TestServer {
  client: ApiClient;
  /** Another client on the same server (other token or options). */
  newClient(opts?: Partial<ClientOptions> & { as?: Who }): ApiClient;
  /** Close clients and server. */
  stop(): Promise<void>;
}

export const FAST: Partial<ClientOptions> = {
  retry: { baseDelayMs: 5, maxDelayMs: 40 },
  wait: { pollStartMs: 5, pollMaxMs: 40 },
};

export async function startClient(
  server: ServerOptions = {},
  client: Partial<ClientOptions> & { as?: Who } = {},
): Promise<ClientFixture> {
  const t = await startServer(server);
  const clients: ApiClient[] = [];
  const newClient = (o: Partial<ClientOptions> & { as?: Who } = {}) => {
    const { as = "admin", ...rest } = o;
    const c = new ApiClient({
      apiUrl: t.url,
      token: TOKENS[as].secret,
      gitToken: TOKENS[as].secret,
      ...FAST,
      ...rest,
    });
    clients.push(c);
    return c;
  };
  const c = newClient(client);
  return {
    ...t,
    client: c,
    newClient,
    async stop() {
      for (const x of clients) await x.close();
      await t.close();
    },
  };
}

/** POST requests the server saw (faulted or not). */
export function postsIn(log: readonly RequestLogEntry[]): RequestLogEntry[] {
  return log.filter((e) => e.method === "POST");
}

/** POST calls the client made (each call is one request unless retried). */
export function postCalls(c: ApiClient): { calls: number; attempts: number } {
  const s = c.metrics.snapshot();
  let calls = 0;
  let attempts = 0;
  for (const [op, o] of Object.entries(s.byOperation)) {
    if (!isPost(op)) continue;
    calls += o.calls;
    attempts += o.attempts;
  }
  return { calls, attempts };
}

function isPost(key: string): boolean {
  const def = (routes as Record<string, { method: string }>)[key];
  return def ? def.method === "POST" : key.startsWith("POST ");
}

/** A reference server that can be stopped and started again on the same port (an outage). */
export interface RestartableServer {
  url: string;
  /** The running instance (undefined while stopped). */
  current(): PhServer | undefined;
  /** Stop answering: the port refuses connections; open ones are dropped. */
  stop(): Promise<void>;
  /** Answer again on the same port (a fresh in-memory service). */
  start(): Promise<void>;
  /** Requests every instance answered (or dropped on purpose), in order. */
  log(): RequestLogEntry[];
}

export async function restartableServer(options: ServerOptions = {}): Promise<RestartableServer> {
  const logs: RequestLogEntry[][] = [];
  let server: PhServer | undefined;
  let port = 0;
  const start = async () => {
    server = await buildServer({ tokens: Object.values(TOKENS), requestLog: true, ...options });
    logs.push(server.requestLog);
    const url = await server.listen(port, "127.0.0.1");
    port = Number(new URL(url).port);
  };
  await start();
  return {
    url: `http://127.0.0.1:${port}`,
    current: () => server,
    async stop() {
      const s = server;
      server = undefined;
      await s?.close();
    },
    start,
    log: () => logs.flat(),
  };
}
