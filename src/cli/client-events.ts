/**
 * What the CLI says about the API client's events on stderr: outages always (a line for
 * people, or an `api.outage` JSON line with --json); retries with --verbose or --json. The
 * metrics summary (metrics.ts) and the throttle in use close a connection (config.ts).
 */
import { humanDuration } from "../api/errors.js";
import type { ClientEvent } from "../api/request.js";

const serviceOf = (e: { api?: "git" }) =>
  e.api === "git" ? "the delivery-metrics API (--git-api-url)" : "the service";

/** The stderr line of a client event, for people (undefined: nothing to say). */
export function describeEvent(e: ClientEvent): string | undefined {
  switch (e.type) {
    case "retry": {
      const t = e.target;
      return `retry ${t.method} ${t.pathTemplate}${t.operation ? ` (${t.operation})` : ""} in ${e.delayMs} ms after ${e.reason} (attempt ${e.attempt})`;
    }
    case "outage-start": {
      const paused = `${e.api === "git" ? "its" : "all"} requests paused; probing every few seconds for up to ${humanDuration(e.timeoutMs)}`;
      return e.proxy
        ? `the proxy ${e.proxy.url} (${e.proxy.variable}) is not answering (${e.reason}): ${paused} — check that it runs, or correct ${e.proxy.variable}`
        : `${serviceOf(e)} is not answering (${e.reason}): ${paused}`;
    }
    case "outage-end":
      return `${serviceOf(e)} answers again after ${humanDuration(e.pausedMs)}; resuming`;
    // The OutageError every call gets says it, once, through main().
    case "outage-timeout":
    case "done":
      return undefined;
  }
}

/** The `--json` stderr line of a client event (undefined: none). */
export function eventJson(e: ClientEvent): Record<string, unknown> | undefined {
  switch (e.type) {
    case "retry":
      return {
        event: "api.retry",
        method: e.target.method,
        path: e.target.pathTemplate,
        operation: e.target.operation ?? null,
        attempt: e.attempt,
        delayMs: e.delayMs,
        reason: e.reason,
      };
    case "outage-start":
      return {
        event: "api.outage",
        ...(e.api ? { api: e.api } : {}),
        state: "start",
        reason: e.reason,
        trigger: e.trigger,
        timeoutMs: e.timeoutMs,
        ...(e.proxy ? { proxy: e.proxy.url, proxyVariable: e.proxy.variable } : {}),
      };
    case "outage-end":
      return {
        event: "api.outage",
        ...(e.api ? { api: e.api } : {}),
        state: "end",
        pausedMs: e.pausedMs,
        probes: e.probes,
      };
    case "outage-timeout":
      return {
        event: "api.outage",
        ...(e.api ? { api: e.api } : {}),
        state: "timeout",
        reason: e.reason,
        pausedMs: e.pausedMs,
        probes: e.probes,
        ...(e.proxy ? { proxy: e.proxy.url, proxyVariable: e.proxy.variable } : {}),
      };
    case "done":
      return undefined;
  }
}

/** Outages are reported always; retries only with --verbose or --json. */
export const ALWAYS = new Set<ClientEvent["type"]>([
  "outage-start",
  "outage-end",
  "outage-timeout",
]);
