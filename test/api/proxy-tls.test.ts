/**
 * Corporate networks: the client through a CONNECT proxy on loopback (HTTPS_PROXY,
 * HTTP_PROXY, NO_PROXY), an HTTPS front whose certificate comes from a private CA (refused
 * with a message naming the certificate and the fix; accepted with `caFile` /
 * PHCTL_CA_FILE / NODE_EXTRA_CA_CERTS), and the token never shown to the proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { createServer, type AddressInfo } from "node:net";
import { ApiError, OutageError } from "../../src/api/errors.js";
import type { ClientEvent } from "../../src/api/request.js";
import { describeEvent } from "../../src/cli/client-events.js";
import {
  describeProxySettings,
  proxyFor,
  redactProxy,
  resolveNetwork,
  type NetworkSettings,
} from "../../src/api/network.js";
import { describeTlsFailure, inspectTls } from "../../src/api/tls.js";
import { phctl } from "../helpers/cli.js";
import {
  CA_FILE,
  startConnectProxy,
  startTlsFront,
  type Loopback,
  type Proxy,
} from "../helpers/network.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let t: TestServer;
let front: Loopback;
let proxy: Proxy;
const clients: ApiClient[] = [];

beforeAll(async () => {
  t = await startServer({ requestLog: true });
  front = await startTlsFront(Number(new URL(t.url).port));
  proxy = await startConnectProxy();
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await proxy.close();
  await front.close();
  await t.close();
});

function client(apiUrl: string, network: NetworkSettings): ApiClient {
  const c = new ApiClient({
    apiUrl,
    token: TOKENS.admin.secret,
    network,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  });
  clients.push(c);
  return c;
}

const names = async (c: ApiClient) =>
  (await c.call("organizations.list")).map((o) => o.name).sort();

describe("a private CA", () => {
  it("without it the call fails at once, naming the certificate's subject, its issuer and the fix", async () => {
    const c = client(front.url, resolveNetwork({ env: {} }));
    const started = performance.now();
    const e = (await c.call("organizations.list").catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toContain(
      `TLS: the certificate of 127.0.0.1:${front.port} (subject: CN=127.0.0.1, O=phctl tests; issuer: CN=phctl test CA, O=phctl tests) is not trusted (SELF_SIGNED_CERT_IN_CHAIN): set NODE_EXTRA_CA_CERTS=/path/ca.pem or caFile: in phctl.yaml`,
    );
    expect(e.attempts).toBe(1); // sending it again cannot help: no retry, no outage wait
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(e.message).not.toContain(TOKENS.admin.secret);
  });

  it("caFile (or PHCTL_CA_FILE) adds the CA to the default roots", async () => {
    expect(await names(client(front.url, resolveNetwork({ env: {}, caFile: CA_FILE })))).toEqual([
      "acme",
    ]);
    const fromEnv = resolveNetwork({ env: { PHCTL_CA_FILE: CA_FILE } });
    expect(fromEnv.ca.sources).toEqual([{ from: "PHCTL_CA_FILE", file: CA_FILE, certificates: 1 }]);
    expect(await names(client(front.url, fromEnv))).toEqual(["acme"]);
    // Node's roots are kept: the explicit list is the roots plus the file.
    expect(fromEnv.ca.pems!.length).toBeGreaterThan(100);
  });

  it("a CA file that is missing or holds no certificate is a one-line user error", () => {
    expect(() => resolveNetwork({ env: {}, caFile: "/nope/ca.pem" })).toThrow(
      /^caFile \/nope\/ca\.pem: ENOENT; give a readable PEM file/,
    );
    expect(() => resolveNetwork({ env: { PHCTL_CA_FILE: import.meta.filename } })).toThrow(
      /PHCTL_CA_FILE .*proxy-tls\.test\.ts holds no PEM certificate/,
    );
  });

  it("NODE_EXTRA_CA_CERTS (read by Node at startup) is honoured by the client's TLS", async () => {
    const env = { PHCTL_API_URL: front.url, PHCTL_TOKEN: TOKENS.admin.secret };
    const refused = await phctl(["api", "GET", "/v1/organization/list"], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^phctl: .*TLS: the certificate of 127\.0\.0\.1:\d+ \(subject: CN=127\.0\.0\.1, O=phctl tests; issuer: CN=phctl test CA.*NODE_EXTRA_CA_CERTS.*\n$/,
    );
    const ok = await phctl(["api", "GET", "/v1/organization/list"], {
      ...env,
      NODE_EXTRA_CA_CERTS: CA_FILE,
    });
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)[0].name).toBe("acme");
  });
});

describe("a proxy", () => {
  it("HTTPS_PROXY: calls go through a CONNECT tunnel; the proxy never sees the token", async () => {
    const before = proxy.tunnels.length;
    const network = resolveNetwork({ env: { HTTPS_PROXY: proxy.url }, caFile: CA_FILE });
    expect(proxyFor(front.url, network.proxy)).toBe(proxy.url);
    expect(await names(client(front.url, network))).toEqual(["acme"]);
    const mine = proxy.tunnels.slice(before);
    expect(mine.map((x) => x.target)).toEqual([`127.0.0.1:${front.port}`]);
    const seen = JSON.stringify([...mine, ...proxy.plain]);
    expect(seen).not.toContain(TOKENS.admin.secret);
    expect(mine[0].headers.authorization).toBeUndefined();
  });

  it("HTTP_PROXY for an http:// API also tunnels (no plain proxied request carries the token)", async () => {
    const before = proxy.tunnels.length;
    const network = resolveNetwork({ env: { http_proxy: proxy.url } });
    expect(await names(client(t.url, network))).toEqual(["acme"]);
    expect(proxy.tunnels.slice(before).map((x) => x.target)).toEqual([
      `127.0.0.1:${new URL(t.url).port}`,
    ]);
    expect(proxy.plain).toEqual([]);
  });

  it("NO_PROXY bypasses it (host, or host:port)", async () => {
    const before = proxy.tunnels.length;
    for (const noProxy of ["127.0.0.1", `127.0.0.1:${front.port}`, "*"]) {
      const network = resolveNetwork({
        env: { HTTPS_PROXY: proxy.url, NO_PROXY: noProxy },
        caFile: CA_FILE,
      });
      expect(proxyFor(front.url, network.proxy)).toBeUndefined();
      expect(await names(client(front.url, network))).toEqual(["acme"]);
    }
    expect(proxy.tunnels.length).toBe(before);
  });

  it("a refused certificate through the proxy says so, and what the server presented", async () => {
    const network = resolveNetwork({ env: { HTTPS_PROXY: proxy.url } });
    const e = (await client(front.url, network)
      .call("organizations.list")
      .catch((x: unknown) => x)) as ApiError;
    expect(e.message).toContain(
      `TLS: the certificate of 127.0.0.1:${front.port} through the proxy ${proxy.url} (subject: CN=127.0.0.1, O=phctl tests; issuer: CN=phctl test CA, O=phctl tests) is not trusted`,
    );
    const seen = await inspectTls(front.url, network);
    expect(seen).toMatchObject({ authorized: false, proxy: proxy.url });
    expect(seen.chain[0]).toMatchObject({
      subject: "CN=127.0.0.1, O=phctl tests",
      issuer: "CN=phctl test CA, O=phctl tests",
      altNames: "IP Address:127.0.0.1, DNS:localhost",
    });
    expect(seen.chain[0].validTo.startsWith("2126-")).toBe(true);
  });
});

describe("a proxy that does not answer", () => {
  /** A loopback port nothing listens on. */
  const deadPort = async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    const port = (srv.address() as AddressInfo).port;
    await new Promise((r) => srv.close(r));
    return port;
  };

  it("is named (credentials redacted) with what to check, not 'the service is not answering'", async () => {
    const dead = `http://user:s3cret@127.0.0.1:${await deadPort()}`;
    const shown = `http://***@127.0.0.1:${new URL(dead).port} (HTTPS_PROXY)`;
    const events: ClientEvent[] = [];
    const c = new ApiClient({
      apiUrl: front.url,
      token: TOKENS.admin.secret,
      network: resolveNetwork({ env: { HTTPS_PROXY: dead } }),
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      outageTimeoutMs: 300,
      onEvent: (e) => events.push(e),
    });
    clients.push(c);
    const e = (await c.call("organizations.list").catch((x: unknown) => x)) as OutageError;
    expect(e).toBeInstanceOf(OutageError);
    expect(e.message).toMatch(
      new RegExp(`^the proxy ${shown.replace(/[.*()]/g, "\\$&")} has not answered for `),
    );
    expect(e.message).toMatch(/Check that the proxy runs.*HTTPS_PROXY.*NO_PROXY/);
    expect(e.message).not.toMatch(/the service at|s3cret/);
    const start = events.find((x) => x.type === "outage-start")!;
    expect(describeEvent(start)).toMatch(
      new RegExp(
        `^the proxy ${shown.replace(/[.*()]/g, "\\$&")} is not answering \\(connection refused`,
      ),
    );
    expect(JSON.stringify(events)).not.toContain("s3cret");
  });

  it("a call that gives up before an outage says the same (HTTP_PROXY for an http:// API)", async () => {
    const dead = `http://127.0.0.1:${await deadPort()}`;
    const c = new ApiClient({
      apiUrl: t.url,
      token: TOKENS.admin.secret,
      network: resolveNetwork({ env: { HTTP_PROXY: dead } }),
      retry: { baseDelayMs: 1, maxDelayMs: 2, maxRetries: 1 },
    });
    clients.push(c);
    const e = (await c.call("organizations.list").catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toContain(
      `the proxy ${dead} (HTTP_PROXY) does not answer (connection refused, ECONNREFUSED): check that the proxy runs and accepts connections there, or correct HTTP_PROXY (NO_PROXY=127.0.0.1 goes without it)`,
    );
  });
});

describe("settings as people read them", () => {
  it("proxy rules follow undici's (suffixes, ports, lower-case variables win)", () => {
    const p = { https: "http://p:3128", http: "", noProxy: ".corp.example, db:5432" };
    expect(proxyFor("https://api.corp.example", p)).toBeUndefined();
    expect(proxyFor("https://corp.example", p)).toBeUndefined();
    expect(proxyFor("https://api.example.org", p)).toBe("http://p:3128");
    expect(proxyFor("http://api.example.org", p)).toBeUndefined(); // no HTTP_PROXY
    expect(proxyFor("https://db:5432", p)).toBeUndefined();
    expect(proxyFor("https://db:5433", p)).toBe("http://p:3128");
    const env = { https_proxy: "http://a:1", HTTPS_PROXY: "http://b:2" };
    expect(resolveNetwork({ env }).proxy?.https).toBe("http://a:1");
    expect(resolveNetwork({ env, noProxy: true }).proxy).toBeUndefined();
  });

  it("proxy credentials are never printed", () => {
    expect(redactProxy("http://user:s3cret@proxy:3128")).toBe("http://***@proxy:3128");
    const line = describeProxySettings({
      https: "http://user:s3cret@proxy:3128",
      http: "",
      noProxy: "localhost",
    });
    expect(line).toBe("HTTPS_PROXY http://***@proxy:3128, NO_PROXY localhost");
  });

  it("expired and wrong-name certificates get their own advice", () => {
    const seen = {
      protocol: "TLSv1.3",
      authorized: false,
      chain: [
        {
          subject: "CN=api.example.org",
          issuer: "CN=Corp Root CA",
          validFrom: "2020-01-01T00:00:00.000Z",
          validTo: "2021-01-01T00:00:00.000Z",
          altNames: "DNS:api.example.org",
        },
      ],
    };
    expect(describeTlsFailure("CERT_HAS_EXPIRED", "api.example.org", seen)).toBe(
      "TLS: the certificate of api.example.org (valid 2020-01-01 to 2021-01-01) is expired (CERT_HAS_EXPIRED): check the clock of this machine, or ask the service's operators to renew it",
    );
    expect(describeTlsFailure("ERR_TLS_CERT_ALTNAME_INVALID", "10.0.0.1", seen)).toBe(
      "TLS: the certificate of 10.0.0.1 is not for that name (it names DNS:api.example.org) (ERR_TLS_CERT_ALTNAME_INVALID): use a host name the certificate names in --api-url / PHCTL_API_URL",
    );
    expect(describeTlsFailure("SELF_SIGNED_CERT_IN_CHAIN", "api.example.org")).toBe(
      "TLS: the certificate of api.example.org is not trusted (SELF_SIGNED_CERT_IN_CHAIN): set NODE_EXTRA_CA_CERTS=/path/ca.pem or caFile: in phctl.yaml (or PHCTL_CA_FILE) to the PEM file of the CA that issued it",
    );
  });
});
