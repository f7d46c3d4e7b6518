/**
 * `phctl doctor`'s connection checks, each a row of the report: the network (proxy, CAs,
 * the TLS handshake), what the first call says (URL reachable, token accepted, parent
 * organization), the role (not shown by the API), and what the answers said on the side
 * (clock skew from `Date`, rate-limit headers), and the API profile in use.
 */
import type { ApiError } from "../api/errors.js";
import {
  describeCaSettings,
  describeProxySettings,
  proxyFor,
  redactProxy,
  type NetworkSettings,
} from "../api/network.js";
import type { ApiProfile } from "../api/profile.js";
import { describeTlsFailure, inspectTls } from "../api/tls.js";
import { dataOf, ms, type Answer, type Prober, type Refusal } from "./doctor-probe.js";
import type { Check } from "./doctor-report.js";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/i;

export function networkChecks(apiUrl: string, network: NetworkSettings): Check[] {
  const origin = new URL(apiUrl).origin;
  const via = proxyFor(origin, network.proxy);
  const proxy = describeProxySettings(network.proxy);
  return [
    {
      name: "proxy",
      status: "info",
      detail: via
        ? `${redactProxy(via)} (CONNECT tunnel; ${proxy})`
        : network.proxy
          ? `not used for ${new URL(apiUrl).host} (${proxy})`
          : "none (HTTPS_PROXY, HTTP_PROXY not set)",
    },
    { name: "CA", status: "info", detail: describeCaSettings(network.ca) },
  ];
}

export async function tlsCheck(apiUrl: string, network: NetworkSettings): Promise<Check> {
  const u = new URL(apiUrl);
  if (u.protocol !== "https:") {
    const local = LOOPBACK.test(u.hostname);
    return {
      name: "TLS",
      status: local ? "info" : "warn",
      detail: `none: ${u.protocol}// sends the token unencrypted${local ? " (loopback)" : ""}`,
      ...(local ? {} : { fix: "use the https:// URL of the service" }),
    };
  }
  try {
    const seen = await inspectTls(u.origin, network);
    const leaf = seen.chain[0];
    const days = leaf ? Math.floor((Date.parse(leaf.validTo) - Date.now()) / 86_400_000) : 0;
    const cert = leaf
      ? `${leaf.subject}, issuer ${leaf.issuer}, expires ${leaf.validTo.slice(0, 10)} (${days} days)`
      : "no certificate";
    if (!seen.authorized) {
      const code = seen.authorizationError ?? "UNTRUSTED";
      return {
        name: "TLS",
        status: "fail",
        detail: `${seen.protocol}; ${cert}`,
        fix: describeTlsFailure(code, u.host, seen, network),
      };
    }
    return {
      name: "TLS",
      status: days < 14 ? "warn" : "ok",
      detail: `${seen.protocol}; ${cert}`,
      ...(days < 14 ? { fix: "the certificate expires soon: tell the service's operators" } : {}),
    };
  } catch (e) {
    return { name: "TLS", status: "fail", detail: `no handshake: ${(e as Error).message}` };
  }
}

/** URL and token from the first call's answer. */
export function firstCallChecks(apiUrl: string, a: Answer | Refusal): Check[] {
  const e = a.ok ? undefined : (a.error as ApiError);
  if (a.ok)
    return [
      { name: "URL", status: "ok", detail: `${apiUrl} answers (${a.status} in ${ms(a.ms)})` },
      { name: "token", status: "ok", detail: "accepted" },
    ];
  if (a.status === 0)
    return [
      {
        name: "URL",
        status: "fail",
        detail: `not reachable: ${e?.serverMessage ?? a.error.message}`,
      },
    ];
  // A redirect or an HTML page: something answers at this address, but not the API.
  if (e?.code === "NOT_THE_API")
    return [
      {
        name: "URL",
        status: "fail",
        detail: `${apiUrl} answers (${a.status} in ${ms(a.ms)}), but not as the API: ${e.serverMessage}`,
      },
    ];
  const url: Check = {
    name: "URL",
    status: "ok",
    detail: `${apiUrl} answers (${a.status} in ${ms(a.ms)})`,
  };
  if (a.status === 401)
    return [
      url,
      {
        name: "token",
        status: "fail",
        detail: `not accepted (401 ${e?.serverMessage ?? ""})`,
        fix: "set a valid token in PHCTL_TOKEN or pass --token-file FILE",
      },
    ];
  if (a.status === 403)
    return [
      url,
      {
        name: "token",
        status: "fail",
        detail: `accepted, but may not read the organization list (403 ${e?.serverMessage ?? ""})`,
        fix: "ask the support channel for a token that may read (every role may)",
      },
    ];
  return [
    url,
    { name: "token", status: "warn", detail: `not known: the first read answered ${a.status}` },
  ];
}

export function parentCheck(
  orgList: Answer | Refusal,
  configured: string | undefined,
): { check: Check; parent?: string } {
  const orgs = orgList.ok ? dataOf(orgList.body) : undefined;
  const parent = Array.isArray(orgs)
    ? (orgs as { name?: unknown; parentOrganization?: unknown }[]).find(
        (o) => o?.parentOrganization === null,
      )?.name
    : undefined;
  if (typeof parent !== "string")
    return {
      check: orgList.ok
        ? {
            name: "parent organization",
            status: "fail",
            detail: "not found: the organization list has no entry without a parent",
            fix: "phctl names it in team reads and writes; check the token with the support channel",
          }
        : {
            name: "parent organization",
            status: "skip",
            detail: "the organization list was not read",
          },
    };
  const how = "the organization list's entry without a parent";
  if (configured !== undefined && configured !== parent)
    return {
      parent,
      check: {
        name: "parent organization",
        status: "fail",
        detail: `${parent} (${how}), but phctl.yaml says organization: ${configured}`,
        fix: `set organization: ${parent} in phctl.yaml, or use the token of ${configured}`,
      },
    };
  return {
    parent,
    check: { name: "parent organization", status: "ok", detail: `${parent} (${how})` },
  };
}

export const ROLE: Check = {
  name: "role",
  status: "info",
  detail:
    "not shown: the API has no who-am-I read and every role may read what phctl reads; a write the role may not make answers 403 naming the role it needs",
};

export function clockCheck(p: Prober, maxSkewMs: number): Check {
  const skew = p.skewMs();
  if (skew === undefined && p.undated === 0)
    return { name: "clock", status: "skip", detail: "no answer to read the server's Date from" };
  if (skew === undefined)
    return { name: "clock", status: "warn", detail: "no Date header in the answers: skew unknown" };
  const s = Math.round(skew / 1000);
  const text =
    Math.abs(skew) < 1500
      ? "in step with this machine (±1 s)"
      : `server is ${Math.abs(s)} s ${s > 0 ? "ahead of" : "behind"} this machine`;
  if (Math.abs(skew) <= maxSkewMs) return { name: "clock", status: "ok", detail: text };
  return {
    name: "clock",
    status: "warn",
    detail: text,
    fix: "sync this machine's clock (NTP): queued-job timeouts and lock ages are measured against it",
  };
}

export function rateLimitCheck(p: Prober): Check {
  const seen = [...p.rateLimit.entries()].map(([k, v]) => `${k}: ${v}`);
  return {
    name: "rate limits",
    status: "info",
    detail: seen.length
      ? seen.join("; ")
      : `no RateLimit-*, X-RateLimit-* or Retry-After header in ${p.requests} answer${p.requests === 1 ? "" : "s"}`,
  };
}

export function profileCheck(profile: ApiProfile): Check {
  const ops = Object.keys(profile.operations).length;
  const items = profile.list.items === "data" ? "" : `, list items at ${profile.list.items}`;
  return {
    name: "API profile",
    status: "info",
    detail: profile.file
      ? `${profile.file} (${ops} operation${ops === 1 ? "" : "s"} overridden${items})`
      : "none: the route table as shipped",
  };
}
