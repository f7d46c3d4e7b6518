/**
 * Outage benchmark smoke run (bench/outage.ts, one trial per case; `npm test` builds the
 * CLI first): against a service that accepts and never answers, one that stalls the body
 * after its headers and a git host that never answers, each command gives up (exit 1)
 * within --outage-timeout 2s plus a few seconds; a service that swallows requests for 2 s
 * is waited out under --outage-timeout 6s (exit 0). The table names the longest time past
 * the timeout.
 */
import { describe, expect, it } from "vitest";
import { outageTable, runOutage } from "../../bench/outage-run.js";

/** Seconds past --outage-timeout a command may take (start-up, a loaded machine). */
const SLACK_S = 5;

describe("outage benchmark, smoke", () => {
  it("the hanging cases end within --outage-timeout + a few seconds; a short swallow is waited out", async () => {
    const hanging = { trials: 1, timeoutS: 2, outageS: 0 };
    const cases = ["silent-plan", "stalling-apply", "git-report"] as const;
    const results = await runOutage({ ...hanging, cases });
    for (const r of results) {
      const t = r.trials[0];
      expect(t.code, `${r.name}: ${t.said}`).toBe(1);
      expect(t.said, r.name).toMatch(/has not answered for 2(\.\d)? s .*gave up waiting/);
      expect(r.worstPastS, r.name).toBeLessThan(SLACK_S);
    }
    const table = outageTable({ ...hanging, cases }, results).join("\n");
    expect(table).toMatch(/Longest time past --outage-timeout over every hanging case: \*\*\d+\.\d s\*\*/); // prettier-ignore
    expect(table).toContain("| git-report | 1/1 exit 1 |");

    const [swallow] = await runOutage({
      trials: 1,
      timeoutS: 6,
      outageS: 2,
      cases: ["swallow-apply"],
    });
    expect(swallow.trials[0].code, swallow.trials[0].said).toBe(0);
    expect(swallow.worstPastS).toBeLessThan(SLACK_S);
  }, 180_000);
});
