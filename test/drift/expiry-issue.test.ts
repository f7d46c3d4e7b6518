/**
 * The expiry issue (src/drift/expiry-issue.ts, expiry-report.ts) without a platform: its
 * title and body (the lists, what to do about each, within the size limit), the state it
 * keeps, what a comment says changed, and its cycle on issues in memory — opened, left alone
 * when the list is the same, commented when it changed, closed, reopened, and scrubbed.
 */
import { describe, expect, it } from "vitest";
import type { ExpiringGrantEntry } from "../../src/engine/plan.js";
import * as t from "../../src/drift/expiry-issue.js";
import { keepExpiryIssue, type ExpiryInput } from "../../src/drift/expiry-report.js";
import { memoryIssues } from "./memory-issues.js";

const grant = (who: string, status: "expired" | "expiring", expires: string, due?: boolean, line = 15): ExpiringGrantEntry => ({
  key: `project/ci-tools/access/developers/user/${who}`,
  kind: "ProjectAccess",
  what: `${who} on the developers of project ci-tools`,
  expires,
  status,
  daysLeft: status === "expired" ? -1 : 5,
  source: { file: "projects/ci-tools.yaml", line, column: 30 },
  ...(due === undefined ? {} : { due }),
}); // prettier-ignore
const due = grant("lchen", "expired", "2026-06-10", true, 15);
const gone = grant("bwong", "expired", "2026-05-01", false, 16);
const soon = grant("asmith", "expiring", "2026-06-20", undefined, 17);
const RUN = { label: "run 45", url: "https://github.example/acme/config/actions/runs/45" };
const body = (grants: ExpiringGrantEntry[], maxChars = 65_536, key = "default") =>
  t.expiryBody({ key, grants, warnDays: 14, time: "2026-06-11T06:17:00.000Z", organization: "acme", run: RUN, maxChars }); // prettier-ignore

describe("the title and the body", () => {
  it("titles count what expired and what ends soon, in the scope's words", () => {
    const c = t.expiryCounts([due, gone, soon]);
    expect(t.expiryTitle("default", c, 14, "acme")).toBe("Access expiring: 2 expired, 1 ends within 14 days in organization acme"); // prettier-ignore
    expect(t.expiryTitle("infra/prod", t.expiryCounts([soon, soon]), 1, "acme")).toBe("Access expiring: 2 end within 1 day in infra/prod"); // prettier-ignore
    expect(t.expiryTitle("default", t.expiryCounts([due]), 14)).toBe("Access expiring: 1 expired in the manifests"); // prettier-ignore
    expect(t.noExpiryTitle("default", 30, "acme")).toBe("Access expiring: none within 30 days in organization acme"); // prettier-ignore
  });

  it("the body: marker, state, the run, the three lists with their lines, and what to do about each", () => {
    const b = body([due, gone, soon]);
    const [marker, state, intro] = b.split("\n");
    expect(marker).toBe("<!-- phctl:expiry key=default -->");
    expect(state).toMatch(/^<!-- phctl:expiry-state digest=[0-9a-f]{64} grants=[0-9a-f]{8}d20260610,[0-9a-f]{8}g20260501,[0-9a-f]{8}s20260620 -->$/); // prettier-ignore
    expect(intro).toBe("**Access expiring** in organization acme at 2026-06-11 06:17 UTC by [run 45](https://github.example/acme/config/actions/runs/45): 2 expired, 1 ends within 14 days. phctl updates this issue on every drift run and closes it once no grant has expired or ends within 14 days."); // prettier-ignore
    expect(b).toContain("**Expired, due for removal** (1):\n- lchen on the developers of project ci-tools: expired on 2026-06-10 (`projects/ci-tools.yaml:15`)"); // prettier-ignore
    expect(b).toContain("**Expired and removed: delete the manifest entry** (1):\n- bwong on the developers of project ci-tools: expired on 2026-05-01 (`projects/ci-tools.yaml:16`)"); // prettier-ignore
    expect(b).toContain("**Expires soon** (1):\n- asmith on the developers of project ci-tools: expires on 2026-06-20 (`projects/ci-tools.yaml:17`)"); // prettier-ignore
    expect(b).toContain("- **Expired, due for removal**: the next apply removes it");
    expect(b).toContain("- **Expired and removed**: delete the manifest entry in a pull request, or run `phctl report access --propose`"); // prettier-ignore
    expect(b).toContain("- **Expires soon**: to keep it, renew it by changing the date in a pull request; or let it end"); // prettier-ignore
    // Only the advice of the lists shown.
    expect(body([soon])).not.toContain("**Expired");
    expect(t.expiryMetaOf(b)).toEqual(t.expiryMeta([due, gone, soon], 1000));
  });

  it("a list over the platform's limit is cut between whole lines and says where the rest is", () => {
    const many = Array.from({ length: 400 }, (_, i) => grant(`user${i}`, "expiring", "2026-06-20", undefined, i + 1)); // prettier-ignore
    const b = body(many, 3_000, "infra/prod");
    expect(b.length).toBeLessThanOrEqual(3_000);
    expect(b).toMatch(/\(`projects\/ci-tools\.yaml:\d+`\)\n\n_Cut to fit the issue: `phctl drift --format json` lists them all \(the plan's `expiring`\)\._\n\n### What to do\n/); // prettier-ignore
    // Too many for per-grant tokens within a quarter of the limit: the digest alone.
    expect(t.expiryMetaOf(b)).toEqual({ digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});

describe("what changed", () => {
  it("names what now expired, what was removed live, what is new and counts what went", () => {
    const was = t.expiryMeta([soon, due, grant("ghost", "expiring", "2026-06-12")], 10_000);
    const nowExpired = { ...soon, status: "expired" as const, due: true };
    const lines = t.listChanges(was, [nowExpired, { ...due, due: false }, gone], 14);
    expect(lines).toEqual([
      "- now expired, due for removal: asmith on the developers of project ci-tools (expired on 2026-06-20, `projects/ci-tools.yaml:17`)", // prettier-ignore
      "- removed live: delete the manifest entry: lchen on the developers of project ci-tools (expired on 2026-06-10, `projects/ci-tools.yaml:15`)", // prettier-ignore
      "- new in the list: bwong on the developers of project ci-tools (expired on 2026-05-01, `projects/ci-tools.yaml:16`)", // prettier-ignore
      "- 1 grant no longer listed (renewed beyond 14 days, or the entry deleted)",
    ]);
    expect(t.listChanges(was, [soon, due, grant("ghost", "expiring", "2026-06-13")], 14)).toEqual([
      "- another date: ghost on the developers of project ci-tools (expires on 2026-06-13, `projects/ci-tools.yaml:15`)", // prettier-ignore
    ]);
  });

  it("without the tokens of the last list, the comment says only what is listed now", () => {
    const c = t.expiryChangedComment({ time: "2026-06-11T06:17:00Z", run: RUN, was: { digest: "0".repeat(64) }, grants: [due], warnDays: 14 }); // prettier-ignore
    expect(c).toBe("**Expiring access changed** at 2026-06-11 06:17 UTC ([run 45](https://github.example/acme/config/actions/runs/45)): now 1 expired. The description shows the current list."); // prettier-ignore
  });
});

describe("the issue's cycle", () => {
  const input = (grants: ExpiringGrantEntry[], extra: Partial<ExpiryInput> = {}): ExpiryInput => ({
    key: "default",
    plan: { expiring: grants, createdAt: "2026-06-11T06:17:00.000Z", organization: "acme" },
    warnDays: 14,
    run: RUN,
    maxChars: 65_536,
    ...extra,
  });

  it("opens, stays quiet while the list is the same, comments when it changes, closes, reopens", async () => {
    const m = memoryIssues();
    expect(await keepExpiryIssue(m.api, input([soon]))).toMatchObject({ action: "opened", counts: { expired: 0, soon: 1 } }); // prettier-ignore
    expect(m.issues).toMatchObject([{ labels: ["phctl-expiry"], title: "Access expiring: 1 ends within 14 days in organization acme" }]); // prettier-ignore
    expect(await keepExpiryIssue(m.api, input([soon]))).toMatchObject({ action: "updated", commented: false }); // prettier-ignore
    const later = input([{ ...soon, status: "expired", due: true }]);
    expect(await keepExpiryIssue(m.api, later)).toMatchObject({ action: "updated", changed: true, commented: true }); // prettier-ignore
    expect(m.comments[0].body).toContain("- now expired, due for removal: asmith");
    expect(await keepExpiryIssue(m.api, input([]))).toMatchObject({ action: "closed" });
    expect(m.issues[0]).toMatchObject({ state: "closed", title: "Access expiring: none within 14 days in organization acme" }); // prettier-ignore
    expect(m.comments[1].body).toBe("**Nothing expiring** at 2026-06-11 06:17 UTC ([run 45](https://github.example/acme/config/actions/runs/45)): no grant has expired or ends within 14 days. Closing."); // prettier-ignore
    const calls = m.calls.length;
    expect((await keepExpiryIssue(m.api, input([]))).action).toBe("none");
    expect(m.calls.slice(calls)).toEqual(["list"]);
    expect(await keepExpiryIssue(m.api, input([due]))).toMatchObject({ action: "reopened" });
    expect(m.issues).toHaveLength(1);
    expect(m.comments[2].body).toMatch(/^\*\*Access expiring again\*\* at .*: 1 expired\. Reopened; the description lists them\.$/); // prettier-ignore
  });

  it("the drift issue's marker is not the expiry issue's: each kept apart", async () => {
    const m = memoryIssues();
    m.add({ title: "Drift", body: "<!-- phctl:drift key=default -->\nx", state: "open", labels: ["phctl-expiry"] }); // prettier-ignore
    expect((await keepExpiryIssue(m.api, input([soon]))).action).toBe("opened");
    expect(m.issues).toHaveLength(2);
  });

  it("everything sent goes through scrub", async () => {
    const m = memoryIssues();
    const scrub = (s: string) => s.replaceAll("asmith", "***");
    await keepExpiryIssue(m.api, input([soon], { scrub }));
    await keepExpiryIssue(m.api, input([{ ...soon, status: "expired", due: true }], { scrub }));
    expect(JSON.stringify([m.issues, m.comments])).not.toContain("asmith");
    expect(m.comments).toHaveLength(1);
  });
});
