/**
 * TLS for people: which certificate a server presents (`inspectTls`, a handshake through the
 * same proxy and with the same CAs as the client, that sends no request and no header) and
 * why it was refused, with the setting that fixes it (`describeTlsFailure`). The transport
 * calls both when a connection fails its certificate check; `phctl doctor` shows the former.
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type Socket } from "node:net";
import { connect as tlsConnect, type DetailedPeerCertificate } from "node:tls";
import { proxyFor, redactProxy, type NetworkSettings } from "./network.js";

/** Codes of a certificate the client refused (OpenSSL verify codes, Node's host check). */
const UNTRUSTED = new Set([
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "INVALID_CA",
  "CERT_SIGNATURE_FAILURE",
]);
const EXPIRED = new Set(["CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID"]);
const WRONG_NAME = new Set(["ERR_TLS_CERT_ALTNAME_INVALID", "HOSTNAME_MISMATCH"]);

/** Is this failure code a refused certificate (not worth sending again)? */
export function isTlsCertificateFailure(code: string): boolean {
  return UNTRUSTED.has(code) || EXPIRED.has(code) || WRONG_NAME.has(code);
}

/** One certificate, as people read it. */
export interface CertificateInfo {
  /** `CN=api.example.org, O=Example` */
  subject: string;
  issuer: string;
  validFrom: string;
  /** ISO date-time of expiry. */
  validTo: string;
  /** `DNS:api.example.org, IP Address:10.0.0.1` */
  altNames?: string;
}

/** What a TLS handshake showed. */
export interface TlsInspection {
  /** `TLSv1.3`; null when the handshake did not finish. */
  protocol: string | null;
  /** Would the client trust it (chain and host name)? */
  authorized: boolean;
  /** The verify code when not authorized (`SELF_SIGNED_CERT_IN_CHAIN`). */
  authorizationError?: string;
  /** The server's certificate first, then its issuers as sent (or as found locally). */
  chain: CertificateInfo[];
  /** The proxy the handshake went through (credentials redacted), if any. */
  proxy?: string;
}

function dn(o: Record<string, string | string[]> | undefined): string {
  if (!o) return "";
  return Object.entries(o)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join("+") : v}`)
    .join(", ");
}

function infoOf(c: DetailedPeerCertificate): CertificateInfo {
  return {
    subject: dn(c.subject as unknown as Record<string, string>),
    issuer: dn(c.issuer as unknown as Record<string, string>),
    validFrom: new Date(c.valid_from).toISOString(),
    validTo: new Date(c.valid_to).toISOString(),
    ...(c.subjectaltname ? { altNames: c.subjectaltname } : {}),
  };
}

function chainOf(leaf: DetailedPeerCertificate | undefined): CertificateInfo[] {
  const out: CertificateInfo[] = [];
  const seen = new Set<string>();
  for (let c = leaf; c && c.raw && !seen.has(c.fingerprint256); c = c.issuerCertificate) {
    seen.add(c.fingerprint256);
    out.push(infoOf(c));
  }
  return out;
}

/** A CONNECT tunnel to `host:port` through `proxyUrl` (the proxy's own credentials only). */
function tunnel(proxyUrl: string, host: string, port: number, timeoutMs: number): Promise<Socket> {
  const p = new URL(proxyUrl);
  const auth =
    p.username || p.password
      ? {
          "proxy-authorization": `Basic ${Buffer.from(`${decodeURIComponent(p.username)}:${decodeURIComponent(p.password)}`).toString("base64")}`,
        }
      : {};
  return new Promise((resolve, reject) => {
    const req = (p.protocol === "https:" ? httpsRequest : httpRequest)({
      host: p.hostname,
      port: p.port || (p.protocol === "https:" ? 443 : 80),
      method: "CONNECT",
      path: `${host}:${port}`,
      headers: { host: `${host}:${port}`, ...auth },
      timeout: timeoutMs,
    });
    req.once("connect", (res, socket) => {
      if (res.statusCode === 200) return resolve(socket);
      socket.destroy();
      reject(new Error(`proxy ${redactProxy(proxyUrl)} answered ${res.statusCode} to CONNECT`));
    });
    req.once("timeout", () => req.destroy(new Error(`proxy ${redactProxy(proxyUrl)}: timeout`)));
    req.once("error", reject);
    req.end();
  });
}

/**
 * Shake hands with the server of `origin` (an https origin) as the client would — same
 * proxy, same CAs — but accept any certificate, read it, and hang up: nothing is sent.
 */
export async function inspectTls(
  origin: string,
  network: NetworkSettings,
  timeoutMs = 5_000,
): Promise<TlsInspection> {
  const u = new URL(origin);
  const host = u.hostname.replace(/^\[|\]$/g, "");
  const port = Number(u.port) || 443;
  const proxy = proxyFor(origin, network.proxy);
  const socket = proxy ? await tunnel(proxy, host, port, timeoutMs) : undefined;
  return new Promise((resolve, reject) => {
    const tls = tlsConnect({
      host,
      port,
      ...(socket ? { socket } : {}),
      ...(isIP(host) ? {} : { servername: host }),
      ...(network.ca.pems ? { ca: network.ca.pems } : {}),
      rejectUnauthorized: false,
      ALPNProtocols: ["http/1.1"],
    });
    const timer = setTimeout(
      () => tls.destroy(new Error(`TLS handshake: no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    tls.once("secureConnect", () => {
      clearTimeout(timer);
      const result: TlsInspection = {
        protocol: tls.getProtocol(),
        authorized: tls.authorized,
        ...(tls.authorizationError ? { authorizationError: String(tls.authorizationError) } : {}),
        chain: chainOf(tls.getPeerCertificate(true)),
        ...(proxy ? { proxy: redactProxy(proxy) } : {}),
      };
      tls.destroy();
      resolve(result);
    });
    tls.once("error", (e: Error) => {
      clearTimeout(timer);
      socket?.destroy();
      reject(e);
    });
  });
}

const FIX =
  "set NODE_EXTRA_CA_CERTS=/path/ca.pem or caFile: in phctl.yaml (or PHCTL_CA_FILE) to the PEM file of the CA that issued it";

/**
 * One line saying which certificate failed and what to do, e.g.
 * `TLS: the certificate of api.example.org (subject: CN=api.example.org; issuer: CN=Corp
 * Root CA) is not trusted (SELF_SIGNED_CERT_IN_CHAIN): set NODE_EXTRA_CA_CERTS=/path/ca.pem
 * or caFile: in phctl.yaml …`.
 * `seen` is what `inspectTls` found, when it could look.
 */
export function describeTlsFailure(
  code: string,
  host: string,
  seen?: TlsInspection,
  network?: NetworkSettings,
): string {
  const leaf = seen?.chain[0];
  const root = seen?.chain.at(-1);
  const via = seen?.proxy ? ` through the proxy ${seen.proxy}` : "";
  const files = network?.ca.sources.map((s) => `${s.from} ${s.file}`) ?? [];
  if (EXPIRED.has(code)) {
    const when = leaf
      ? ` (valid ${leaf.validFrom.slice(0, 10)} to ${leaf.validTo.slice(0, 10)})`
      : "";
    return `TLS: the certificate of ${host}${via}${when} is ${code === "CERT_HAS_EXPIRED" ? "expired" : "not valid yet"} (${code}): check the clock of this machine, or ask the service's operators to renew it`;
  }
  if (WRONG_NAME.has(code)) {
    const names = leaf?.altNames ? ` (it names ${leaf.altNames})` : "";
    return `TLS: the certificate of ${host}${via} is not for that name${names} (${code}): use a host name the certificate names in --api-url / PHCTL_API_URL`;
  }
  // The subject says which certificate it is; the issuer at the top of the chain is the CA
  // whose PEM file makes it trusted (README: "fails at once with its subject and issuer").
  const issuer = root ? root.issuer || root.subject : undefined;
  const named = [leaf?.subject && `subject: ${leaf.subject}`, issuer && `issuer: ${issuer}`];
  const who = named.some(Boolean) ? ` (${named.filter(Boolean).join("; ")})` : "";
  const tried = files.length ? `; ${files.join(" and ")} did not vouch for it` : "";
  return `TLS: the certificate of ${host}${via}${who} is not trusted (${code})${tried}: ${FIX}`;
}
