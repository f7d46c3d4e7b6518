/**
 * Plumbing shared by the GitHub and GitLab fakes (fake-github.ts, fake-gitlab.ts): a
 * node:http server on 127.0.0.1:0, a request log, JSON bodies, and one-shot faults.
 *
 * A fault (`failNext`) answers the next request whose method and path (without the query
 * string) match, once, with the given status, JSON body and headers. Status 0 drops the
 * connection without an answer (a reset). With `landed: true` the request is handled first
 * (a write takes effect) and the fault is answered instead of the real answer: the case of
 * a comment that was created although the client saw a 502 or a reset.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: any;
}

export interface FakeReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface LoggedRequest {
  method: string;
  /** Path with the query string, as sent. */
  path: string;
  /** The status answered; 0 when the connection was dropped. */
  status: number;
}

export interface FaultOptions {
  headers?: Record<string, string>;
  /** Handle the request (the write lands), then answer with the fault. */
  landed?: boolean;
}

export interface FakeServer {
  url: string;
  requests: LoggedRequest[];
  failNext(method: string, path: RegExp, status: number, body?: unknown, opts?: FaultOptions): void;
  close(): Promise<void>;
}

interface Fault extends FaultOptions {
  method: string;
  path: RegExp;
  status: number;
  body?: unknown;
}

export async function startFakeServer(
  handle: (req: FakeRequest, url: string) => FakeReply,
): Promise<FakeServer> {
  const requests: LoggedRequest[] = [];
  const faults: Fault[] = [];
  let url = "";
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const full = new URL(req.url ?? "/", url);
      const method = req.method ?? "GET";
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const entry: LoggedRequest = { method, path: `${full.pathname}${full.search}`, status: 0 };
      requests.push(entry);
      const i = faults.findIndex((f) => f.method === method && f.path.test(full.pathname));
      const fault = i >= 0 ? faults.splice(i, 1)[0] : undefined;
      let reply: FakeReply | undefined;
      if (!fault || fault.landed)
        reply = handle(
          { method, path: full.pathname, query: full.searchParams, headers: req.headers, body },
          url,
        );
      if (fault) {
        if (fault.status === 0) {
          req.socket.destroy();
          return;
        }
        reply = {
          status: fault.status,
          ...(fault.body !== undefined ? { body: fault.body } : {}),
          ...(fault.headers ? { headers: fault.headers } : {}),
        };
      }
      const r = reply!;
      entry.status = r.status;
      const payload = r.body === undefined ? "" : JSON.stringify(r.body);
      res.writeHead(r.status, {
        ...(payload ? { "content-type": "application/json; charset=utf-8" } : {}),
        ...r.headers,
      });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    failNext(method, path, status, body, opts = {}) {
      faults.push({ method, path, status, body, ...opts });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

/** Page `items` as both platforms do: 1-based `page`, `per_page` capped at `max`. */
export function pageOf<T>(
  items: readonly T[],
  query: URLSearchParams,
  defaultPerPage: number,
  max = 100,
): { items: T[]; page: number; perPage: number; pages: number } {
  const perPage = Math.min(max, Math.max(1, Number(query.get("per_page")) || defaultPerPage));
  const page = Math.max(1, Number(query.get("page")) || 1);
  const pages = Math.max(1, Math.ceil(items.length / perPage));
  return { items: items.slice((page - 1) * perPage, page * perPage), page, perPage, pages };
}
