/**
 * A welcome mail whose answer was lost is never sent again (issue 34, defect 2), end to end:
 * the built CLI against the reference server on loopback, the examples as the config (jdoe
 * declares `sendWelcome: true`). send_welcome is not idempotent: after an unclear answer —
 * the server sent the mail and dropped the connection, or the apply was killed between "about
 * to be sent" and "done" — the journal records the mail as unknown, the run says so with what
 * a person should do, later applies and plans neither send it again nor drop it silently, and
 * `apply --welcome-sent jdoe` settles it. Each checks the server's outbox and request log.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readJournal } from "../../src/engine/journal.js";
import { phctl, type Run } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { copyExamples } from "../helpers/examples.js";

const APPLY = ["apply", "examples", "--auto-approve"];

function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), "phctl-welcome-"));
  copyExamples(join(dir, "examples"));
  return dir;
}

const envFor = (t: TestServer) => ({ PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret });
const journalOf = (dir: string) => readJournal(join(dir, "examples/.phctl/journal.jsonl"))!;
/** Welcome mails to jdoe in the outbox. */
const mails = (t: TestServer) =>
  t.server.ctx.db
    .all<{ recipients: string }>("SELECT recipients FROM outbox WHERE kind = 'welcome'")
    .filter((m) => m.recipients.includes("jane.doe@example.org")).length;
/** send_welcome requests the server received (answered or not). */
const sends = (t: TestServer) =>
  t.server.requestLog.filter((e) => e.operation === "users.sendWelcome").length;
/** Lines of a run saying jdoe's welcome may or may not have been sent. */
const unknownLines = (r: Run) =>
  `${r.stdout}\n${r.stderr}`
    .split("\n")
    .filter((l) => /welcome mail of (user )?jdoe may or may not have been sent/.test(l));
const said = (r: Run) => `exit ${r.code}\n${r.stdout}\n${r.stderr}`.slice(-3000);

describe("a welcome mail whose answer was lost", () => {
  it("the server sent it and dropped the connection: one mail, said unknown, never sent again; --welcome-sent settles it", async () => {
    const t = await startServer();
    try {
      const dir = workdir();
      t.server.faults.add({ kind: "dropAfter", method: "POST", operation: "users.sendWelcome" });
      const first = await phctl(APPLY, envFor(t), dir);
      // The mail went out once; phctl did not send it again after the lost answer.
      expect(mails(t), said(first)).toBe(1);
      expect(sends(t)).toBe(1);
      // The run says so, with what a person should do, and exits 1 (a person must look).
      expect(first.code, said(first)).toBe(1);
      expect(first.stdout).toMatch(
        /^failed +create user\/jdoe\/welcome: the welcome mail of jdoe may or may not have been sent: the answer to POST \/v1\/users\/jdoe\/send_welcome was lost \(/m,
      );
      expect(first.stdout).toContain(
        "if not, send it with: phctl api POST /v1/users/jdoe/send_welcome — then tell phctl with: phctl apply --welcome-sent jdoe",
      );
      expect(first.stdout + first.stderr).not.toMatch(/twice|sent again/);
      // The journal: unknown, neither owed nor done.
      const j = journalOf(dir);
      expect(j.unknown.map((e) => e.key)).toEqual(["user/jdoe/welcome"]);
      expect(j.owed).toEqual([]);
      expect(j.done).not.toContain("create user/jdoe/welcome");

      // The next apply sends nothing, exits 0, and names it once.
      const again = await phctl(APPLY, envFor(t), dir);
      expect(again.code, said(again)).toBe(0);
      expect(again.stdout).toMatch(/^No changes\./);
      expect(unknownLines(again), said(again)).toHaveLength(1);
      expect(unknownLines(again)[0]).toContain("phctl apply --welcome-sent jdoe");
      expect(sends(t)).toBe(1);
      expect(mails(t)).toBe(1);
      // So do a plan and drift (no change: nothing is to be sent) and a resumed apply.
      const plan = await phctl(["plan", "examples", "--detailed-exitcode"], envFor(t), dir);
      expect(plan.code, said(plan)).toBe(0);
      expect(unknownLines(plan)).toHaveLength(1);
      const drift = await phctl(["drift", "examples"], envFor(t), dir);
      expect(drift.code, said(drift)).toBe(0);
      expect(unknownLines(drift)).toHaveLength(1);
      const resumed = await phctl([...APPLY, "--resume"], envFor(t), dir);
      expect(resumed.code, said(resumed)).toBe(0);
      expect(unknownLines(resumed)).toHaveLength(1);
      expect(sends(t)).toBe(1);

      // A name the journal does not hold in doubt is refused, nothing recorded.
      const typo = await phctl([...APPLY, "--welcome-sent", "jdo"], envFor(t), dir);
      expect(typo.code).toBe(1);
      expect(typo.stderr).toMatch(
        /^phctl: --welcome-sent jdo: the journal .* holds no welcome mail of this user that is owed or may not have been sent \(in doubt: jdoe\); nothing was recorded/m,
      );
      expect(journalOf(dir).unknown).toHaveLength(1);
      // A person checked (the mail arrived): settled, and no plan names it any more.
      const settled = await phctl([...APPLY, "--welcome-sent", "jdoe"], envFor(t), dir);
      expect(settled.code, said(settled)).toBe(0);
      expect(settled.stderr).toContain(
        "phctl: recorded the welcome mail of jdoe as sent (--welcome-sent)",
      );
      expect(unknownLines(settled)).toEqual([]);
      expect(journalOf(dir).unknown).toEqual([]);
      const after = await phctl(["plan", "examples", "--detailed-exitcode"], envFor(t), dir);
      expect(after.code).toBe(0);
      expect(after.stdout + after.stderr).not.toMatch(/welcome/);
      expect(sends(t)).toBe(1);
      expect(mails(t)).toBe(1);
    } finally {
      await t.close();
    }
  }, 60_000);

  it("the apply was killed between 'about to be sent' and 'done': the resumed apply does not send it again and says so", async () => {
    const t = await startServer();
    try {
      const dir = workdir();
      const done = await phctl(APPLY, envFor(t), dir);
      expect(done.code, said(done)).toBe(0);
      expect(mails(t)).toBe(1);
      // The journal a SIGKILL right after the send leaves: the mail's "about to be sent"
      // line is there, its "done" line and the run's end are not.
      const file = join(dir, "examples/.phctl/journal.jsonl");
      const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);
      const kept = lines.filter((l) => {
        const line = JSON.parse(l) as { done?: string; finished?: boolean };
        return line.done !== "create user/jdoe/welcome" && line.finished !== true;
      });
      expect(kept).toHaveLength(lines.length - 2);
      expect(kept.some((l) => l.includes('"sending":"create user/jdoe/welcome"'))).toBe(true);
      writeFileSync(file, `${kept.join("\n")}\n`);
      expect(journalOf(dir)).toMatchObject({
        status: "running",
        inDoubt: ["create user/jdoe/welcome"],
        owed: [],
      });

      const resumed = await phctl([...APPLY, "--resume"], envFor(t), dir);
      expect(resumed.code, said(resumed)).toBe(0);
      expect(resumed.stderr).toContain("phctl: resuming the apply interrupted at");
      expect(sends(t)).toBe(1);
      expect(mails(t)).toBe(1);
      expect(unknownLines(resumed), said(resumed)).toHaveLength(1);
      // Still unknown in the new journal: the next plan names it too.
      expect(journalOf(dir).unknown.map((e) => e.key)).toEqual(["user/jdoe/welcome"]);
      const plan = await phctl(["plan", "examples"], envFor(t), dir);
      expect(unknownLines(plan)).toHaveLength(1);
    } finally {
      await t.close();
    }
  }, 60_000);
});
