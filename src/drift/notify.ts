/**
 * Drift notifications (`phctl drift --notify URL`): one JSON message POSTed to each webhook
 * on drift, on recovery (in sync after drift) and on a failed check; with `--heartbeat` on
 * every run, in sync too. Its `text` is one line for people, so a Slack (or Mattermost)
 * incoming webhook shows it as is; the other fields are for machines (see DriftMessage).
 *
 * Each POST has a timeout and is sent once more after a 5xx, a 429 or no answer. A webhook
 * URL carries its secret in its path: messages name only its origin. Never throws; what
 * failed comes back per webhook.
 */
import { EnvHttpProxyAgent, request } from "undici";
import { classifyFailure } from "../api/transport.js";
import { escapeHidden } from "../visible.js";
import { VERSION } from "../version.js";
import { DEFAULT_KEY } from "./options.js";
import { describeCounts, scopeName, type DriftCounts } from "./summary.js";

export type NotifyStatus = "drift" | "recovered" | "in-sync" | "error";

/** The JSON body every webhook receives. */
export interface DriftMessage {
  /**
   * One line for people (Slack's `text`: &, < and > escaped as Slack asks; bidi controls and
   * other hidden characters as `\u202e`).
   */
  text: string;
  status: NotifyStatus;
  key: string;
  organization?: string;
  /** Differences per action and per kind × action (absent after an error). */
  counts?: DriftCounts;
  /** The drift differs from the last run's (new, or other changes). */
  changed?: boolean;
  /** What the last run found: from the tracking issue, else the state file. */
  previous: "drift" | "in-sync" | "unknown";
  issueUrl?: string;
  runUrl?: string;
  /** ISO time live state was read (or the check failed). */
  time: string;
  apiCalls?: number;
  durationMs: number;
  /** What failed (status error). */
  error?: string;
  phctlVersion: string;
}

/** Whether a run with this status posts: drift, recovery and errors always; in sync with --heartbeat. */
export const shouldNotify = (status: NotifyStatus, heartbeat: boolean): boolean =>
  status !== "in-sync" || heartbeat;

const slack = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function messageText(m: Omit<DriftMessage, "text">): string {
  const scope = scopeName(m.key, m.organization);
  const links = [
    ...(m.issueUrl ? [`issue ${m.issueUrl}`] : []),
    ...(m.runUrl ? [`run ${m.runUrl}`] : []),
  ];
  const tail = links.length ? ` — ${links.join(" · ")}` : "";
  const head =
    m.status === "drift"
      ? `drift in ${scope}: ${m.counts ? describeCounts(m.counts) : "differences"}${m.changed === false ? " (unchanged)" : ""}`
      : m.status === "recovered"
        ? `${scope} is in sync again`
        : m.status === "in-sync"
          ? `${scope} is in sync`
          : `the drift check${m.key === DEFAULT_KEY && !m.organization ? "" : ` of ${scope}`} failed: ${m.error ?? "an error"}`;
  return slack(escapeHidden(`phctl: ${head.replace(/\s+/g, " ")}${tail}`));
}

/** A webhook as messages name it: its origin only (the path is the secret). */
export function describeWebhook(url: string): string {
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return "(a webhook URL)";
  }
}

export interface Delivery {
  /** describeWebhook of the URL. */
  webhook: string;
  ok: boolean;
  /** Why not: "500 no_service", "no answer (timeout, …)". */
  problem?: string;
  attempts: number;
}

export interface PostOptions {
  timeoutMs: number;
  /** Wait before the one retry (default 0.5 s). */
  retryDelayMs?: number;
  /** Applied to the JSON sent (secret redaction). */
  scrub?: (s: string) => string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function postOne(
  agent: EnvHttpProxyAgent,
  url: string,
  body: string,
  o: PostOptions,
): Promise<Delivery> {
  const webhook = describeWebhook(url);
  let problem = "";
  for (let attempt = 1; attempt <= 2; attempt++) {
    let again = false;
    try {
      const res = await request(url, {
        method: "POST",
        dispatcher: agent,
        headers: { "content-type": "application/json", "user-agent": `phctl/${VERSION}` },
        body,
        signal: AbortSignal.timeout(o.timeoutMs),
      });
      const said = (await res.body.text()).replace(/\s+/g, " ").trim().slice(0, 200);
      if (res.statusCode < 300) return { webhook, ok: true, attempts: attempt };
      problem = `${res.statusCode}${said ? ` ${said}` : ""}`;
      again = res.statusCode >= 500 || res.statusCode === 429;
    } catch (e) {
      const f = classifyFailure(e);
      const timeout = f.timeout || (e as Error)?.name === "TimeoutError";
      problem = timeout
        ? `no answer within ${Math.round(o.timeoutMs / 1000)} s`
        : `no answer (${f.code})`;
      again = true;
    }
    if (!again || attempt === 2) return { webhook, ok: false, problem, attempts: attempt };
    await sleep(o.retryDelayMs ?? 500);
  }
  return { webhook, ok: false, problem, attempts: 2 };
}

/** POST `message` to every URL (at the same time); one Delivery per URL, in order. */
export async function postAll(
  urls: readonly string[],
  message: DriftMessage,
  o: PostOptions,
): Promise<Delivery[]> {
  const agent = new EnvHttpProxyAgent({ connect: { timeout: o.timeoutMs } });
  try {
    const json = JSON.stringify(message);
    const body = o.scrub ? o.scrub(json) : json;
    return await Promise.all(urls.map((u) => postOne(agent, u, body, o)));
  } finally {
    await agent.close();
  }
}
