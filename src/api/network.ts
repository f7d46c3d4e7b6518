/**
 * Corporate networks: which proxy and which certificate authorities the API connections use.
 *
 * - Proxy: `HTTPS_PROXY` / `HTTP_PROXY` / `NO_PROXY` (lower-case forms win, as in curl and
 *   undici). Requests go through a CONNECT tunnel, so the proxy sees the target host and
 *   never a request header — the bearer token travels only inside the tunnel.
 * - CAs: Node's roots plus `NODE_EXTRA_CA_CERTS` (read by Node at startup) by default; a PEM
 *   bundle from `caFile:` in phctl.yaml or `PHCTL_CA_FILE` is added to those roots.
 *
 * `resolveNetwork()` reads all of it once; the transport and `phctl doctor` use the result.
 */
import { readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";
import { userError } from "../errors.js";

/** The proxy variables as read (empty string: not set). */
export interface ProxySettings {
  https: string;
  http: string;
  noProxy: string;
}

/** One place extra CA certificates came from. */
export interface CaSource {
  /** The setting that named it: `NODE_EXTRA_CA_CERTS`, `PHCTL_CA_FILE`, `caFile` (phctl.yaml). */
  from: string;
  file: string;
  certificates: number;
}

/** What the API connections trust: Node's roots, plus the sources listed. */
export interface CaSettings {
  sources: CaSource[];
  /**
   * The full list of trusted CAs to hand to TLS, or undefined to keep Node's default store
   * (its roots plus NODE_EXTRA_CA_CERTS) — only a CA file needs the explicit list.
   */
  pems?: string[];
}

/** Proxy and CAs of every connection a client makes. */
export interface NetworkSettings {
  /** Undefined: no proxy variable set (or proxies turned off, as for the embedded server). */
  proxy: ProxySettings | undefined;
  ca: CaSettings;
}

export interface NetworkInput {
  env?: NodeJS.ProcessEnv;
  /** A PEM bundle (absolute, or relative to the working directory): phctl.yaml's `caFile:`. */
  caFile?: string;
  /** Where caFile came from, for messages (default `caFile`). */
  caFileFrom?: string;
  /** Ignore proxy variables (loopback servers phctl starts itself). */
  noProxy?: boolean;
}

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM bundle; a user error naming the file and setting otherwise. */
export function readPemBundle(file: string, from: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw userError(
      "CA_FILE",
      `${from} ${file}: ${(e as NodeJS.ErrnoException).code ?? "cannot read"}; give a readable PEM file of CA certificates`,
    );
  }
  const pems = text.match(PEM) ?? [];
  if (pems.length === 0)
    throw userError(
      "CA_FILE",
      `${from} ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
    );
  return pems;
}

const first = (env: NodeJS.ProcessEnv, ...names: string[]): string => {
  for (const n of names) {
    const v = env[n]?.trim();
    if (v) return v;
  }
  return "";
};

/** Proxy and CA settings from the environment and phctl.yaml. */
export function resolveNetwork(o: NetworkInput = {}): NetworkSettings {
  const env = o.env ?? process.env;
  const https = first(env, "https_proxy", "HTTPS_PROXY");
  const http = first(env, "http_proxy", "HTTP_PROXY");
  const proxy =
    !o.noProxy && (https || http)
      ? { https, http, noProxy: first(env, "no_proxy", "NO_PROXY") }
      : undefined;
  for (const url of [https, http].filter(Boolean)) {
    if (!URL.canParse(url))
      throw userError(
        "BAD_PROXY",
        `proxy ${redactProxy(url)} is not a URL (HTTPS_PROXY / HTTP_PROXY)`,
      );
  }

  const sources: CaSource[] = [];
  const extra: string[] = [];
  const nodeExtra = env.NODE_EXTRA_CA_CERTS?.trim();
  if (nodeExtra) {
    // Node read it at startup already; read here too to list it, and to keep it when a CA
    // file makes the list explicit (an explicit list replaces Node's default store).
    try {
      const pems = readPemBundle(nodeExtra, "NODE_EXTRA_CA_CERTS");
      sources.push({ from: "NODE_EXTRA_CA_CERTS", file: nodeExtra, certificates: pems.length });
      extra.push(...pems);
    } catch {
      // Node warns about an unreadable NODE_EXTRA_CA_CERTS itself; nothing to add.
    }
  }
  const caFile = o.caFile ?? (env.PHCTL_CA_FILE?.trim() || undefined);
  const from = o.caFile !== undefined ? (o.caFileFrom ?? "caFile") : "PHCTL_CA_FILE";
  if (!caFile) return { proxy, ca: { sources } };
  const pems = readPemBundle(caFile, from);
  sources.push({ from, file: caFile, certificates: pems.length });
  return { proxy, ca: { sources, pems: [...rootCertificates, ...extra, ...pems] } };
}

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

/**
 * The proxy a request to `origin` goes through, or undefined for a direct connection: the
 * rules of undici's EnvHttpProxyAgent (NO_PROXY entries are hosts, `.domain` / `*.domain`
 * suffixes or `host:port`; `*` turns the proxy off).
 */
export function proxyFor(origin: string, proxy: ProxySettings | undefined): string | undefined {
  if (!proxy) return undefined;
  const u = new URL(origin);
  const url = u.protocol === "https:" ? proxy.https || proxy.http : proxy.http;
  if (!url) return undefined;
  const host = u.host.replace(/:\d*$/, "").toLowerCase();
  const port = Number.parseInt(u.port, 10) || DEFAULT_PORTS[u.protocol] || 0;
  const entries = proxy.noProxy.split(/[,\s]/).filter(Boolean);
  if (proxy.noProxy.trim() === "*") return undefined;
  for (const entry of entries) {
    const m = /^(.+):(\d+)$/.exec(entry);
    const name = (m ? m[1] : entry).replace(/^\*?\./, "").toLowerCase();
    if (m && Number(m[2]) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return undefined;
  }
  return url;
}

/** A proxy URL fit to print: credentials in it are replaced by `***`. */
export function redactProxy(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, "$1***@");
}

/** The proxy a request goes through, as people read it: redacted, and the setting naming it. */
export interface ShownProxy {
  /** `http://***@proxy:3128` */
  url: string;
  variable: "HTTPS_PROXY" | "HTTP_PROXY";
}

/** The proxy of `origin` as people read it, or undefined for a direct connection. */
export function shownProxyFor(
  origin: string,
  proxy: ProxySettings | undefined,
): ShownProxy | undefined {
  const url = proxyFor(origin, proxy);
  if (!url) return undefined;
  const https = new URL(origin).protocol === "https:" && proxy?.https;
  return { url: redactProxy(url), variable: https ? "HTTPS_PROXY" : "HTTP_PROXY" };
}

/** One line for people: `none`, or `http://proxy:3128 (NO_PROXY: .internal)`. */
export function describeProxySettings(proxy: ProxySettings | undefined): string {
  if (!proxy) return "none";
  const parts = [
    proxy.https ? `HTTPS_PROXY ${redactProxy(proxy.https)}` : "",
    proxy.http ? `HTTP_PROXY ${redactProxy(proxy.http)}` : "",
    proxy.noProxy ? `NO_PROXY ${proxy.noProxy}` : "",
  ];
  return parts.filter(Boolean).join(", ");
}

/** One line for people: the CAs trusted besides Node's roots. */
export function describeCaSettings(ca: CaSettings): string {
  if (ca.sources.length === 0) return "Node's default roots";
  const list = ca.sources.map(
    (s) => `${s.from} ${s.file} (${s.certificates} certificate${s.certificates === 1 ? "" : "s"})`,
  );
  return `Node's default roots + ${list.join(" + ")}`;
}
