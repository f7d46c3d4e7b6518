/**
 * Fitting and wrapping for the terminal: the live lines of apply and of the reads never take
 * more than the width at any width from 40 to 200 (property tests), wrapping never splits a
 * word, and keys are shortened by whole segments.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { liveLine } from "../../src/render/progress.js";
import { readLine } from "../../src/render/read-progress.js";
import { COLOR, PLAIN } from "../../src/render/style.js";
import {
  fitParts,
  shortenKey,
  terminalWidth,
  truncateMiddle,
  visibleWidth,
} from "../../src/render/width.js";
import { seg, wrap } from "../../src/render/wrap.js";

const count = fc.integer({ min: 0, max: 5_000_000 });
const width = fc.integer({ min: 40, max: 200 });
const style = fc.constantFrom(PLAIN, COLOR);

describe("one line that fits", () => {
  it("apply's live line is never wider than the width (40..200 columns)", () => {
    fc.assert(
      fc.property(
        fc.record({
          total: count,
          done: count,
          failed: count,
          skipped: count,
          active: count,
          waitingOnJobs: count,
          flow: fc.option(fc.record({ running: count, queued: count }), { nil: undefined }),
          elapsedMs: fc.integer({ min: 0, max: 10 * 3600_000 }),
        }),
        width,
        style,
        (p, w, s) => {
          const line = liveLine(p, s, w);
          expect(visibleWidth(line)).toBeLessThanOrEqual(w);
          expect(line.startsWith(s === PLAIN ? "apply: " : "\u001b[1mapply:")).toBe(true);
          expect(line).not.toContain("\n");
        },
      ),
    );
  });

  it("the reads' live line is never wider than the width (40..200 columns)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("plan", "drift", "export", "apply"),
        fc.string({ maxLength: 120 }).map((s) => `organization ${s.replace(/\s/g, "-")}`),
        fc.record({
          objects: count,
          calls: count,
          running: fc.option(count, { nil: undefined }),
          queued: fc.option(count, { nil: undefined }),
        }),
        fc.integer({ min: 0, max: 10 * 3600_000 }),
        width,
        style,
        (command, what, c, ms, w, s) => {
          const line = readLine(command, what, c, ms, w, s);
          expect(visibleWidth(line)).toBeLessThanOrEqual(w);
          expect(line).toContain(command);
        },
      ),
    );
  });

  it("drops the least useful parts first and keeps the first", () => {
    const parts = [
      { text: "apply: 10/40 done", keep: Infinity },
      { text: "3 running", keep: 60 },
      { text: "2 skipped", keep: 30 },
      { text: "1.2 s", keep: 90 },
    ];
    expect(fitParts(parts, 200)).toBe("apply: 10/40 done · 3 running · 2 skipped · 1.2 s");
    expect(fitParts(parts, 40)).toBe("apply: 10/40 done · 3 running · 1.2 s");
    expect(fitParts(parts, 25)).toBe("apply: 10/40 done · 1.2 s");
    expect(fitParts(parts, 10)).toBe("apply: 10…");
  });

  it("shortens keys by whole segments, the project kept when it fits", () => {
    const key = "project/trusted-firmware-a/access/maintainers/user/jdoe";
    expect(shortenKey(key, 80)).toBe(key);
    expect(shortenKey(key, 45)).toBe("project/…/access/maintainers/user/jdoe");
    expect(shortenKey(key, 35)).toBe("project/…/maintainers/user/jdoe");
    expect(shortenKey("project/tf-a/access/maintainers/user/jdoe", 30)).toBe(
      "project/tf-a/…/user/jdoe",
    );
    expect(shortenKey("a-very-long-name-without-slashes", 12)).toBe("a-very…ashes");
    expect(truncateMiddle("abcdefghij", 5)).toBe("ab…ij");
  });

  it("lays out for the terminal's width, else COLUMNS, else not at all", () => {
    expect(terminalWidth({ isTTY: true, columns: 60 }, { COLUMNS: "100" })).toBe(60);
    expect(terminalWidth({ isTTY: false }, { COLUMNS: "100" })).toBe(100);
    expect(terminalWidth({ isTTY: false }, {})).toBeUndefined();
    expect(terminalWidth({ isTTY: true, columns: 5 }, {})).toBe(20);
  });
});

describe("wrapping", () => {
  const word = fc.stringMatching(/^[a-z0-9"→:.-]{1,12}$/);

  it("never splits a word and never exceeds the width when every word fits", () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 40 }), width, (words, w) => {
        const lines = wrap([seg(words.join(" "))], { width: w, lead: "  ", hang: 4 });
        for (const l of lines) expect(l.length).toBeLessThanOrEqual(w);
        expect(lines.join(" ").split(/\s+/).filter(Boolean)).toEqual(words);
      }),
    );
  });

  it("breaks a word wider than a line after its slashes only, and paints each line whole", () => {
    const lines = wrap(
      [seg("-", COLOR.red), seg(" project/trusted-firmware-a/repo/a-very-long-repository-name")],
      { width: 30, lead: "  ", hang: 2 },
    );
    expect(lines).toEqual([
      "  \u001b[31m-\u001b[39m project/",
      "    trusted-firmware-a/repo/",
      "    a-very-long-repository-name",
    ]);
  });
});
