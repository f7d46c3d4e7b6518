/**
 * One crash trial, from empty (bench/crash.ts; the smoke in test/bench/crash-smoke.test.ts):
 * a fresh `phctl serve --db FILE --queue-delay N` child process for the whole trial; an
 * apply SIGKILLed at a given moment; then up to 3 applies — `--resume` in the same work
 * directory (mode "resume") or plain applies in a fresh work directory with no `.phctl/`
 * (mode "fresh") — while they exit non-zero; or (mode "concurrent") no kill, two applies from
 * two work directories at once; or (mode "dropped") as "resume", on a server that drops the
 * answer to a share of the POSTs after acting on them (a one-shot `dropAfter` fault with a
 * rate, armed through /_control/faults for the whole trial); a `plan --detailed-exitcode`;
 * the request log; the server stopped; the store read. `calibrate()` is the uninterrupted apply the kill
 * moments are drawn against and whose POSTs a trial is compared with.
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  acceptedPosts,
  droppedWelcomes,
  duplicateJobs,
  duplicatePosts,
  tallyWelcomes,
  trialFailures,
  type Mode,
  type WelcomeTally,
} from "./crash-checks.js";
import type { Shape } from "./generate.js";
import { readStore, requestLog, runCli, startCli, startServe, type CliRun } from "./trials.js";

/** The trials' organizations (bench/generate.ts shapes). */
export type CrashSize = "mid" | "small";
export const CRASH_SIZES: Record<CrashSize, Shape> = {
  mid: { users: 100, teams: 5, projects: 40, repos: 400 },
  small: { users: 10, teams: 2, projects: 4, repos: 20 },
};

/** How many applies after the kill, at most, while they exit non-zero. */
export const MAX_RUNS = 3;

/** What every trial of a run shares. */
export interface TrialSetup {
  /** The generated manifests (phctl.yaml at the root), copied into each work directory. */
  manifests: string;
  /** Every declared user (each declares `sendWelcome: true`). */
  users: readonly string[];
  queueDelay: number;
  token: string;
  /** Mode "dropped": the share of POSTs whose answer the server drops after acting. */
  dropRate: number;
}

/** The uninterrupted apply: how long it took, and its accepted POSTs. */
export interface Calibration {
  apply: CliRun;
  plan: CliRun;
  reference: Map<string, number>;
  /** Wall time of the uninterrupted apply process, ms (the kill moments' range). */
  wallMs: number;
}

/**
 * When to SIGKILL the apply: `afterMs` after its spawn (the benchmark: drawn at random), or
 * as soon as the server has answered `afterPosts` POSTs (of `operation`, or any) with a 2xx
 * (the smoke: a point of the apply that does not depend on the machine's speed; the request
 * log is polled every 10 ms).
 */
export type Kill = { afterMs: number } | { afterPosts: number; operation?: string };

export interface TrialResult {
  n: number;
  mode: Mode;
  kill: Kill;
  /** The killed apply (no `killedAtMs`: it had exited already). */
  interrupted: CliRun;
  /** The applies after the kill, in order. */
  applies: CliRun[];
  plan: CliRun;
  jobDuplicates: string[];
  postDuplicates: string[];
  welcome: WelcomeTally;
  /** Every failed check, one line each; empty = the trial passed. */
  failures: string[];
  wallMs: number;
}

/** A new work directory under `dir` with the manifests as `config/`. */
function workdir(s: TrialSetup, dir: string): string {
  mkdirSync(dir, { recursive: true });
  cpSync(s.manifests, join(dir, "config"), { recursive: true });
  return dir;
}

const env = (url: string, s: TrialSetup) => ({ PHCTL_API_URL: url, PHCTL_TOKEN: s.token });
const APPLY = ["apply", "config", "--auto-approve"];
const PLAN = ["plan", "config", "--detailed-exitcode"];

/** The uninterrupted apply from empty, on its own server, in `dir`. */
export async function calibrate(s: TrialSetup, dir: string): Promise<Calibration> {
  const work = workdir(s, join(dir, "work"));
  const server = await startServe({ db: join(dir, "store.sqlite"), ...flags(s) });
  try {
    const apply = await runCli(APPLY, { cwd: work, env: env(server.url, s) });
    const plan = await runCli(PLAN, { cwd: work, env: env(server.url, s) });
    const reference = acceptedPosts(await requestLog(server.url, s.token));
    return { apply, plan, reference, wallMs: apply.wallMs };
  } finally {
    await server.stop();
  }
}

const flags = (s: TrialSetup) => ({ token: s.token, queueDelay: s.queueDelay });

/** Drop the answer to `rate` of the POSTs after the server acted on them, from now on. */
async function dropAnswers(url: string, token: string, rate: number): Promise<void> {
  const res = await fetch(`${url}/_control/faults`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({
      faults: [{ kind: "dropAfter", method: "POST", rate, times: 1_000_000_000 }],
    }),
  });
  if (!res.ok) throw new Error(`POST /_control/faults: ${res.status} ${await res.text()}`);
}

/** 2xx POSTs (of `operation`, or any) in the server's request log. */
const acceptedPostCount = async (url: string, token: string, operation?: string) =>
  (await requestLog(url, token)).filter(
    (e) =>
      e.method === "POST" &&
      e.status >= 200 &&
      e.status < 300 &&
      (operation === undefined || e.operation === operation),
  ).length;

/** Run the apply in `cwd` and SIGKILL it as `kill` says. */
async function applyAndKill(
  cwd: string,
  env: Record<string, string>,
  kill: Kill,
  server: { url: string; token: string },
): Promise<CliRun> {
  if ("afterMs" in kill) return runCli(APPLY, { cwd, env, killAfterMs: kill.afterMs });
  const run = startCli(APPLY, { cwd, env });
  let exited = false;
  void run.done.then(() => (exited = true));
  while (!exited) {
    if ((await acceptedPostCount(server.url, server.token, kill.operation)) >= kill.afterPosts) {
      run.kill();
      break;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return run.done;
}

/** Run trial `n` in `dir` (created). */
export async function runTrial(
  s: TrialSetup,
  c: Calibration,
  t: { n: number; mode: Mode; kill: Kill; dir: string },
): Promise<TrialResult> {
  const started = performance.now();
  mkdirSync(t.dir, { recursive: true });
  const db = join(t.dir, "store.sqlite");
  const server = await startServe({ db, ...flags(s) });
  let result: Omit<TrialResult, "jobDuplicates" | "welcome" | "failures" | "wallMs">;
  let dropped: string[] = [];
  try {
    const first = workdir(s, join(t.dir, "work"));
    const e = env(server.url, s);
    if (t.mode === "dropped") await dropAnswers(server.url, s.token, s.dropRate);
    // Mode fresh: a new work directory, as a CI job on another runner would have.
    const work =
      t.mode === "fresh" || t.mode === "concurrent" ? workdir(s, join(t.dir, "fresh")) : first;
    const applies: CliRun[] = [];
    let interrupted: CliRun;
    if (t.mode === "concurrent") {
      // Nothing killed: the first apply of the pair stands in the "interrupted" column.
      const both = await Promise.all([
        runCli(APPLY, { cwd: first, env: e }),
        runCli(APPLY, { cwd: work, env: e }),
      ]);
      interrupted = both[0];
      applies.push(...both);
    } else {
      interrupted = await applyAndKill(first, e, t.kill, { url: server.url, token: s.token });
      const args = t.mode === "fresh" ? APPLY : [...APPLY, "--resume"];
      do applies.push(await runCli(args, { cwd: work, env: e }));
      while (applies.at(-1)!.code !== 0 && applies.length < MAX_RUNS);
    }
    const plan = await runCli(PLAN, { cwd: work, env: e });
    const log = await requestLog(server.url, s.token);
    // For a look afterwards (the directory is kept when a check fails).
    const keep = (name: string, r: CliRun) =>
      writeFileSync(
        join(t.dir, `${name}.log`),
        `$ phctl ${r.args.join(" ")}\n${r.stdout}\n${r.stderr}`,
      );
    keep("killed-apply", interrupted);
    applies.forEach((r, i) => keep(`apply-${i + 1}`, r));
    keep("plan", plan);
    writeFileSync(join(t.dir, "requests.json"), JSON.stringify(log));
    dropped = droppedWelcomes(log);
    result = {
      n: t.n,
      mode: t.mode,
      kill: t.kill,
      interrupted,
      applies,
      plan,
      // Two runs at once each send their own adds, which the service accepts as idempotent
      // (a team member added twice is one member): objects twice are found in the store.
      postDuplicates: t.mode === "concurrent" ? [] : duplicatePosts(log, c.reference),
    };
  } finally {
    await server.stop();
  }
  const store = readStore(db);
  const output = (r: CliRun) => `${r.stdout}\n${r.stderr}`;
  const welcome = tallyWelcomes(
    s.users,
    store.welcomes,
    result.applies.map(output).join("\n"),
    dropped,
  );
  const jobDuplicates = duplicateJobs(store.jobs);
  const failures = trialFailures({
    mode: t.mode,
    applyCodes: result.applies.map((r) => r.code),
    planCode: result.plan.code,
    planOutput: output(result.plan),
    lastApplyOutput: output(result.applies.at(-1)!),
    jobDuplicates,
    postDuplicates: result.postDuplicates,
    welcome,
  });
  if (store.strangers.length > 0)
    failures.push(`welcome mails to no user's address: ${store.strangers.join(", ")}`);
  return { ...result, jobDuplicates, welcome, failures, wallMs: performance.now() - started };
}
