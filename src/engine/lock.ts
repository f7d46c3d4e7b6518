/**
 * The apply lock: one apply at a time per journal. Two applies of the same config at once
 * would both plan the same creates, send them twice and interleave one journal with the
 * other. The lock is a file beside the journal (`<journal>.lock`), created exclusively
 * (O_EXCL), holding who took it (lock-holder.ts: host, pid, start time, boot, container, CI
 * job, and a lock ID). A second apply refuses, naming the holder and the command that removes
 * the lock; a lock whose holder is provably gone (lock-verdict.ts) is taken over — the caller
 * says so with describeTakeover(). Released when the apply ends, also on a crash exit.
 *
 * `phctl unlock LOCK_ID` (forceUnlock) removes a lock a person knows to be stale; the ID
 * makes sure it is the lock they saw, not one an apply took since (Terraform's force-unlock).
 * Never cache or copy the lock with the journal: a copy is no lock.
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname, isAbsolute, relative } from "node:path";
import { PhctlError } from "../errors.js";
import {
  commandLabel,
  describeHolder,
  hereNow,
  holderHere,
  lockIdOf,
  parseHolder,
  type LockHolder,
} from "./lock-holder.js";
import { lockFileTimes, readLock, removeIfUnchanged, seenHere } from "./lock-file.js";
import { judgeLock, type Verdict } from "./lock-verdict.js";

export type { LockHolder } from "./lock-holder.js";

export const lockPathOf = (journal: string): string => `${journal}.lock`;

/** A path for a command line: relative to the working directory when under it, quoted. */
function shellPath(path: string, cwd = process.cwd()): string {
  const rel = relative(cwd, path);
  const shown = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
  return /^[\w@%+=:,./-]+$/.test(shown) ? shown : `'${shown.replace(/'/g, `'\\''`)}'`;
}

/** The command that removes the lock `id` of `journal`. */
export const unlockCommand = (id: string, journal: string): string =>
  `phctl unlock ${id} --journal ${shellPath(journal)}`;

export interface Lock {
  file: string;
  /** This lock's ID (what `phctl unlock` would need). */
  id: string;
  /** The holder this lock replaced because it was provably gone. */
  tookOverFrom?: LockHolder;
  /** Why that holder is gone ("which is no longer running", …). */
  tookOverBecause?: string;
  release(): void;
}

/** The LOCKED error: the holder in full, why it stays, and what to do. */
function lockedError(file: string, journal: string, text: string, verdict: Verdict): PhctlError {
  const h = parseHolder(text);
  const id = lockIdOf(text);
  const unlock = unlockCommand(id, journal);
  if (!h)
    return new PhctlError(
      "LOCKED",
      `the apply lock ${file} (lock ID ${id}) names no holder (an apply that crashed while taking it?): if no phctl apply of this journal is running, remove it with: ${unlock}`,
    );
  const why = verdict.takeOver ? "it was taken again each time phctl took it over" : verdict.why;
  const next =
    verdict.takeOver === false && verdict.running
      ? `wait for it to finish and run again, or stop it (kill ${h.pid}): its lock is then taken over`
      : `wait for it to finish and run again; if it is gone (killed, its runner lost), remove the lock with: ${unlock}`;
  return new PhctlError(
    "LOCKED",
    `another ${commandLabel(h)} holds ${file} (${describeHolder(h)}, lock ID ${id}): ${why}; ${next}`,
  );
}

/** Options for tests and callers that know better than the process environment. */
export interface LockOptions {
  /** Where the CI job is read from (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/** Take the lock of `journal`, or throw LOCKED naming the holder and what to do. */
export function acquireLock(journal: string, command: string, options: LockOptions = {}): Lock {
  const file = lockPathOf(journal);
  const here = hereNow(options.env);
  const me = holderHere(here, command);
  const mine = `${JSON.stringify(me)}\n`;
  let tookOver: { from: LockHolder; because: string } | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(dirname(file), { recursive: true });
      const fd = openSync(file, "wx");
      try {
        writeSync(fd, mine);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "EEXIST")
        throw new PhctlError(
          "LOCK_FAILED",
          `cannot create the apply lock ${file} (${code ?? String(e)}): check that its directory is writable, or choose another journal location with --journal`,
        );
      const text = readLock(file);
      if (text === undefined && attempt < 10) continue; // released meanwhile: try again
      const holder = parseHolder(text ?? "");
      const verdict = judgeLock(holder, here, lockFileTimes(file), seenHere);
      if (!verdict.takeOver || !holder || text === undefined || attempt > 2)
        throw lockedError(file, journal, text ?? "", verdict);
      if (removeIfUnchanged(file, text)) tookOver = { from: holder, because: verdict.because };
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    // Only our own lock: never one a later apply took over.
    try {
      const text = readLock(file);
      if (text !== undefined && parseHolder(text)?.id === me.id) removeIfUnchanged(file, text);
    } catch {
      // Cannot be removed (its directory went read-only): the next apply finds our pid gone.
    }
  };
  process.on("exit", release);
  return {
    file,
    id: me.id ?? "",
    release,
    ...(tookOver ? { tookOverFrom: tookOver.from, tookOverBecause: tookOver.because } : {}),
  };
}

/** The line that says a lock was taken over, and from whom ("took over the lock … of pid …"). */
export function describeTakeover(lock: Lock, host = hereNow().host): string {
  const h = lock.tookOverFrom;
  if (!h) return "";
  const on = h.host === host ? "" : ` on host ${h.host}`;
  const job = h.ci ? `, job ${h.ci.url ?? h.ci.id}` : "";
  return `took over the lock ${lock.file} of pid ${h.pid}${on} (started ${h.startedAt}${job}), ${lock.tookOverBecause ?? "which is no longer running"}`;
}

/** What `phctl unlock` removed. */
export interface Unlocked {
  file: string;
  id: string;
  /** Undefined for a file that named no holder. */
  holder?: LockHolder;
}

/**
 * Remove the lock of `journal` whose ID is `id` — a person's call that its holder is gone.
 * Refuses when there is no lock, when its ID is another (a lock taken since), and when its
 * holder is provably running here.
 */
export function forceUnlock(journal: string, id: string): Unlocked {
  const file = lockPathOf(journal);
  const text = readLock(file);
  if (text === undefined)
    throw new PhctlError(
      "NO_LOCK",
      `there is no lock ${file}: nothing removed (check --journal: the journal of the apply that was refused)`,
    );
  const holder = parseHolder(text);
  const actual = lockIdOf(text);
  const who = holder ? `${commandLabel(holder)}, ${describeHolder(holder)}` : undefined;
  if (actual !== id)
    throw new PhctlError(
      "LOCK_ID_MISMATCH",
      `the lock ${file} has the ID ${actual}, not ${id} (mistyped, or a lock taken since${who ? `: ${who}` : ""}): nothing removed; if its holder is gone, run: ${unlockCommand(actual, journal)}`,
    );
  const verdict = judgeLock(holder, hereNow(), lockFileTimes(file), seenHere);
  if (holder && !verdict.takeOver && verdict.running)
    throw new PhctlError(
      "LOCK_HELD",
      `the lock ${file} (${who}) is held by pid ${holder.pid}, which is still running on this host: nothing removed; wait for it, or stop it (kill ${holder.pid}) and its lock is taken over by the next apply`,
    );
  if (!removeIfUnchanged(file, text))
    throw new PhctlError(
      "LOCK_ID_MISMATCH",
      `the lock ${file} changed while it was being removed (another apply took it?): nothing removed; run the command again to see who holds it`,
    );
  return { file, id: actual, ...(holder ? { holder } : {}) };
}
