/**
 * Failed connections in words, and the one to a proxy said as the proxy's: with a proxy in
 * use the client only ever connects to the proxy (which reaches the service, and answers
 * an error of its own when it cannot), so a connection that was never made is the proxy
 * not answering — named, credentials redacted, with what to check — not the service.
 */
import type { ShownProxy } from "./network.js";
import type { WireFailure } from "./transport.js";

const CONNECTION_WORDS: Readonly<Record<string, string>> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  UND_ERR_SOCKET: "connection closed",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host not found",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  UND_ERR_CONNECT_TIMEOUT: "connect timeout",
};

/** A failed connection's code in a few words (`connection refused`). */
export function connectionWords(code: string): string {
  return CONNECTION_WORDS[code] ?? "connection failed";
}

/** A failure to connect through `proxy` as the proxy's, for people; others as they are. */
export function viaProxy(
  origin: string,
  f: WireFailure,
  proxy: ShownProxy | undefined,
): WireFailure {
  // Not sent and not permanent: it never connected (a refused certificate is permanent).
  if (!proxy || f.sent || f.permanent || f.timeout) return f;
  const host = new URL(origin).hostname.replace(/^\[|\]$/g, "");
  return {
    ...f,
    proxy,
    message: `the proxy ${proxy.url} (${proxy.variable}) does not answer (${connectionWords(f.code)}, ${f.code}): check that the proxy runs and accepts connections there, or correct ${proxy.variable} (NO_PROXY=${host} goes without it)`,
  };
}
