/**
 * The sleeps between job polls (poll-clock.ts): they end on a shared 10 ms grid, so sleeps
 * due in the same slot end together (one timer); never before they are due; an aborted
 * sleep rejects with its signal's reason and leaves no timer behind; short sleeps are plain.
 */
import { describe, expect, it } from "vitest";
import { pollSleep, pollSleepers, POLL_GRID_MS } from "../../src/api/poll-clock.js";

describe("pollSleep", () => {
  it("ends no earlier than asked, on the grid, together with the sleeps of its slot", async () => {
    const t0 = performance.now();
    const ended: number[] = [];
    await Promise.all(
      [120, 121, 123, 126].map((ms) =>
        pollSleep(ms).then(() => ended.push(performance.now() - t0)),
      ),
    );
    for (const [i, ms] of [120, 121, 123, 126].entries())
      expect(ended[i]).toBeGreaterThanOrEqual(ms - 1);
    // At most two slots for four sleeps due within 6 ms: they end within one slot's width.
    expect(Math.max(...ended) - Math.min(...ended)).toBeLessThan(POLL_GRID_MS + 5);
    expect(pollSleepers()).toBe(0);
  });

  it("rejects with the signal's reason when aborted, and leaves no sleeper behind", async () => {
    const ac = new AbortController();
    const p = pollSleep(5_000, ac.signal);
    expect(pollSleepers()).toBe(1);
    ac.abort(new Error("stop"));
    await expect(p).rejects.toThrow("stop");
    expect(pollSleepers()).toBe(0);
    // Already aborted: rejects at once.
    await expect(pollSleep(5_000, ac.signal)).rejects.toThrow("stop");
  });

  it("keeps short sleeps (tests' fast polling) plain timers", async () => {
    const t0 = performance.now();
    await pollSleep(5);
    expect(performance.now() - t0).toBeLessThan(100);
    expect(pollSleepers()).toBe(0);
  });
});
