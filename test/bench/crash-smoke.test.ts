/**
 * Crash-trial smoke run (bench/crash.ts, at size small: 10 users each with `sendWelcome:
 * true` and a git account, 2 teams, 4 projects, 20 repositories; queue delay 300 ms;
 * `npm test` builds the CLI first): one uninterrupted apply from empty (the calibration),
 * then one trial per mode, each on a fresh `phctl serve --db FILE` child process — the
 * apply SIGKILLed at a point of its own rather than a moment (the machine's speed varies):
 * once the server accepted half the calibration's POSTs, then finished with `--resume` in
 * the same work directory; once it accepted half the user creates, then finished with plain
 * applies from a fresh work directory without `.phctl/`. The checks are the benchmark's (bench/crash-checks.ts): converged within 3
 * runs and the plan then empty; no queued create accepted twice (store `jobs`), no POST
 * accepted more often than in the uninterrupted apply (request log); welcome mails exactly
 * once per user (mode fresh: a user without one must be named by the fresh apply).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  duplicateJobs,
  duplicatePosts,
  namedForWelcome,
  tallyWelcomes,
  type Mode,
} from "../../bench/crash-checks.js";
import {
  calibrate,
  CRASH_SIZES,
  runTrial,
  type Calibration,
  type Kill,
} from "../../bench/crash-trial.js";
import { generate, writeOrganization } from "../../bench/generate.js";
import type { RequestLogEntry } from "../../src/server/app.js";

const org = generate(CRASH_SIZES.small, { sendWelcome: true });
const users = (org.seed.users ?? []).map((u) => u.username ?? "");
let root: string;
let setup: Parameters<typeof calibrate>[0];
let cal: Calibration;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "phctl-crash-smoke-"));
  const { dir } = writeOrganization(org, root);
  setup = { manifests: dir, users, queueDelay: 300, token: "crash-smoke-token" };
  cal = await calibrate(setup, join(root, "calibration"));
}, 20_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** The POSTs the uninterrupted apply had accepted (but its welcome mails). */
const referencePosts = () => [...cal.reference.values()].reduce((a, b) => a + b, 0);

describe("the checks", () => {
  it("count accepted jobs per identity, whatever their status", () => {
    const job = (action: string, payload: Record<string, unknown>, status = "completed") => ({
      action,
      payload,
      status,
    });
    expect(
      duplicateJobs([
        job("account.create", { username: "user17", service: "git", userId: 18 }),
        job("account.create", { username: "user17", service: "git", userId: 18 }, "failed"),
        job("account.create", { username: "user1", service: "git" }),
        job("access.add", { key: "project:p1:developers:user:user3", username: "user3" }),
        job("access.add", { key: "project:p1:reporters:user:user3", username: "user3" }),
      ]),
    ).toEqual(["2 `account.create` jobs accepted for user17/git (completed, failed)"]);
  });

  it("compare 2xx POSTs with an uninterrupted apply's, ids as :id, the welcome apart", () => {
    const e = (url: string, status = 201, operation: string | null = null) => ({
      seq: 0,
      method: "POST",
      url,
      operation: operation as RequestLogEntry["operation"],
      status,
      fault: null,
      ms: 1,
      parentOrgId: 1,
    });
    const log = [
      e("/v1/projects/p1/git/repo/12/commit-blocker"),
      e("/v1/projects/p1/git/repo/7/commit-blocker"),
      e("/v1/users"),
      e("/v1/users", 409),
      e("/v1/users/user1/send_welcome", 200, "users.sendWelcome"),
      e("/v1/users/user1/send_welcome", 200, "users.sendWelcome"),
    ];
    const reference = new Map([
      ["POST /v1/projects/p1/git/repo/:id/commit-blocker", 1],
      ["POST /v1/users", 1],
    ]);
    expect(duplicatePosts(log, reference)).toEqual([
      "POST /v1/projects/p1/git/repo/:id/commit-blocker: 2 accepted, 1 in an uninterrupted apply",
    ]);
  });

  it("find a user named on a line about welcome mails, as a whole word", () => {
    const out =
      "warning: user1 may never have had its welcome mail\nuser2 created\nwelcome: user30";
    expect([...namedForWelcome(out, ["user1", "user2", "user3"])]).toEqual(["user1"]);
    const w = new Map([
      ["user1", 0],
      ["user2", 2],
      ["user3", 1],
    ]);
    expect(tallyWelcomes("fresh", ["user1", "user2", "user3", "user4"], w, out)).toEqual({
      lost: ["user4"],
      named: ["user1"],
      duplicated: ["user2"],
      announced: [],
    });
    expect(tallyWelcomes("resume", ["user1", "user3"], w, out)).toEqual({
      lost: ["user1"],
      named: [],
      duplicated: [],
      announced: [],
    });
    const told = "phctl: the welcome mail of user/user2 was being sent …; it may arrive twice";
    expect(tallyWelcomes("resume", ["user2", "user3"], w, told)).toEqual({
      lost: [],
      named: [],
      duplicated: [],
      announced: ["user2"],
    });
  });
});

describe("crash trials, size small", () => {
  it("the generated organization declares a welcome and a git account for every user", () => {
    const docs = org.files.find((f) => f.file === "users.yaml")!.content.split("---\n");
    expect(users).toHaveLength(10);
    expect(docs).toHaveLength(10);
    for (const d of docs) expect(d).toMatch(/\n {2}sendWelcome: true\n {2}services:\n {4}git:/);
    // The benchmark's organizations are unchanged.
    expect(
      generate(CRASH_SIZES.small).files.find((f) => f.file === "users.yaml")!.content,
    ).not.toContain("sendWelcome");
  });

  it("calibration: an uninterrupted apply from empty converges", () => {
    expect(cal.apply.code, cal.apply.stdout + cal.apply.stderr).toBe(0);
    expect(cal.plan.code, cal.plan.stdout + cal.plan.stderr).toBe(0);
    // Every user and its git account, every project: the POSTs a trial is compared with.
    expect(cal.reference.get("POST /v1/users")).toBe(10);
    expect(cal.reference.get("POST /v1/projects")).toBe(4);
  });

  const trial = (n: number, mode: Mode, kill: () => Kill) => async () => {
    const dir = join(root, `trial-${n}`);
    const r = await runTrial(setup, cal, { n, mode, kill: kill(), dir });
    if (mode === "concurrent") {
      // Nothing killed: both applies ran to their end and exited 0.
      expect(r.applies.map((a) => a.code)).toEqual([0, 0]);
      expect(r.interrupted.killedAtMs).toBeUndefined();
    } else {
      // The kill landed while the apply was running.
      expect(r.interrupted.killedAtMs).toBeDefined();
      expect(r.interrupted.signal).toBe("SIGKILL");
    }
    // Every failed check, one line each (bench/crash-checks.ts trialFailures).
    expect(r.failures).toEqual([]);
  };

  it(
    "SIGKILL once half the POSTs were accepted, then --resume in the same work directory: converged, nothing twice, every welcome once",
    trial(1, "resume", () => ({ afterPosts: Math.ceil(referencePosts() / 2) })),
    30_000,
  );
  it(
    "SIGKILL once half the users were created, then applies from a fresh work directory: converged, nothing twice, a lost welcome named",
    trial(2, "fresh", () => ({ afterPosts: users.length / 2, operation: "users.create" })),
    30_000,
  );
  it(
    "two applies at once from two work directories: both exit 0, nothing twice, every welcome once",
    trial(3, "concurrent", () => ({ afterMs: 0 })),
    30_000,
  );
});
