/**
 * The apply lock on this machine's real /proc: what a lock records (boot, pid namespace, start
 * time, CI job), which stale locks are taken over and with what words, what stays LOCKED and
 * names the command that removes it, and `forceUnlock` (phctl unlock) by lock ID.
 */
import { mkdtempSync, readFileSync, readlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireLock, describeTakeover, forceUnlock, lockPathOf } from "../../src/engine/lock.js";

const journalIn = () => join(mkdtempSync(join(tmpdir(), "phctl-lock-")), "journal.jsonl");
const bootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
const pidNs = readlinkSync("/proc/self/ns/pid");
const myStart = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ")[19];
const JOB = { id: "gitlab job 991", url: "https://gitlab.example.org/g/p/-/jobs/991" };

function writeLock(journal: string, holder: Record<string, unknown>): void {
  writeFileSync(
    lockPathOf(journal),
    JSON.stringify({ startedAt: new Date().toISOString(), command: "phctl apply", ...holder }),
  );
}

describe("what a lock records", () => {
  it("host, pid, its start time, the boot, the pid namespace, a lock ID and the GitLab job", () => {
    const journal = journalIn();
    const env = { GITLAB_CI: "true", CI_JOB_ID: "77", CI_JOB_URL: "https://gl.example/g/p/-/jobs/77" }; // prettier-ignore
    const lock = acquireLock(journal, "phctl apply", { env });
    const record = JSON.parse(readFileSync(lockPathOf(journal), "utf8"));
    expect(record).toEqual({
      id: lock.id,
      host: hostname(),
      pid: process.pid,
      startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      command: "phctl apply",
      pidStart: myStart,
      bootId,
      pidNs,
      ci: { id: "gitlab job 77", url: "https://gl.example/g/p/-/jobs/77" },
    });
    expect(lock.id).toMatch(/^[0-9a-f-]{36}$/);
    lock.release();
  });

  it("the GitHub Actions run (and attempt) as its URL", () => {
    const journal = journalIn();
    const env = { GITHUB_ACTIONS: "true", GITHUB_SERVER_URL: "https://github.com", GITHUB_REPOSITORY: "acme/infra", GITHUB_RUN_ID: "5002", GITHUB_RUN_ATTEMPT: "2", GITHUB_JOB: "apply" }; // prettier-ignore
    const lock = acquireLock(journal, "phctl apply", { env });
    expect(JSON.parse(readFileSync(lockPathOf(journal), "utf8")).ci).toEqual({
      id: "github run 5002 attempt 2 job apply",
      url: "https://github.com/acme/infra/actions/runs/5002/attempts/2",
    });
    lock.release();
  });
});

describe("a stale lock of this machine is taken over, saying why", () => {
  it("a pid now used by another process (another start time)", () => {
    const journal = journalIn();
    writeLock(journal, { id: "old", host: hostname(), pid: process.pid, pidStart: "1", bootId, pidNs }); // prettier-ignore
    const lock = acquireLock(journal, "phctl apply");
    expect(lock.tookOverFrom).toMatchObject({ id: "old", pid: process.pid });
    expect(describeTakeover(lock)).toMatch(
      new RegExp(`^took over the lock \\S+ of pid ${process.pid} \\(started [^)]+\\), which is no longer running \\(pid ${process.pid} is another process now, started later\\)$`), // prettier-ignore
    );
    lock.release();
  });

  it("a lock of an earlier boot, whatever runs under its pid now", () => {
    const journal = journalIn();
    writeLock(journal, { host: hostname(), pid: process.pid, pidStart: myStart, bootId: "0f0e0d0c-0000-4000-8000-000000000000", pidNs }); // prettier-ignore
    const lock = acquireLock(journal, "phctl apply");
    expect(describeTakeover(lock)).toMatch(/, which ran before this machine restarted \(another boot ID\): it is gone$/); // prettier-ignore
    lock.release();
  });

  it("a copy restored from another runner's CI cache (its times kept, made now)", () => {
    const journal = journalIn();
    const started = new Date(Date.now() - 10 * 60_000);
    writeLock(journal, { host: "runner-7", pid: 4242, startedAt: started.toISOString(), ci: JOB }); // prettier-ignore
    utimesSync(lockPathOf(journal), started, started); // as zip and tar restore a file
    const lock = acquireLock(journal, "phctl apply", { env: {} });
    expect(describeTakeover(lock)).toBe(
      `took over the lock ${lockPathOf(journal)} of pid 4242 on host runner-7 (started ${started.toISOString()}, job ${JOB.url}), whose lock file here is a copy (restored from a CI cache or an archive): ${JOB.url} never held it`, // prettier-ignore
    );
    lock.release();
  });
});

describe("a lock that is not provably stale stays, and phctl unlock removes it by ID", () => {
  it("another host's lock, taken there now: LOCKED with the holder and the command; unlock by ID", () => {
    const journal = journalIn();
    const startedAt = new Date().toISOString();
    writeLock(journal, { id: "6f1c0e9a-2b7d-4c1e-9a55-0d3f1b2c4e77", host: "runner-7", pid: 4242, startedAt, ci: JOB }); // prettier-ignore
    const locked = (() => {
      try {
        acquireLock(journal, "phctl apply", { env: {} });
      } catch (e) {
        return e as { code: string; message: string };
      }
      throw new Error("not locked");
    })();
    expect(locked.code).toBe("LOCKED");
    expect(locked.message).toBe(
      `another phctl apply holds ${lockPathOf(journal)} (host runner-7, pid 4242, since ${startedAt}, job ${JOB.url}, lock ID 6f1c0e9a-2b7d-4c1e-9a55-0d3f1b2c4e77): it ran on another host: phctl cannot see whether it still runs; wait for it to finish and run again; if it is gone (killed, its runner lost), remove the lock with: phctl unlock 6f1c0e9a-2b7d-4c1e-9a55-0d3f1b2c4e77 --journal ${journal}`, // prettier-ignore
    );
    // Not the ID seen: nothing removed.
    expect(() => forceUnlock(journal, "6f1c0e9a-0000-0000-0000-000000000000")).toThrow(
      /has the ID 6f1c0e9a-2b7d-4c1e-9a55-0d3f1b2c4e77, not 6f1c0e9a-0000-0000-0000-000000000000 \(mistyped, or a lock taken since: phctl apply, host runner-7, pid 4242, .*\): nothing removed/, // prettier-ignore
    );
    const removed = forceUnlock(journal, "6f1c0e9a-2b7d-4c1e-9a55-0d3f1b2c4e77");
    expect(removed).toMatchObject({ file: lockPathOf(journal), holder: { host: "runner-7", pid: 4242, ci: JOB } }); // prettier-ignore
    expect(() => forceUnlock(journal, "6f1c0e9a-2b7d-4c1e-9a55-0d3f1b2c4e77")).toThrow(/^there is no lock /); // prettier-ignore
    acquireLock(journal, "phctl apply").release();
  });

  it("an older lock (no ID) is unlocked by the digest LOCKED names; a running holder never", () => {
    const journal = journalIn();
    writeLock(journal, { host: "runner-7", pid: 4242 });
    const id = /lock ID ([0-9a-f]{16})/.exec(
      (() => {
        try {
          acquireLock(journal, "phctl apply");
          return "";
        } catch (e) {
          return (e as Error).message;
        }
      })(),
    )![1];
    expect(forceUnlock(journal, id).id).toBe(id);
    const mine = acquireLock(journal, "phctl apply");
    expect(() => forceUnlock(journal, mine.id)).toThrow(
      new RegExp(`is held by pid ${process.pid}, which is still running on this host: nothing removed`), // prettier-ignore
    );
    mine.release();
  });

  it("a release never removes a lock another run took since", () => {
    const journal = journalIn();
    const lock = acquireLock(journal, "phctl apply");
    writeLock(journal, { id: "theirs", host: hostname(), pid: process.pid });
    lock.release();
    expect(JSON.parse(readFileSync(lockPathOf(journal), "utf8")).id).toBe("theirs");
  });
});
