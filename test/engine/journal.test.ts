/**
 * The apply journal on disk: append-only JSON Lines (every earlier byte stays as written),
 * replayed by readJournal; a torn last line is ignored, a damaged one is a clear error, and
 * an interrupted run's journal is continued in place.
 */
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ApplyEvent } from "../../src/engine/apply-events.js";
import { BATCH_MS, Journal, readJournal } from "../../src/engine/journal.js";
import { SEND_UNKNOWN } from "../../src/engine/send-unknown.js";

const plan = { createdAt: "t", apiUrl: "test", organization: "acme", digest: "d", targets: [] };
const target = (key: string) => ({
  id: `create ${key}`,
  key,
  kind: "UserService",
  action: "create" as const,
});
/** A queued job of `key`'s create: waiting on it, or done. */
const job = (key: string, queueId: string) => ({
  ...target(key),
  queue: "entitlement" as const,
  queueId,
});
const waiting = (key: string, queueId: string): ApplyEvent => ({
  type: "job-waiting",
  ...job(key, queueId),
  resumed: false,
});
const jobDone = (key: string, queueId: string): ApplyEvent => ({
  type: "job-done",
  ...job(key, queueId),
  ok: true,
});
const done = (key: string): ApplyEvent => ({ type: "action-done", ...target(key), durationMs: 1 });
const fileIn = () => join(mkdtempSync(join(tmpdir(), "phctl-journal-")), "journal.jsonl");

describe("the apply journal", () => {
  it("appends one line per change and never rewrites what it wrote", () => {
    const file = fileIn();
    const journal = Journal.start(file, plan, { done: ["create user/old"] });
    const events = [
      waiting("user/a/service/git", "q1"),
      waiting("user/b/service/git", "q2"),
      waiting("user/a/service/git", "q1"), // the same job again: nothing to record
      { type: "action-started", ...target("user/c") } as ApplyEvent, // not recorded
      jobDone("user/a/service/git", "q1"),
      done("user/a/service/git"),
    ];
    let before = readFileSync(file, "utf8");
    for (const e of events) {
      journal.record(e);
      journal.flush();
      const after = readFileSync(file, "utf8");
      expect(after.startsWith(before)).toBe(true);
      before = after;
    }
    expect(before.split("\n").filter(Boolean)).toHaveLength(1 + 4);
    const data = readJournal(file)!;
    expect(data).toMatchObject({
      status: "running",
      plan,
      done: ["create user/old", "create user/a/service/git"],
      failed: [],
    });
    expect(data.inFlight.map((j) => j.queueId)).toEqual(["q2"]);
    expect(journal.data).toEqual(data);
  });

  it("ignores a torn last line and names a damaged one", () => {
    const file = fileIn();
    const journal = Journal.start(file, plan);
    journal.record(waiting("user/a/service/git", "q1"));
    appendFileSync(file, '{"at":"x","done":"create us');
    expect(readJournal(file)!.inFlight).toHaveLength(1);

    const [header, first] = readFileSync(file, "utf8").split("\n");
    writeFileSync(file, `${header}\noops\n${first}\n`);
    expect(() => readJournal(file)).toThrow(
      /is not a journal phctl can read \(line 2 is not a journal line\); remove it to start afresh/,
    );
    writeFileSync(file, "not json\n");
    expect(() => readJournal(file)).toThrow(/is not a journal phctl can read/);
  });

  it("continues an interrupted run's journal in place, and finishes it", () => {
    const file = fileIn();
    Journal.start(file, plan).record(waiting("user/a/service/git", "q1"));
    const interrupted = readJournal(file)!;
    const resumed = new Journal(file, interrupted);
    resumed.record(jobDone("user/a/service/git", "q1"));
    resumed.finish();
    expect(readJournal(file)).toMatchObject({ status: "finished", inFlight: [] });
  });
});

describe("what a journal carries to the next run", () => {
  const welcome = (u: string) => ({
    key: `user/${u}/welcome`,
    kind: "WelcomeMail",
    action: "create" as const,
    before: null,
    after: { username: u },
    changes: [],
    reason: "test",
    source: null,
    dependsOn: [`user/${u}`],
    destructive: false,
  });

  it("keeps a side effect owed until its action is done", () => {
    const file = fileIn();
    const journal = Journal.start(file, plan, { sideEffects: [welcome("ann"), welcome("bob")] });
    journal.record({
      type: "action-done",
      id: "create user/ann/welcome",
      key: "user/ann/welcome",
      kind: "WelcomeMail",
      action: "create",
      durationMs: 1,
    });
    journal.record({
      type: "action-failed",
      id: "create user/bob/welcome",
      key: "user/bob/welcome",
      kind: "WelcomeMail",
      action: "create",
      durationMs: 1,
      message: "503",
      code: "UNAVAILABLE",
    });
    journal.record({ type: "apply-done", summary: {} as never });
    const data = readJournal(file)!;
    expect(data.status).toBe("finished");
    expect(data.owed.map((e) => e.key)).toEqual(["user/bob/welcome"]);
  });

  it("records a side effect whose answer was lost as unknown: neither owed nor done, carried on, settled by a person", () => {
    const file = fileIn();
    const journal = Journal.start(file, plan, { sideEffects: [welcome("ann"), welcome("bob")] });
    const bob = {
      id: "create user/bob/welcome",
      key: "user/bob/welcome",
      kind: "WelcomeMail",
      action: "create" as const,
    };
    journal.record({ type: "action-started", ...bob });
    journal.record({
      type: "action-failed",
      ...bob,
      durationMs: 1,
      message: "the welcome mail of bob may or may not have been sent",
      code: SEND_UNKNOWN,
    });
    // Written at once (a kill right after loses nothing).
    expect(readFileSync(file, "utf8")).toContain('"unknown":"create user/bob/welcome"');
    let data = readJournal(file)!;
    expect(data.unknown.map((e) => e.key)).toEqual(["user/bob/welcome"]);
    expect(data.owed.map((e) => e.key)).toEqual(["user/ann/welcome"]);
    expect(data.inDoubt).toEqual([]);
    // The next run's journal inherits it; a person settles it.
    const next = Journal.start(file, plan, { unknown: data.unknown });
    expect(readJournal(file)!.unknown.map((e) => e.key)).toEqual(["user/bob/welcome"]);
    new Journal(file, next.data).settle(["create user/bob/welcome"]);
    data = readJournal(file)!;
    expect(data).toMatchObject({ unknown: [], owed: [], done: ["create user/bob/welcome"] });
  });

  it("holds a side effect killed between 'about to be sent' and 'done' as unknown, never owed", () => {
    const file = fileIn();
    const journal = Journal.start(file, plan, { sideEffects: [welcome("ann")] });
    journal.record({
      type: "action-started",
      id: "create user/ann/welcome",
      key: "user/ann/welcome",
      kind: "WelcomeMail",
      action: "create",
    });
    const data = readJournal(file)!;
    expect(data.inDoubt).toEqual(["create user/ann/welcome"]);
    expect(data.owed).toEqual([]);
    expect(data.unknown.map((e) => e.key)).toEqual(["user/ann/welcome"]);
    // Continued in place (settleJobs), it stays so.
    expect(new Journal(file, data).data.unknown.map((e) => e.key)).toEqual(["user/ann/welcome"]);
  });

  it("keeps a job in flight when its action failed without seeing the job end (a timeout)", () => {
    const file = fileIn();
    const journal = Journal.start(file, plan, {
      inFlight: [{ ...job("user/z/service/git", "q0"), since: "t" }],
    });
    journal.record(waiting("user/a/service/git", "q1"));
    journal.record({
      type: "action-failed",
      ...target("user/a/service/git"),
      durationMs: 1,
      message: "entitlement job q1 still open after 1 s",
      code: "JOB_TIMEOUT",
    });
    expect(
      readJournal(file)!
        .inFlight.map((j) => j.queueId)
        .sort(),
    ).toEqual(["q0", "q1"]);
    journal.record({
      type: "job-done",
      ...job("user/a/service/git", "q1"),
      ok: false,
      message: "refused",
    });
    journal.flush();
    expect(readJournal(file)!.inFlight.map((j) => j.queueId)).toEqual(["q0"]);
  });
});

describe("what the journal writes at once and what in batches", () => {
  it("writes a job's id at once, and done / job-ended lines with the next line, soon, or at flush", async () => {
    const file = fileIn();
    const journal = Journal.start(file, plan);
    const lines = () => readFileSync(file, "utf8").split("\n").filter(Boolean).length;
    journal.record(waiting("user/a/service/git", "q1"));
    expect(lines()).toBe(2); // header + job: on disk before anything waits on it
    journal.record(jobDone("user/a/service/git", "q1"));
    journal.record(done("user/a/service/git"));
    expect(lines()).toBe(2); // batched: losing them costs a status read, a re-read
    journal.record(waiting("user/b/service/git", "q2"));
    expect(lines()).toBe(5); // the batch first, in order, then the job
    journal.record(done("user/b"));
    await new Promise((r) => setTimeout(r, BATCH_MS + 20));
    expect(lines()).toBe(6); // a batch waits BATCH_MS at most
    expect(readJournal(file)).toMatchObject({
      done: ["create user/a/service/git", "create user/b"],
      inFlight: [{ queueId: "q2" }],
    });
  });

  it("writes a side effect's start and end at once (a mail cannot be re-read)", () => {
    const file = fileIn();
    const mail = { ...target("user/a/welcome"), kind: "WelcomeMail" };
    const owed = [
      {
        key: mail.key,
        kind: mail.kind,
        action: "create" as const,
        before: null,
        after: {},
        changes: [],
        reason: "r",
        source: null,
        dependsOn: [],
        destructive: false,
      },
    ];
    const journal = Journal.start(file, plan, { sideEffects: owed });
    journal.record({ type: "action-started", ...mail });
    expect(readJournal(file)!.inDoubt).toEqual(["create user/a/welcome"]);
    journal.record({ type: "action-done", ...mail, durationMs: 1 });
    expect(readJournal(file)).toMatchObject({ inDoubt: [], owed: [], unknown: [] });
  });
});
