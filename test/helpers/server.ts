/**
 * Start the reference server on a loopback port for a test file, with one token per role
 * (parent organization acme) and a system-admin token of another parent organization
 * (globex), and call it over real HTTP. /_control and the request log are on (a server
 * built without this helper has neither unless asked).
 */
import { appendFileSync } from "node:fs";
import { request } from "undici";
import { buildServer, type PhServer } from "../../src/server/app.js";
import type { ServerOptions, TokenSpec } from "../../src/server/options.js";

export const TOKENS = {
  admin: { secret: "t-admin", role: "system-admin", parentOrganization: "acme" },
  users: { secret: "t-users", role: "users-admin", parentOrganization: "acme" },
  projects: { secret: "t-projects", role: "projects-admin", parentOrganization: "acme" },
  member: { secret: "t-member", role: "member", parentOrganization: "acme" },
  other: { secret: "t-other", role: "system-admin", parentOrganization: "globex" },
} as const satisfies Record<string, TokenSpec>;
export type Who = keyof typeof TOKENS;

/** The request log size of test servers (a test file makes far fewer requests). */
export const TEST_REQUEST_LOG_SIZE = 200_000;

export interface ApiAnswer<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

export interface CallOptions {
  as?: Who | null;
  body?: unknown;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
}

export interface TestServer {
  server: PhServer;
  url: string;
  /** Call the API; `as` picks the token (default admin; null = no token). */
  call<T = any>(method: string, path: string, opts?: CallOptions): Promise<ApiAnswer<T>>;
  /** Poll a queue status path until the job is no longer open/inprogress. */
  waitJob(statusPath: string): Promise<any>;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions = {}): Promise<TestServer> {
  const server = await buildServer({
    tokens: Object.values(TOKENS),
    checkResponses: true,
    // Tests read /_control and count requests (PHCTL_ROUTE_COVERAGE reads the log too):
    // both on, the log large enough that no test file's requests fall out of it.
    control: true,
    requestLog: true,
    requestLogSize: TEST_REQUEST_LOG_SIZE,
    ...options,
  });
  const url = await server.listen(0, "127.0.0.1");
  const call = async <T>(
    method: string,
    path: string,
    opts: CallOptions = {},
  ): Promise<ApiAnswer<T>> => {
    const headers: Record<string, string> = { ...opts.headers };
    const who = opts.as === undefined ? "admin" : opts.as;
    if (who) headers.authorization = `Bearer ${TOKENS[who].secret}`;
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    const qs = opts.query
      ? `?${new URLSearchParams(Object.fromEntries(Object.entries(opts.query).map(([k, v]) => [k, String(v)]))).toString()}`
      : "";
    const res = await request(`${url}${path}${qs}`, {
      method: method as "GET",
      headers,
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
    });
    const text = await res.body.text();
    return {
      status: res.statusCode,
      headers: res.headers,
      body: text ? JSON.parse(text) : undefined,
    };
  };
  return {
    server,
    url,
    call,
    async waitJob(statusPath) {
      for (let i = 0; i < 200; i++) {
        const r = await call<any>("GET", statusPath);
        if (r.status !== 200)
          throw new Error(`job status ${statusPath}: ${r.status} ${JSON.stringify(r.body)}`);
        if (r.body.status !== "open" && r.body.status !== "inprogress") return r.body;
        await new Promise((res) => setTimeout(res, 5));
      }
      throw new Error(`job ${statusPath} did not finish`);
    },
    close: async () => {
      // PHCTL_ROUTE_COVERAGE=FILE records which operations the tests reached, and how.
      const out = process.env.PHCTL_ROUTE_COVERAGE;
      if (out) {
        const lines = server.requestLog.map((e) => `${e.operation ?? "-"} ${e.status}`);
        appendFileSync(out, lines.length ? `${lines.join("\n")}\n` : "");
      }
      await server.close();
    },
  };
}
