/**
 * `phctl apply` on a real pseudo-terminal 60 columns wide (util-linux `script`), against the
 * reference server: the raw bytes it wrote are replayed through a small terminal model
 * (test/render/terminal-model.ts) and the final screen is checked as a person would see it —
 * no stacked or broken progress lines, nothing wrapped by the terminal, every finished
 * action listed once, the summary at the end.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAIN } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { stripAnsi } from "../../src/render/width.js";
import { replay } from "../render/terminal-model.js";
import { copyExamples } from "../helpers/examples.js";

const COLUMNS = 60;
const ERASE = "\u001b\\[2K";

/** Run the CLI on a pseudo-terminal of `columns` × 40, typing `input`; every byte it wrote. */
function onTerminal(
  args: string[],
  env: Record<string, string>,
  cwd: string,
  columns: number,
  input = "",
) {
  const cmd = [process.execPath, MAIN, ...args].map((a) => `'${a}'`).join(" ");
  return new Promise<{ code: number; raw: string }>((done) => {
    const child = execFile(
      "script",
      ["-qefc", `stty cols ${columns} rows 40; exec ${cmd}`, "/dev/null"],
      {
        cwd,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: "xterm-256color", ...env },
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout) =>
        done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, raw: String(stdout) }),
    );
    child.stdin?.end(input);
  });
}

/** The texts the live line drew: after an erase-line, up to the next one (not a newline). */
const drawn = (raw: string) =>
  [...raw.matchAll(new RegExp(`\r${ERASE}([^\r\n]*)(\r\n|\r|$)`, "g"))]
    .filter((m) => m[1] !== "" && m[2] !== "\r\n")
    .map((m) => stripAnsi(m[1]));

describe("apply in a 60-column terminal", () => {
  let t: TestServer;
  let dir: string;
  const env = () => ({ PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret });
  beforeAll(async () => {
    // Queued jobs take a while: the live line is redrawn many times while they run.
    t = await startServer({ latencyMs: 10, queueDelayMs: 250 });
    dir = mkdtempSync(join(tmpdir(), "phctl-pty-"));
    copyExamples(join(dir, "examples"));
  });
  afterAll(() => t.close());

  it("redraws the live line in place: no stacked progress lines, no fragments, no terminal wraps", async () => {
    execFileSync("script", ["--version"], { stdio: "ignore" }); // util-linux script is needed
    const r = await onTerminal(["apply", "examples", "--auto-approve"], env(), dir, COLUMNS);
    expect(r.code, r.raw).toBe(0);

    // The live line was drawn, many times, and always fitted (one column to spare).
    const lines = drawn(r.raw);
    expect(lines.filter((l) => /^apply: \d+\/\d+ done/.test(l)).length).toBeGreaterThan(3);
    for (const l of lines) expect(l.length, l).toBeLessThan(COLUMNS);

    const screen = replay(r.raw, COLUMNS);
    const text = screen.rows.join("\n");
    expect(screen.wraps, text).toBe(0);
    // Nothing of the live line is left: no progress line, no piece of one.
    expect(text).not.toMatch(/apply: \d|reading live state|·|waiting on jobs|running/);
    const summary = screen.rows.filter((l) => l.startsWith("Apply complete: "));
    expect(summary).toHaveLength(1);
    const done = Number(/Apply complete: (\d+) done/.exec(summary[0])![1]);
    expect(done).toBeGreaterThan(50);
    const finished = screen.rows.filter((l) => l.startsWith("done     "));
    expect(finished).toHaveLength(done);
    expect(new Set(finished).size).toBe(done);
    expect(screen.rows.filter((l) => l !== "").at(-1)).toBe(summary[0]);
  });

  it("repeats the deletes in red just above the confirmation prompt", async () => {
    // Someone gave asmith developer access to ci-tools by hand: access lists are authoritative.
    const added = await t.call("POST", "/v1/projects/ci-tools/developers/users/asmith");
    await t.waitJob(`/v1/users/service/entitlement/queue/${added.body.queueid}/status`);
    const r = await onTerminal(["apply", "examples"], env(), dir, COLUMNS, "no\n");
    expect(r.code).toBe(1);
    const rows = replay(r.raw, COLUMNS).rows;
    const prompt = rows.findIndex((l) => l.startsWith("Apply these changes?"));
    expect(rows.slice(prompt - 4, prompt + 1)).toEqual([
      "This plan will DELETE 1 object:",
      "  - project/ci-tools/access/developers/user/asmith",
      "    (ProjectAccess)",
      "",
      "Apply these changes? Only 'yes' is accepted: no",
    ]);
    // In red, DELETE in bold, like the entry in the plan above.
    expect(r.raw).toContain(
      "\u001b[31mThis plan will \u001b[1mDELETE\u001b[22m 1 object:\u001b[39m",
    );
    expect(r.raw).toContain("\u001b[31m- \u001b[1mproject/ci-tools/access/developers/user/asmith");
    expect(rows).toContain("Apply cancelled: nothing was changed.");
  });
});
