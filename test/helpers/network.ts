/**
 * A corporate network on loopback for tests: an HTTPS front (TLS terminated with the
 * test-only certificate of test/fixtures/tls, signed by a test CA nobody trusts) that passes
 * the bytes on to a plain server, and a CONNECT proxy that records every tunnel it opens
 * (target and request headers) and never sees what goes through it.
 */
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingHttpHeaders } from "node:http";
import { connect as netConnect, type AddressInfo, type Socket } from "node:net";
import { join } from "node:path";
import { createServer as createTlsServer } from "node:tls";

export const TLS_DIR = join(import.meta.dirname, "../fixtures/tls");
export const CA_FILE = join(TLS_DIR, "ca.pem");

/** A listening loopback server and how to stop it (open sockets included). */
export interface Loopback {
  port: number;
  url: string;
  close(): Promise<void>;
}

function tracked(): { add(s: Socket): void; destroyAll(): void } {
  const open = new Set<Socket>();
  return {
    add(s) {
      open.add(s);
      s.on("close", () => open.delete(s));
    },
    destroyAll: () => open.forEach((s) => s.destroy()),
  };
}

/** HTTPS on 127.0.0.1 in front of `targetPort` (the chain sent: server cert, then the CA). */
export async function startTlsFront(targetPort: number): Promise<Loopback> {
  const sockets = tracked();
  const server = createTlsServer(
    {
      key: readFileSync(join(TLS_DIR, "server.key")),
      cert: readFileSync(join(TLS_DIR, "server.pem"), "utf8") + readFileSync(CA_FILE, "utf8"),
    },
    (tls) => {
      sockets.add(tls);
      const up = netConnect(targetPort, "127.0.0.1");
      sockets.add(up);
      tls.pipe(up).pipe(tls);
      const end = () => (tls.destroy(), up.destroy());
      tls.on("error", end);
      up.on("error", end);
    },
  );
  // Handshake failures (the client refusing our certificate) are what some tests want.
  server.on("tlsClientError", () => undefined);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `https://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        sockets.destroyAll();
        server.close(() => r());
      }),
  };
}

/** One CONNECT the proxy saw. */
export interface Tunnel {
  target: string;
  headers: IncomingHttpHeaders;
}

export interface Proxy extends Loopback {
  tunnels: Tunnel[];
  /** Requests that were not CONNECT (a plain proxied request would show its headers). */
  plain: IncomingHttpHeaders[];
}

/** A CONNECT proxy on 127.0.0.1 that records each tunnel's target and headers. */
export async function startConnectProxy(): Promise<Proxy> {
  const sockets = tracked();
  const tunnels: Tunnel[] = [];
  const plain: IncomingHttpHeaders[] = [];
  const server = createHttpServer((req, res) => {
    plain.push(req.headers);
    res.writeHead(501).end("this proxy only tunnels");
  });
  server.on("connect", (req, client: Socket, head: Buffer) => {
    sockets.add(client);
    tunnels.push({ target: req.url ?? "", headers: req.headers });
    const [host, port] = (req.url ?? "").split(":");
    const up = netConnect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length) up.write(head);
      up.pipe(client).pipe(up);
    });
    sockets.add(up);
    const end = () => (client.destroy(), up.destroy());
    client.on("error", end);
    up.on("error", end);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    tunnels,
    plain,
    close: () =>
      new Promise((r) => {
        sockets.destroyAll();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
