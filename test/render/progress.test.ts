/** Apply's progress output: the live line, the summary, and the JSON lines (pure text). */
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

  it("the live line counts done/total, in flight, waiting on jobs and failures", () => {
    expect(
      liveLine({
        total: 40,
        done: 10,
        failed: 1,
        skipped: 2,
        inFlight: 5,
        waitingOnJobs: 3,
        elapsedMs: 3200,
      }),
    ).toBe("apply: 13/40 done · 5 in flight · 3 waiting on jobs · 1 failed · 2 skipped · 3.2 s");
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
      "Apply finished with errors: 3 done, 1 failed, 2 skipped, 1 ticket and 1 blocked not sent (1.2 s).",
      "  failed   create project/p/group (80 ms): POST …: 500",
      "  skipped  2 actions that needed project/p/group: create project/p/repo/a, create project/p/repo/b",
      "  ticket   project/p: Change the visibility of project p (open the support ticket shown in the plan)",
      "  blocked  project/p/repo/r: fork: cannot change",
    ]);
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
    expect(r.progress()).toMatchObject({ done: 1, failed: 1, inFlight: 0, waitingOnJobs: 0 });
    now = 2000;
    r.event({ type: "apply-done", summary: summary({ done: 1, failed: 1, inconsistent: 1 }) });
    expect(out.join("")).toBe(
      [
        "done     create a (20 ms)",
        "failed   create b: no",
        "error    inconsistent result after apply: a (Thing): a new plan still has update: size 1 → 2",
        "Apply finished with errors: 1 done, 1 failed, 0 skipped, 0 tickets and 0 blocked not sent, 1 inconsistent (1.2 s).",
        "  failed   create b (5 ms): no",
        "  error    inconsistent result after apply: a (Thing): a new plan still has update: size 1 → 2",
        "",
      ].join("\n"),
    );
  });

  it("on a terminal, clears the live line before printing a failure", async () => {
    const out: string[] = [];
    const tty: string[] = [];
    const r = new HumanReporter({ out: (s) => out.push(s), tty: (s) => tty.push(s) });
    r.event({ type: "apply-started", total: 1, ticket: 0, blocked: 0, alreadyDone: 0 });
    r.event({ type: "action-started", ...t("a") });
    await new Promise((res) => setTimeout(res, 150));
    expect(tty.at(-1)).toMatch(
      new RegExp(`^${CLEAR.replace("[", "\\[")}apply: 0/1 done · 1 in flight · 0 waiting on jobs`),
    );
    r.event({ type: "action-failed", ...t("a"), durationMs: 5, message: "no", code: "X" });
    expect(tty.at(-1)).toBe(CLEAR);
    expect(out).toEqual(["failed   create a: no\n"]);
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
