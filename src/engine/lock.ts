/**
 * The apply lock: one apply at a time per journal. Two applies of the same config at once
 * would both plan the same creates, send them twice and interleave one journal with the
 * other. The lock is a file beside the journal (`<journal>.lock`), created exclusively
 * (O_EXCL), holding who took it: host, pid, start time and the command. A second apply
 * refuses, naming the holder; a lock whose process is gone (same host, no such pid) is taken
 * over — the caller says so. Released when the apply ends, also on a signal or crash exit.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { PhctlError } from "../errors.js";

/** Who holds a lock. */
export interface LockHolder {
  host: string;
  pid: number;
  startedAt: string;
  command: string;
}

export const lockPathOf = (journal: string): string => `${journal}.lock`;

/** Is `pid` a live process on this host? (EPERM: it exists, owned by someone else.) */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const h = JSON.parse(readFileSync(file, "utf8")) as Partial<LockHolder>;
    return typeof h.pid === "number" && typeof h.host === "string"
      ? {
          host: h.host,
          pid: h.pid,
          startedAt: String(h.startedAt ?? "?"),
          command: String(h.command ?? ""),
        }
      : undefined;
  } catch {
    return undefined;
  }
}

export interface Lock {
  file: string;
  /** The holder this lock replaced because its process was gone. */
  tookOverFrom?: LockHolder;
  release(): void;
}

/** Take the lock of `journal`, or throw LOCKED naming the holder and what to do. */
export function acquireLock(journal: string, command: string): Lock {
  const file = lockPathOf(journal);
  const me: LockHolder = {
    host: hostname(),
    pid: process.pid,
    startedAt: new Date().toISOString(),
    command,
  };
  let tookOverFrom: LockHolder | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      mkdirSync(dirname(file), { recursive: true });
      const fd = openSync(file, "wx");
      writeSync(fd, `${JSON.stringify(me)}\n`);
      closeSync(fd);
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "EEXIST")
        throw new PhctlError(
          "LOCK_FAILED",
          `cannot create the apply lock ${file} (${code ?? String(e)}): check that its directory is writable, or choose another journal location with --journal`,
        );
      const holder = readHolder(file);
      const gone = holder && holder.host === me.host && !alive(holder.pid);
      if (!gone || attempt > 2) {
        const who = holder
          ? `host ${holder.host}, pid ${holder.pid}, since ${holder.startedAt}${holder.command ? ` (${holder.command})` : ""}`
          : "an unreadable lock file";
        throw new PhctlError(
          "LOCKED",
          `another phctl apply holds ${file} (${who}): wait for it to finish and run again; if that process is gone${holder && holder.host !== me.host ? " (it ran on another host)" : ""}, remove ${file}`,
        );
      }
      tookOverFrom = holder;
      try {
        unlinkSync(file);
      } catch {
        // Someone else removed it first: try again.
      }
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    // Only our own lock: never one a later apply took over.
    if (readHolder(file)?.pid === me.pid)
      try {
        unlinkSync(file);
      } catch {
        // Already gone.
      }
  };
  process.on("exit", release);
  return { file, release, ...(tookOverFrom ? { tookOverFrom } : {}) };
}
