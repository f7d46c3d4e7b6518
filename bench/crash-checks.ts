/**
 * The checks of a crash trial (bench/crash.ts), pure functions of what a trial left: the
 * store's jobs and welcome mails, the server's request log, and what the CLI printed.
 *
 * - converged: an apply after the kill exited 0 within 3 runs, and then
 *   `phctl plan --detailed-exitcode` exited 0;
 * - no create accepted twice: per identity, at most one queued job (`jobs`, any status:
 *   accepted is enough) — `account.create` per user and service, `access.add` per access
 *   key; and no POST answered 2xx more often than in one uninterrupted apply (numeric ids
 *   as `:id`; the welcome mail is its own check);
 * - welcome mails (every user declares `sendWelcome: true`): in mode "resume" each user has
 *   at least one; in mode "fresh" a user with none must be named by the fresh apply (a line
 *   of its output that mentions "welcome" and the username). A user with two must have been
 *   announced by the apply that sent the second (a line about its welcome that says
 *   "twice"): a mail whose send was answered just before the kill cannot be confirmed by
 *   reading, and phctl sends it again rather than lose it — saying so. In mode "concurrent"
 *   every user has exactly one (only the run whose create made her sends it), and both
 *   applies exit 0 (a create answered 409 is "already there").
 */
import type { RequestLogEntry } from "../src/server/app.js";
import type { StoredJob } from "./trials.js";

/**
 * After the kill: "resume" = `--resume` in the same work directory, "fresh" = a new one.
 * "concurrent" kills nothing: two applies from two work directories at once (two journals,
 * two locks: neither knows the other), as two CI jobs of one service would run.
 */
export type Mode = "resume" | "fresh" | "concurrent";
export const MODES: readonly Mode[] = ["resume", "fresh", "concurrent"];

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

/** `POST url` of every 2xx POST but the welcome mail's, numeric ids as `:id`. */
export function acceptedPosts(log: readonly RequestLogEntry[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const e of log) {
    if (e.method !== "POST" || e.status < 200 || e.status >= 300) continue;
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
  /** Users without a welcome mail and (mode fresh) not named. */
  lost: string[];
  /** Mode fresh: users without a welcome mail that the fresh apply named. */
  named: string[];
  /** Users with two or more that no apply announced. */
  duplicated: string[];
  /** Users with two or more whose second mail the apply announced ("may arrive twice"). */
  announced: string[];
}

export function tallyWelcomes(
  mode: Mode,
  users: readonly string[],
  welcomes: ReadonlyMap<string, number>,
  freshOutput: string,
): WelcomeTally {
  const none = users.filter((u) => (welcomes.get(u) ?? 0) === 0);
  const named = mode !== "resume" ? namedForWelcome(freshOutput, none) : new Set<string>();
  const twice = users.filter((u) => (welcomes.get(u) ?? 0) > 1);
  const told = namedForWelcome(
    freshOutput
      .split("\n")
      .filter((l) => /twice/i.test(l))
      .join("\n"),
    twice,
  );
  return {
    lost: none.filter((u) => !named.has(u)),
    named: none.filter((u) => named.has(u)),
    duplicated: twice.filter((u) => !told.has(u)),
    announced: twice.filter((u) => told.has(u)),
  };
}

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
      `not converged: ${t.applyCodes.length} ${t.mode === "resume" ? "--resume " : "fresh "}applies exited ${t.applyCodes.join(", ")}; the last said: ${lastLines(t.lastApplyOutput)}`,
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
      t.mode === "resume"
        ? `welcome mail lost for ${t.welcome.lost.length} users: ${list(t.welcome.lost)}`
        : `welcome mail lost and not named by the fresh apply for ${t.welcome.lost.length} users: ${list(t.welcome.lost)}`,
    );
  }
  if (t.welcome.duplicated.length > 0) {
    f.push(
      `welcome mail sent twice or more, unannounced, to ${t.welcome.duplicated.length} users: ${list(t.welcome.duplicated)}`,
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
