/**
 * Who holds an apply lock, as the lock file records it, and where this process stands: enough
 * for a later run to tell — without asking a person — whether the holder is provably gone.
 *
 * A pid means something only on its own kernel (boot) and in its own pid namespace
 * (container), and only until it is reused; so the record carries the host name, the boot ID
 * (/proc/sys/kernel/random/boot_id), the pid namespace (/proc/self/ns/pid) and the process's
 * start time (/proc/PID/stat starttime). CI runners often share host names; the CI job
 * (GitHub Actions run, GitLab job) is recorded to name the holder and to tell a lock copied in
 * from a cache apart from one taken here. Off Linux the /proc facts are absent and a lock on
 * the same host falls back to "is that pid alive".
 */
import { createHash, randomUUID } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

/** The CI job a process runs in: a stable `id` to compare, and a `url` for people when known. */
export interface CiJob {
  id: string;
  url?: string;
}

/** Who holds a lock (the fields after `command` are absent in locks of older phctl versions). */
export interface LockHolder {
  host: string;
  pid: number;
  startedAt: string;
  command: string;
  /** What `phctl unlock` must be given to remove this lock (and no lock taken since). */
  id?: string;
  /** starttime of /proc/PID/stat (clock ticks since boot): a reused pid has another. */
  pidStart?: string;
  /** The kernel boot the pid belongs to: another boot means the holder's machine restarted. */
  bootId?: string;
  /** The pid namespace (container) the pid belongs to. */
  pidNs?: string;
  ci?: CiJob;
}

/** Where this process stands, to judge a holder by. */
export interface Here {
  host: string;
  bootId?: string;
  pidNs?: string;
  ci?: CiJob;
}

const readTrimmed = (file: string): string | undefined => {
  try {
    return readFileSync(file, "utf8").trim() || undefined;
  } catch {
    return undefined;
  }
};

/** The CI job of `env`: GitHub Actions (run, attempt, job) or GitLab CI (job id and URL). */
export function ciJobOf(env: NodeJS.ProcessEnv): CiJob | undefined {
  if (env.GITLAB_CI && env.CI_JOB_ID)
    return {
      id: `gitlab job ${env.CI_JOB_ID}`,
      ...(env.CI_JOB_URL ? { url: env.CI_JOB_URL } : {}),
    };
  if (env.GITHUB_ACTIONS && env.GITHUB_RUN_ID) {
    const attempt = env.GITHUB_RUN_ATTEMPT ?? "1";
    const run = `${env.GITHUB_SERVER_URL ?? "https://github.com"}/${env.GITHUB_REPOSITORY ?? "?"}/actions/runs/${env.GITHUB_RUN_ID}`;
    return {
      id: `github run ${env.GITHUB_RUN_ID} attempt ${attempt} job ${env.GITHUB_JOB ?? "?"}`,
      url: attempt === "1" ? run : `${run}/attempts/${attempt}`,
    };
  }
  return undefined;
}

/** starttime (field 22) of /proc/PID/stat, or undefined where there is no such file. */
export function processStart(pid: number): string | undefined {
  const stat = readTrimmed(`/proc/${pid}/stat`);
  // The command name (field 2) is in parentheses and may hold spaces: count after its end.
  return stat?.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
}

/** This process: where it runs. */
export function hereNow(env: NodeJS.ProcessEnv = process.env): Here {
  const bootId = readTrimmed("/proc/sys/kernel/random/boot_id");
  let pidNs: string | undefined;
  try {
    pidNs = readlinkSync("/proc/self/ns/pid");
  } catch {
    // Not Linux, or /proc not mounted.
  }
  const ci = ciJobOf(env);
  return {
    host: hostname(),
    ...(bootId ? { bootId } : {}),
    ...(pidNs ? { pidNs } : {}),
    ...(ci ? { ci } : {}),
  };
}

/** The record this process writes into a lock it takes. */
export function holderHere(here: Here, command: string): LockHolder {
  const pidStart = processStart(process.pid);
  return {
    id: randomUUID(),
    host: here.host,
    pid: process.pid,
    startedAt: new Date().toISOString(),
    command,
    ...(pidStart ? { pidStart } : {}),
    ...(here.bootId ? { bootId: here.bootId } : {}),
    ...(here.pidNs ? { pidNs: here.pidNs } : {}),
    ...(here.ci ? { ci: here.ci } : {}),
  };
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** The holder a lock file's text names, or undefined when it names none (not JSON, no pid). */
export function parseHolder(text: string): LockHolder | undefined {
  let h: Record<string, unknown>;
  try {
    h = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof h !== "object" || h === null) return undefined;
  if (typeof h.pid !== "number" || typeof h.host !== "string") return undefined;
  const ci = h.ci as Record<string, unknown> | undefined;
  const ciId = str(ci?.id);
  const ciUrl = str(ci?.url);
  const optional = {
    id: str(h.id),
    pidStart: str(h.pidStart),
    bootId: str(h.bootId),
    pidNs: str(h.pidNs),
  };
  return {
    host: h.host,
    pid: h.pid,
    startedAt: str(h.startedAt) ?? "?",
    command: str(h.command) ?? "",
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    ...(ciId ? { ci: { id: ciId, ...(ciUrl ? { url: ciUrl } : {}) } } : {}),
  };
}

/**
 * The ID of the lock whose file holds `text`: the one it records, else (a lock of an older
 * phctl, an unreadable file) a digest of its content — either way, a lock taken since has
 * another.
 */
export function lockIdOf(text: string): string {
  const id = parseHolder(text)?.id;
  if (id && /^[A-Za-z0-9-]{1,64}$/.test(id)) return id;
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** `phctl apply` for a holder's command (`phctl apply (pid 12)`, `drift --adopt`). */
export function commandLabel(h: LockHolder | undefined): string {
  const c = (h?.command ?? "").replace(/\s*\(pid \d+\)$/, "").trim();
  if (c === "") return "phctl run";
  return c.startsWith("phctl") ? c : `phctl ${c}`;
}

/** `host H, pid P, since S, job URL`: the holder as people read it. */
export function describeHolder(h: LockHolder): string {
  const job = h.ci ? `, job ${h.ci.url ?? h.ci.id}` : "";
  return `host ${h.host}, pid ${h.pid}, since ${h.startedAt}${job}`;
}
