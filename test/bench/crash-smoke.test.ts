/**
 * Crash-trial smoke run (bench/crash.ts, at size small: 10 users each with `sendWelcome:
 * true` and a git account, 2 teams, 4 projects, 20 repositories; queue delay 300 ms;
 * `npm test` builds the CLI first): one uninterrupted apply from empty (the calibration),
 * then one trial per mode, each on a fresh `phctl serve --db FILE` child process — the
 * apply SIGKILLed at a point of its own rather than a moment (the machine's speed varies):
 * once the server accepted half the calibration's POSTs, then finished with `--resume` in
 * the same work directory; once it accepted half the user creates, then finished with plain
 * applies from a fresh work directory without `.phctl/`; once on a server that drops the
 * answer to half the POSTs after acting on them (mode dropped), killed at half the POSTs and
 * finished with `--resume`. The checks are the benchmark's (bench/crash-checks.ts): converged
 * within 3 runs and the plan then empty; no queued create accepted twice (store `jobs`), no
 * POST carried out more often than in the uninterrupted apply (request log); never two
 * welcome mails to a user, and a user without one named by an apply after the kill (a mail
 * whose answer was dropped: said to be one that may or may not have been sent).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  acceptedPosts,
  droppedWelcomes,
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
  // Mode dropped drops half the POSTs' answers: at 10 users, some welcome mail surely.
  setup = { manifests: dir, users, queueDelay: 300, token: "crash-smoke-token", dropRate: 0.5 };
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

  it("count a POST dropped after the server acted as carried out", () => {
    const e = (status: number, fault: string | null) => ({
      seq: 0,
      method: "POST",
      url: "/v1/users",
      operation: "users.create" as RequestLogEntry["operation"],
      status,
      fault,
      ms: 1,
      parentOrgId: 1,
    });
    expect(
      acceptedPosts([e(201, null), e(0, "dropAfter"), e(0, "drop"), e(503, "status503")]),
    ).toEqual(new Map([["POST /v1/users", 2]]));
    const welcome = {
      ...e(0, "dropAfter"),
      url: "/v1/users/user3/send_welcome",
      operation: "users.sendWelcome" as RequestLogEntry["operation"],
    };
    expect(droppedWelcomes([welcome, { ...welcome, fault: "drop" }])).toEqual(["user3"]);
  });

  it("find a user named on a line about welcome mails, as a whole word", () => {
    const out =
      "warning: user1 may never have had its welcome mail\nuser2 created\nwelcome: user30";
    expect([...namedForWelcome(out, ["user1", "user2", "user3"])]).toEqual(["user1"]);
  });

  it("tally the welcome mails per user: none named or lost, one, two or more; a dropped one must be said unknown", () => {
    const w = new Map([
      ["user1", 0],
      ["user2", 2],
      ["user3", 1],
      ["user5", 0],
    ]);
    const out = [
      "warning: user1 may never have had its welcome mail",
      "phctl: the welcome mails of 2 users may or may not have been sent (user3, user5): …",
    ].join("\n");
    const users = ["user1", "user2", "user3", "user4", "user5"];
    expect(tallyWelcomes(users, w, out, ["user3", "user2"])).toEqual({
      lost: ["user4"],
      named: ["user1", "user5"],
      unknown: ["user3", "user5"],
      twice: ["user2"],
      unsaid: ["user2"],
      perUser: { none: 3, one: 1, more: 1 },
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
    // Never two welcome mails to a user.
    expect(r.welcome.perUser.more).toBe(0);
    return r;
  };

  it(
    "SIGKILL once half the POSTs were accepted, then --resume in the same work directory: converged, nothing twice, no welcome twice or lost unnamed",
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
  it("answers dropped after the server acted, SIGKILL at half the POSTs, --resume: converged, nothing twice, no welcome twice, each dropped one said unknown", async () => {
    const r = await trial(4, "dropped", () => ({ afterPosts: Math.ceil(referencePosts() / 2) }))();
    const dropped = droppedWelcomes(
      JSON.parse(readFileSync(join(root, "trial-4", "requests.json"), "utf8")) as RequestLogEntry[],
    );
    // Half the POSTs' answers dropped: some welcome's surely; each said unknown, none sent again.
    expect(dropped.length).toBeGreaterThan(0);
    expect(r.welcome.unknown).toEqual(expect.arrayContaining([...new Set(dropped)]));
    for (const u of dropped) expect(r.welcome.twice).not.toContain(u);
  }, 60_000);
});
