/**
 * The live line (redrawn in place, fitted, erased before anything else reaches the
 * terminal) and the reads' progress: the line on a terminal, JSON events otherwise.
 */
import { describe, expect, it } from "vitest";
import { ERASE_LINE, LiveLine, type Terminal } from "../../src/render/live-line.js";
import { ReadProgress } from "../../src/render/read-progress.js";

/** A terminal that records what reaches it, with one other stream writing to it too. */
function fakeTerminal(columns: number) {
  const screen: string[] = [];
  const stdout = {
    write(this: void, s: string): boolean {
      screen.push(s);
      return true;
    },
  };
  const original = stdout.write;
  const term: Terminal = {
    write: (s) => screen.push(s),
    columns: () => columns,
    streams: [stdout],
  };
  return { screen, stdout, original, term };
}

describe("the live line", () => {
  it("draws fitted to one column less than the terminal, only when the text changed", () => {
    const { screen, term } = fakeTerminal(20);
    let text = "x".repeat(50);
    const line = new LiveLine(term, (w) => text.slice(0, w));
    line.draw();
    line.draw();
    expect(screen).toEqual([`${ERASE_LINE}${"x".repeat(19)}`]);
    text = "done";
    line.draw();
    expect(screen.at(-1)).toBe(`${ERASE_LINE}done`);
    line.stop();
    expect(screen.at(-1)).toBe(ERASE_LINE);
  });

  it("erases itself before another stream writes, and waits for a newline to come back", () => {
    const { screen, stdout, original, term } = fakeTerminal(40);
    const line = new LiveLine(term, () => "apply: 1/2 done");
    line.start();
    line.draw();
    stdout.write("done     create a (5 ms)\n");
    expect(screen.slice(-2)).toEqual([ERASE_LINE, "done     create a (5 ms)\n"]);
    line.draw();
    expect(screen.at(-1)).toBe(`${ERASE_LINE}apply: 1/2 done`);
    stdout.write("Apply these changes? ");
    line.draw(); // the cursor is mid-line: drawing would erase the question
    expect(screen.at(-1)).toBe("Apply these changes? ");
    stdout.write("yes\n");
    line.draw();
    expect(screen.at(-1)).toBe(`${ERASE_LINE}apply: 1/2 done`);
    line.stop();
    expect(stdout.write).toBe(original);
  });
});

describe("progress of the reads", () => {
  it("writes read-started, read-progress and read-done as JSON lines", async () => {
    const lines: string[] = [];
    let objects = 0;
    let now = 0;
    const p = new ReadProgress({
      command: "plan",
      what: "live state",
      counts: () => ({ objects, calls: 3, running: 1, queued: 0 }),
      json: (l) => lines.push(l),
      now: () => now,
      jsonIntervalMs: 20,
    });
    await p.around(async () => {
      objects = 120;
      now = 1500;
      await new Promise((r) => setTimeout(r, 60));
    });
    const events = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.every((l) => l.endsWith("\n") && !l.slice(0, -1).includes("\n"))).toBe(true);
    expect(events[0]).toMatchObject({ event: "read-started", command: "plan" });
    expect(events.at(-1)).toMatchObject({
      event: "read-done",
      command: "plan",
      ok: true,
      objects: 120,
      calls: 3,
      elapsedMs: 1500,
    });
    expect(events.slice(1, -1).every((e) => e.event === "read-progress")).toBe(true);
    expect(events.length).toBeGreaterThan(2);
    expect(typeof events[0].time).toBe("string");
  });

  it("says the reads failed; on a terminal shows a live line (from its first tick) instead", async () => {
    const lines: string[] = [];
    const failing = new ReadProgress({
      command: "drift",
      what: "live state",
      counts: () => ({ objects: 0, calls: 1 }),
      json: (l) => lines.push(l),
    });
    await expect(failing.around(() => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ event: "read-done", ok: false });

    const { screen, term } = fakeTerminal(80);
    const shown = new ReadProgress({
      command: "export",
      what: "organization acme",
      counts: () => ({ objects: 1830, calls: 57, running: 8 }),
      terminal: term,
      now: () => 1300,
    });
    await shown.around(() => new Promise((r) => setTimeout(r, 150)));
    expect(screen[0]).toBe(
      `${ERASE_LINE}export: reading organization acme · 1,830 objects · 57 calls · 8 running · 0 ms`,
    );
    expect(screen.at(-1)).toBe(ERASE_LINE);
  });
});
