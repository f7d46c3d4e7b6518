/**
 * Services that do not answer, on loopback, for the outage benchmark (bench/outage.ts) and
 * the e2e tests of `--outage-timeout`: the ways a service hangs that a refused connection
 * does not show.
 *
 * - `silent`: accepts every connection and reads the request, never answers a byte;
 * - `stalling`: answers the status line and headers (200, a JSON content-length), the
 *   first bytes of the body, then nothing more;
 * - `swallowingProxy(target)`: a TCP proxy in front of a real service that, while
 *   swallowing, reads every request and neither forwards nor answers it — and never answers
 *   it later either: the connection it came on stays dead. Connections that sent nothing
 *   meanwhile, and new ones, go through again once it stops: a service that hung for a
 *   while and came back.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

/** A loopback server of this module. */
export interface HangingServer {
  url: string;
  /** Connections it accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** Listen on a free loopback port; every accepted socket is kept to be destroyed on close. */
async function listen(
  onSocket: (s: Socket) => void,
): Promise<{ server: Server; sockets: Set<Socket>; url: string; count: () => number }> {
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createServer((s) => {
    count++;
    sockets.add(s);
    s.on("error", () => {});
    s.on("close", () => sockets.delete(s));
    onSocket(s);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { server, sockets, url: `http://127.0.0.1:${port}`, count: () => count };
}

const closer = (server: Server, sockets: Set<Socket>) => () =>
  new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  });

/** Accepts connections and never answers. */
export async function silentServer(): Promise<HangingServer> {
  const l = await listen((s) => s.resume());
  return { url: l.url, connections: l.count, close: closer(l.server, l.sockets) };
}

/** Answers headers and the first bytes of a body, then stalls. */
export async function stallingServer(): Promise<HangingServer> {
  const l = await listen((s) => {
    s.once("data", () => {
      s.write(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 4096\r\n\r\n{"items":[',
      );
      s.resume();
    });
  });
  return { url: l.url, connections: l.count, close: closer(l.server, l.sockets) };
}

/** The proxy of `swallowingProxy`: switch swallowing on and off. */
export interface SwallowingProxy extends HangingServer {
  /** From now on, or no longer: every connection held is frozen; new ones too while on. */
  swallow(on: boolean): void;
}

/** A TCP proxy to `target` (`http://host:port`) that can swallow every request for a while. */
export async function swallowingProxy(target: string): Promise<SwallowingProxy> {
  const { hostname, port } = new URL(target);
  let swallowing = false;
  /** Connections that sent a request while swallowing: dead for good. */
  const dead = new WeakSet<Socket>();
  /** Connections whose request went up and whose answer has not started coming back. */
  const waiting = new Set<Socket>();
  const l = await listen((client) => {
    const upstream = connect(Number(port), hostname);
    upstream.on("error", () => client.destroy());
    client.on("close", () => {
      waiting.delete(client);
      upstream.destroy();
    });
    upstream.on("close", () => client.destroy());
    client.on("data", (chunk) => {
      if (swallowing) dead.add(client);
      if (dead.has(client)) return;
      waiting.add(client);
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      waiting.delete(client);
      if (!dead.has(client)) client.write(chunk);
    });
  });
  return {
    url: l.url,
    connections: l.count,
    close: closer(l.server, l.sockets),
    swallow(on) {
      swallowing = on;
      // The answers still to come are never delivered either.
      if (on) for (const s of waiting) dead.add(s);
    },
  };
}
