/** Apply's progress output: the live line, the summary, and the JSON lines. */
import { describe, expect, it } from "vitest";
import type { ApplyEvent, ApplySummary } from "../../src/engine/apply-events.js";
import type { PlanEntry } from "../../src/engine/plan.js";
import {
  formatDuration,
  HumanReporter,
  jsonEventLine,
  liveLine,
  summaryLines,
} from "../../src/render/progress.js";
import { COLOR, PLAIN } from "../../src/render/style.js";

/** Carriage return and erase-line: how the live line is cleared. */
const CLEAR = "\r\u001b[2K";

const t = (key: string, action: "create" | "update" | "delete" = "create") => ({
  id: `${action} ${key}`,
  key,
  kind: "Thing",
  action,
});

const summary = (s: Partial<ApplySummary> = {}): ApplySummary => ({
  done: 0,
  failed: 0,
  skipped: 0,
  ticket: 0,
  blocked: 0,
  inconsistent: 0,
  alreadyDone: 0,
  durationMs: 1234,
  ...s,
});

describe("progress text", () => {
  it("formats durations for people", () => {
    expect([450, 12_345, 125_000].map(formatDuration)).toEqual(["450 ms", "12.3 s", "2 m 05 s"]);
  });

  it("the live line counts done/total, requests running, waiting on jobs, queued and failures", () => {
    const p = {
      total: 4000,
      done: 1010,
      failed: 1,
      skipped: 2,
      active: 2059,
      waitingOnJobs: 696,
      flow: { running: 8, queued: 1355 },
      elapsedMs: 3200,
    };
    expect(liveLine(p)).toBe(
      "apply: 1,013/4,000 done · 8 running · 696 waiting on jobs · 1,355 queued · 1 failed · 2 skipped · 3.2 s",
    );
    // Narrower: skipped, queued, waiting on jobs go first; done, failures and time stay.
    expect(liveLine(p, PLAIN, 60)).toBe("apply: 1,013/4,000 done · 8 running · 1 failed · 3.2 s");
    expect(liveLine(p, PLAIN, 40)).toBe("apply: 1,013/4,000 done · 1 failed");
    // A client that does not say: actions started and not waiting on a job.
    expect(liveLine({ ...p, flow: undefined })).toContain("· 1,363 active · 696 waiting on jobs ·");
  });

  it("the summary lists failures, skipped roots, tickets and blocked entries", () => {
    const ticket = {
      key: "project/p",
      action: "ticket",
      ticket: { subject: "Change the visibility of project p", body: "…" },
    } as PlanEntry;
    const blocked = {
      key: "project/p/repo/r",
      action: "blocked",
      blocked: { field: "fork", reason: "fork: cannot change" },
    } as PlanEntry;
    const lines = summaryLines(summary({ done: 3, failed: 1, skipped: 2, ticket: 1, blocked: 1 }), {
      failures: [{ id: "create project/p/group", message: "POST …: 500", durationMs: 80 }],
      skipped: new Map([
        ["project/p/group", ["create project/p/repo/a", "create project/p/repo/b"]],
      ]),
      durations: [],
      notSent: [ticket, blocked],
      inconsistencies: [],
    });
    expect(lines).toEqual([
      "Apply finished with errors: 3 done, 1 failed, 2 skipped (1.2 s).",
      "Still pending: 1 support ticket to open, 1 blocked entry to resolve (never sent: not API operations).",
      "  ticket   project/p: Change the visibility of project p (the letter is in the plan)",
      "  blocked  project/p/repo/r: fork: cannot change",
      "  skipped  2 actions that needed project/p/group: create project/p/repo/a, create project/p/repo/b",
      "  failed   create project/p/group (80 ms): POST …: 500",
    ]);
  });

  it("is green only when nothing is pending; pending is yellow and says what", () => {
    const facts = {
      failures: [],
      skipped: new Map(),
      durations: [],
      notSent: [],
      inconsistencies: [],
    };
    expect(summaryLines(summary({ done: 3_022 }), facts, COLOR)).toEqual([
      "\u001b[32mApply complete\u001b[39m: 3,022 done, 0 failed, 0 skipped (1.2 s).",
    ]);
    const pending = summaryLines(summary({ done: 2, ticket: 2 }), facts, COLOR);
    expect(pending[0]).toBe("\u001b[1mApply done\u001b[22m: 2 done, 0 failed, 0 skipped (1.2 s).");
    expect(pending[1]).toBe(
      "\u001b[33mStill pending: 2 support tickets to open (never sent: not API operations).\u001b[39m",
    );
    expect(pending.join("\n")).not.toContain("\u001b[32m");
  });

  it("shows the slowest actions only past a handful of actions and a second, on one line", () => {
    const facts = (ms: number[]) => ({
      failures: [],
      skipped: new Map(),
      durations: ms.map((durationMs, i) => ({
        id: `create project/trusted-firmware-a/repo/r${i}`,
        durationMs,
      })),
      notSent: [],
      inconsistencies: [],
    });
    const slowest = (done: number, ms: number[], width?: number) =>
      summaryLines(summary({ done }), facts(ms), PLAIN, width).find((l) =>
        l.startsWith("  slowest"),
      );
    expect(slowest(4, [3000, 2000, 1500, 17])).toBeUndefined();
    expect(slowest(40, [17, 17, 17, 17])).toBeUndefined();
    expect(slowest(40, [3000, 2000, 17])).toBe(
      "  slowest  create project/trusted-firmware-a/repo/r0 3.0 s, create project/trusted-firmware-a/repo/r1 2.0 s",
    );
    for (const width of [40, 60, 80]) {
      const line = slowest(40, [3000, 2000, 1500, 17], width)!;
      expect(line.length).toBeLessThanOrEqual(width);
      expect(line).toContain("r0");
    }
  });

  it("without a terminal, prints a line per finished action and the summary", () => {
    const out: string[] = [];
    let now = 0;
    const r = new HumanReporter({ out: (s) => out.push(s), now: () => now });
    const events: ApplyEvent[] = [
      { type: "apply-started", total: 2, ticket: 0, blocked: 0, alreadyDone: 0 },
      { type: "action-started", ...t("a") },
      { type: "job-waiting", ...t("a"), queue: "entitlement", queueId: "q1", resumed: false },
      { type: "action-done", ...t("a"), durationMs: 20 },
      { type: "action-failed", ...t("b"), durationMs: 5, message: "no", code: "X" },
      {
        type: "inconsistent",
        key: "a",
        kind: "Thing",
        action: "update",
        changes: [{ field: "size", before: 1, after: 2 }],
        reason: "size differs",
      },
    ];
    for (const e of events) r.event(e);
    expect(r.progress()).toMatchObject({ done: 1, failed: 1, active: 0, waitingOnJobs: 0 });
    now = 2000;
    r.event({ type: "apply-done", summary: summary({ done: 1, failed: 1, inconsistent: 1 }) });
    expect(out.join("")).toBe(
      [
        "done     create a (20 ms)",
        "failed   create b: no",
        "error    inconsistent result after apply: a (Thing): a new plan still has update: size 1 → 2",
        "Apply finished with errors: 1 done, 1 failed, 0 skipped, 1 inconsistent (1.2 s).",
        "  error    inconsistent result after apply: a (Thing): a new plan still has update: size 1 → 2",
        "  failed   create b (5 ms): no",
        "",
      ].join("\n"),
    );
  });

  it("wrapped to a width, never splits the closing duration", () => {
    // Keys of every length around the one that puts `(269` last on a 40-column line.
    for (let n = 1; n <= 16; n++) {
      const out: string[] = [];
      const r = new HumanReporter({ out: (s) => out.push(s), width: () => 40 });
      const key = `project/tf-a/access/${"x".repeat(n)}`;
      r.event({ type: "apply-started", total: 1, ticket: 0, blocked: 0, alreadyDone: 0 });
      r.event({ type: "action-started", ...t(key) });
      r.event({ type: "action-done", ...t(key), durationMs: 269 });
      const lines = out.join("").split("\n").filter(Boolean);
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
      expect(
        lines.some((l) => l.includes("(269 ms)")),
        lines.join("\n"),
      ).toBe(true);
    }
  });

  it("on a terminal, clears the live line before printing, and lists finished actions in one line each", async () => {
    const out: string[] = [];
    const tty: string[] = [];
    const r = new HumanReporter({
      out: (s) => out.push(s),
      terminal: { write: (s) => tty.push(s), columns: () => 60 },
      flow: () => ({ running: 1, queued: 0 }),
      width: () => 60,
      compact: true,
    });
    r.event({ type: "apply-started", total: 2, ticket: 0, blocked: 0, alreadyDone: 0 });
    r.event({ type: "action-started", ...t("a") });
    await new Promise((res) => setTimeout(res, 150));
    expect(tty.at(-1)).toMatch(
      new RegExp(`^${CLEAR.replace("[", "\\[")}apply: 0/2 done · 1 running · 0 waiting on jobs`),
    );
    expect(tty.every((s) => s.replace(CLEAR, "").length <= 59)).toBe(true);
    r.event({ type: "action-failed", ...t("a"), durationMs: 5, message: "no", code: "X" });
    expect(tty.at(-1)).toBe(CLEAR);
    r.event({
      type: "action-done",
      ...t("project/trusted-firmware-a/access/maintainers/user/jdoe"),
      durationMs: 5,
    });
    r.event({ type: "apply-done", summary: summary({ done: 1, failed: 1 }) });
    expect(out.slice(0, 2)).toEqual([
      "failed   create a: no\n",
      "done     create project/…/maintainers/user/jdoe (5 ms)\n",
    ]);
    expect(
      out.every((s) =>
        s
          .trimEnd()
          .split("\n")
          .every((l) => l.length <= 60),
      ),
    ).toBe(true);
  });

  it("JSON lines carry the event name, a time and the event's fields", () => {
    expect(
      jsonEventLine(
        { type: "action-done", ...t("a"), durationMs: 20 },
        new Date("2026-01-01T00:00:00Z"),
      ),
    ).toBe(
      '{"event":"action-done","time":"2026-01-01T00:00:00.000Z","id":"create a","key":"a","kind":"Thing","action":"create","durationMs":20}',
    );
  });
});
