/**
 * Whether a lock in the way may be taken over: only when its holder is provably gone. A pure
 * function of the holder's record, where this process stands, the lock file's times and what
 * a pid looks like here — so each rule is a table test (test/engine/lock-verdict.test.ts).
 *
 * Provably gone:
 * - same host, boot and pid namespace, and no process has its pid — or one has, with another
 *   start time (the pid was reused);
 * - same host, another boot: the machine restarted since, and no process outlives that;
 * - a copy: the lock names a CI job that is not this one, and its file was made after the lock
 *   was written (a CI cache, an artifact or an archive restored it here, keeping its times; or
 *   it was copied). Whoever wrote it holds at most the original, elsewhere: the copy guards
 *   nothing. A lock a process really took is written once, when it is taken.
 *
 * Never taken over: a holder running here; a lock of another host, or of another container of
 * this host (a shared filesystem could hold a live apply: phctl cannot see its process), that
 * is no copy; a file that names no holder. Those need `phctl unlock LOCK_ID` from a person
 * who knows the holder is gone.
 */
import type { Here, LockHolder } from "./lock-holder.js";

/** What a pid is here: no such process, or one (with its start time, where readable). */
export type ProcessSeen = { running: false } | { running: true; start?: string };

/** The lock file's modification and status-change times (ms), as stat gives them. */
export interface FileTimes {
  mtimeMs: number;
  ctimeMs: number;
}

export type Verdict =
  { takeOver: true; because: string } | { takeOver: false; why: string; running: boolean };

/** A lock file restored with its times kept (tar, zip) changed status this long after its write. */
export const RESTORED_SLACK_MS = 5_000;
/** A lock file copied afresh was written this long after its holder took the lock (clock skew). */
export const COPIED_SLACK_MS = 60_000;

/** Was the file made after its holder wrote the lock: restored or copied, not taken here? */
export function isCopy(times: FileTimes, h: LockHolder): boolean {
  const started = Date.parse(h.startedAt);
  return (
    times.ctimeMs - times.mtimeMs > RESTORED_SLACK_MS ||
    (Number.isFinite(started) && times.mtimeMs - started > COPIED_SLACK_MS)
  );
}

/** Equal where both are known: a lock of an older phctl (or off Linux) records neither. */
const sameWhereKnown = (a: string | undefined, b: string | undefined) =>
  a === undefined || b === undefined || a === b;

export function judgeLock(
  h: LockHolder | undefined,
  here: Here,
  times: FileTimes | undefined,
  seen: (pid: number) => ProcessSeen,
): Verdict {
  if (!h) return { takeOver: false, why: "its content names no holder", running: false };
  const sameHost = h.host === here.host;
  if (sameHost && sameWhereKnown(h.bootId, here.bootId) && sameWhereKnown(h.pidNs, here.pidNs)) {
    const p = seen(h.pid);
    if (!p.running) return { takeOver: true, because: "which is no longer running" };
    if (h.pidStart && p.start && p.start !== h.pidStart)
      return {
        takeOver: true,
        because: `which is no longer running (pid ${h.pid} is another process now, started later)`,
      };
    return { takeOver: false, why: "it is still running on this host", running: true };
  }
  if (sameHost && h.bootId && here.bootId && h.bootId !== here.bootId)
    return {
      takeOver: true,
      because: "which ran before this machine restarted (another boot ID): it is gone",
    };
  if (h.ci && h.ci.id !== here.ci?.id && times && isCopy(times, h))
    return {
      takeOver: true,
      because: `whose lock file here is a copy (restored from a CI cache or an archive): ${h.ci.url ?? h.ci.id} never held it`,
    };
  return {
    takeOver: false,
    why: sameHost
      ? "it ran in another container of this host: phctl cannot see whether it still runs"
      : "it ran on another host: phctl cannot see whether it still runs",
    running: false,
  };
}
