/** The apply lock: exclusive, names its holder, taken over only from a process that is gone. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireLock, lockPathOf } from "../../src/engine/lock.js";

const journalIn = () => join(mkdtempSync(join(tmpdir(), "phctl-lock-")), "journal.jsonl");

describe("the apply lock", () => {
  it("is exclusive: a second taker is refused with the holder's host, pid and start time", () => {
    const journal = journalIn();
    const lock = acquireLock(journal, "phctl apply A");
    expect(JSON.parse(readFileSync(lockPathOf(journal), "utf8"))).toMatchObject({
      host: hostname(),
      pid: process.pid,
    });
    expect(() => acquireLock(journal, "phctl apply B")).toThrow(
      new RegExp(
        `^another phctl apply A holds .*journal\\.jsonl\\.lock \\(host ${hostname()}, pid ${process.pid}, since [^,]+, lock ID ${lock.id}\\): it is still running on this host; wait for it to finish and run again, or stop it \\(kill ${process.pid}\\): its lock is then taken over$`,
      ),
    );
    lock.release();
    expect(existsSync(lockPathOf(journal))).toBe(false);
    acquireLock(journal, "phctl apply B").release();
  });

  it("takes over a lock whose process is gone, and says whose it was", () => {
    const journal = journalIn();
    // A pid that existed and ended: a finished child's.
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid;
    writeFileSync(
      lockPathOf(journal),
      JSON.stringify({ host: hostname(), pid: dead, startedAt: "then", command: "x" }),
    );
    const lock = acquireLock(journal, "phctl apply");
    expect(lock.tookOverFrom).toMatchObject({ pid: dead, startedAt: "then" });
    lock.release();
  });

  it("never takes over a lock of another host (its process cannot be checked)", () => {
    const journal = journalIn();
    writeFileSync(
      lockPathOf(journal),
      JSON.stringify({ host: "ci-runner-7", pid: 1, startedAt: "then", command: "x" }),
    );
    expect(() => acquireLock(journal, "phctl apply")).toThrow(
      /^another phctl x holds .*\(host ci-runner-7, pid 1, since then, lock ID [0-9a-f]{16}\): it ran on another host: phctl cannot see whether it still runs; wait for it to finish and run again; if it is gone \(killed, its runner lost\), remove the lock with: phctl unlock [0-9a-f]{16} --journal \S+journal\.jsonl$/,
    );
  });
});
