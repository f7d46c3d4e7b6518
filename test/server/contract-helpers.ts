/**
 * What the server contract tests share: a server built in the test's process with two
 * tenants (acme and globex, a system-admin and a member each) and a test-admin token, and
 * a JSON call through `inject()` (no socket; the socket-level tests open their own).
 */
import { buildServer, type PhServer } from "../../src/server/app.js";
import type { ServerOptions, TokenSpec } from "../../src/server/options.js";

export const CONTRACT_TOKENS = {
  acme: { secret: "c-acme", role: "system-admin", parentOrganization: "acme" },
  acmeMember: { secret: "c-acme-member", role: "member", parentOrganization: "acme" },
  globex: { secret: "c-globex", role: "system-admin", parentOrganization: "globex" },
  testAdmin: {
    secret: "c-test-admin",
    role: "system-admin",
    parentOrganization: "globex",
    testAdmin: true,
  },
} as const satisfies Record<string, TokenSpec>;
export type ContractWho = keyof typeof CONTRACT_TOKENS;

export interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: any;
}

export interface ContractServer {
  server: PhServer;
  call(
    method: string,
    url: string,
    o?: { as?: ContractWho | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<Answer>;
  close(): Promise<void>;
}

export async function contractServer(options: ServerOptions = {}): Promise<ContractServer> {
  const server = await buildServer({ tokens: Object.values(CONTRACT_TOKENS), ...options });
  return {
    server,
    async call(method, url, o = {}) {
      const who = o.as === undefined ? "acme" : o.as;
      const headers: Record<string, string> = { ...o.headers };
      if (who) headers.authorization = `Bearer ${CONTRACT_TOKENS[who].secret}`;
      const r = await server.app.inject({
        method: method as "GET",
        url,
        headers,
        ...(o.body !== undefined ? { payload: o.body as object } : {}),
      });
      return { status: r.statusCode, headers: r.headers, body: r.body ? r.json() : undefined };
    },
    close: () => server.close(),
  };
}
