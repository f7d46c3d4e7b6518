/**
 * The checks of a crash trial (bench/crash.ts), pure functions of what a trial left: the
 * store's jobs and welcome mails, the server's request log, and what the CLI printed.
 *
 * - converged: an apply after the kill exited 0 within 3 runs, and then
 *   `phctl plan --detailed-exitcode` exited 0;
 * - no create accepted twice: per identity, at most one queued job (`jobs`, any status:
 *   accepted is enough) — `account.create` per user and service, `access.add` per access
 *   key; and no POST carried out more often than in one uninterrupted apply (2xx, or
 *   dropped after the server acted; numeric ids as `:id`; the welcome mail is its own check);
 * - welcome mails (every user declares `sendWelcome: true`): never two to one user — a
 *   mail cannot be read back and a second one is not harmless, so phctl never sends one
 *   again after an unclear answer. A user with none must be named by an apply after the kill
 *   (a line of its output that mentions "welcome" and the username): as a mail that "may or
 *   may not have been sent" (its answer was lost, or the kill struck while it was out), or
 *   (mode fresh, no journal) as one phctl cannot know about; and a user whose send_welcome
 *   answer the server dropped must be named so. In mode "concurrent" every user
 *   has exactly one (only the run whose create made her sends it), and both applies exit 0
 *   (a create answered 409 is "already there").
 */
import type { RequestLogEntry } from "../src/server/app.js";
import type { StoredJob } from "./trials.js";

/**
 * After the kill: "resume" = `--resume` in the same work directory, "fresh" = a new one.
 * "concurrent" kills nothing: two applies from two work directories at once (two journals,
 * two locks: neither knows the other), as two CI jobs of one service would run. "dropped"
 * is "resume" on a server that drops the answer to a share of the POSTs after acting on
 * them (the connection closed without an answer: the mail sent, the object made).
 */
export type Mode = "resume" | "fresh" | "concurrent" | "dropped";
export const MODES: readonly Mode[] = ["resume", "fresh", "concurrent", "dropped"];

/** The identity a queued job creates, e.g. `account.create user17/git`. */
export function jobIdentity(j: StoredJob): string {
  const p = j.payload;
  const str = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
  switch (j.action) {
    case "account.create":
    case "account.update":
      return `${j.action} ${str(p.username)}/${str(p.service)}`;
    case "access.add":
    case "access.remove":
      return `${j.action} ${p.key === undefined ? `${str(p.service)}:user:${str(p.username)}` : str(p.key)}`;
    default:
      return `${j.action} ${p.key === undefined ? JSON.stringify(p) : str(p.key)}`;
  }
}

/** Identities with more than one accepted job: "2 `account.create` jobs accepted for user17/git (completed, failed)". */
export function duplicateJobs(jobs: readonly StoredJob[]): string[] {
  const by = new Map<string, StoredJob[]>();
  for (const j of jobs) {
    const id = jobIdentity(j);
    by.set(id, [...(by.get(id) ?? []), j]);
  }
  return [...by]
    .filter(([, js]) => js.length > 1)
    .map(([id, js]) => {
      const [action, ...what] = id.split(" ");
      return `${js.length} \`${action}\` jobs accepted for ${what.join(" ")} (${js.map((j) => j.status).join(", ")})`;
    });
}

/**
 * `POST url` of every POST the server carried out but the welcome mail's — answered 2xx, or
 * dropped after it acted (`dropAfter`) — numeric ids as `:id`.
 */
export function acceptedPosts(log: readonly RequestLogEntry[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const e of log) {
    const acted = (e.status >= 200 && e.status < 300) || e.fault === "dropAfter";
    if (e.method !== "POST" || !acted) continue;
    if (e.operation === "users.sendWelcome") continue;
    const k = `POST ${e.url.split("?")[0].replace(/\/\d+(?=\/|$)/g, "/:id")}`;
    n.set(k, (n.get(k) ?? 0) + 1);
  }
  return n;
}

/** POSTs accepted more often than in one uninterrupted apply (`reference`). */
export function duplicatePosts(
  log: readonly RequestLogEntry[],
  reference: ReadonlyMap<string, number>,
): string[] {
  return [...acceptedPosts(log)]
    .filter(([k, n]) => n > (reference.get(k) ?? 0))
    .map(([k, n]) => `${k}: ${n} accepted, ${reference.get(k) ?? 0} in an uninterrupted apply`)
    .sort();
}

/** Users a line of `output` names in connection with a welcome mail. */
export function namedForWelcome(output: string, users: readonly string[]): Set<string> {
  const lines = output.split("\n").filter((l) => /welcome/i.test(l));
  const named = new Set<string>();
  for (const u of users) {
    const re = new RegExp(`(?<![\\w-])${u.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`);
    if (lines.some((l) => re.test(l))) named.add(u);
  }
  return named;
}

export interface WelcomeTally {
  /** Users without a welcome mail that no apply after the kill named. */
  lost: string[];
  /** Users without a welcome mail that an apply after the kill named. */
  named: string[];
  /** Users an apply after the kill said "may or may not have been sent" of (none or one mail). */
  unknown: string[];
  /** Users with two or more. */
  twice: string[];
  /**
   * Users whose send_welcome the server carried out and dropped the answer to, that no
   * apply after the kill said "may or may not have been sent" of.
   */
  unsaid: string[];
  /** How many users got no mail, one, two or more. */
  perUser: { none: number; one: number; more: number };
}

/** Lines of `output` saying a welcome mail may or may not have been sent. */
const unknownLines = (output: string) =>
  output
    .split("\n")
    .filter((l) => /may or may not have been sent/i.test(l))
    .join("\n");

/** Users whose send_welcome the server carried out and dropped the answer to (request log). */
export function droppedWelcomes(log: readonly RequestLogEntry[]): string[] {
  return log
    .filter((e) => e.operation === "users.sendWelcome" && e.fault === "dropAfter")
    .map((e) => decodeURIComponent(/\/users\/([^/]+)\/send_welcome/.exec(e.url)?.[1] ?? e.url));
}

export function tallyWelcomes(
  users: readonly string[],
  welcomes: ReadonlyMap<string, number>,
  afterKill: string,
  dropped: readonly string[] = [],
): WelcomeTally {
  const count = (u: string) => welcomes.get(u) ?? 0;
  const none = users.filter((u) => count(u) === 0);
  const named = namedForWelcome(afterKill, none);
  const twice = users.filter((u) => count(u) > 1);
  const unknown = namedForWelcome(unknownLines(afterKill), users);
  return {
    lost: none.filter((u) => !named.has(u)),
    named: none.filter((u) => named.has(u)),
    unknown: users.filter((u) => unknown.has(u)),
    twice,
    unsaid: [...new Set(dropped)].filter((u) => !unknown.has(u)),
    perUser: {
      none: none.length,
      one: users.length - none.length - twice.length,
      more: twice.length,
    },
  };
}

/** `0 / 9 / 1`: users with no welcome mail, one, two or more. */
export const perUserCell = (p: WelcomeTally["perUser"]) => `${p.none} / ${p.one} / ${p.more}`;

/** Every failed check of a trial, one line each (empty: the trial passed). */
export function trialFailures(t: {
  mode: Mode;
  applyCodes: readonly (number | null)[];
  planCode: number | null;
  planOutput: string;
  jobDuplicates: readonly string[];
  postDuplicates: readonly string[];
  welcome: WelcomeTally;
  lastApplyOutput: string;
}): string[] {
  const f: string[] = [];
  if (t.mode === "concurrent" && t.applyCodes.some((c) => c !== 0)) {
    f.push(
      `the applies running at once exited ${t.applyCodes.join(", ")}; the last said: ${lastLines(t.lastApplyOutput)}`,
    );
  } else if (t.applyCodes.at(-1) !== 0) {
    f.push(
      `not converged: ${t.applyCodes.length} ${t.mode === "fresh" ? "fresh " : "--resume "}applies exited ${t.applyCodes.join(", ")}; the last said: ${lastLines(t.lastApplyOutput)}`,
    );
  }
  if (t.planCode !== 0) {
    f.push(`plan --detailed-exitcode exited ${t.planCode}: ${lastLines(t.planOutput)}`);
  }
  f.push(...t.jobDuplicates, ...t.postDuplicates);
  const list = (us: readonly string[]) =>
    `${us.slice(0, 8).join(", ")}${us.length > 8 ? `, … (${us.length})` : ""}`;
  if (t.welcome.lost.length > 0) {
    f.push(
      `welcome mail lost and not named by an apply after the kill for ${t.welcome.lost.length} users: ${list(t.welcome.lost)}`,
    );
  }
  if (t.welcome.unsaid.length > 0) {
    f.push(
      `welcome mail answer dropped, and no apply after the kill said it may or may not have been sent, for ${t.welcome.unsaid.length} users: ${list(t.welcome.unsaid)}`,
    );
  }
  if (t.welcome.twice.length > 0) {
    f.push(
      `welcome mail sent twice or more to ${t.welcome.twice.length} users: ${list(t.welcome.twice)}`,
    );
  }
  return f;
}

/** The last non-empty lines of some output, joined with " / " (for a one-line failure). */
export function lastLines(text: string, n = 2): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.slice(-n).join(" / ").slice(0, 400) || "(nothing)";
}
