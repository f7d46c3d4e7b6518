/**
 * The apply lock's file and process facts (lock.ts decides with them): what a pid is here,
 * the lock file's text and times, and removing a lock file only if it is still the one judged.
 */
import { linkSync, readFileSync, renameSync, statSync, unlinkSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { PhctlError } from "../errors.js";
import { processStart } from "./lock-holder.js";
import type { FileTimes, ProcessSeen } from "./lock-verdict.js";

/** Is `pid` a live process here? (EPERM: it exists, owned by someone else.) */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** What `pid` is in this pid namespace. */
export function seenHere(pid: number): ProcessSeen {
  if (!alive(pid)) return { running: false };
  const start = processStart(pid);
  return start ? { running: true, start } : { running: true };
}

/** The lock file's text, or undefined when there is none. */
export function readLock(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}

export const lockFileTimes = (file: string): FileTimes | undefined => {
  const s = statSync(file, { throwIfNoEntry: false });
  return s ? { mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs } : undefined;
};

/**
 * Remove `file` if it still holds `text` — never a lock taken since. It is renamed aside first
 * (only one process can), then compared; a lock that is not the one judged is put back.
 */
export function removeIfUnchanged(file: string, text: string): boolean {
  const aside = `${file}.${process.pid}.${randomUUID()}.stale`;
  try {
    renameSync(file, aside);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return false; // Gone already: someone else removed it.
    throw new PhctlError(
      "LOCK_FAILED",
      `cannot remove the lock ${file} (${code ?? String(e)}): check that its directory is writable`,
    );
  }
  const moved = readFileSync(aside, "utf8");
  if (moved === text) {
    unlinkSync(aside);
    return true;
  }
  try {
    linkSync(aside, file); // never over a lock taken meanwhile
  } catch (e) {
    // No hard links on this filesystem: rename it back. EEXIST: a third taker got in meanwhile
    // and stands (the one moved aside is lost: a race of three takers at once).
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") {
      renameSync(aside, file);
      return false;
    }
  }
  unlinkSync(aside);
  return false;
}
