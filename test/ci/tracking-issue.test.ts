/**
 * The part every tracking issue shares (src/ci/tracking-issue.ts: the drift issue, the expiry
 * issue, the monthly access review), on issues in memory: open / update / close / reopen one
 * issue; other issues left alone; two open ones left by a race; two runs creating at once; a
 * create that got no answer, landed or lost; a dropped label.
 */
import { describe, expect, it } from "vitest";
import { createOnce, keepTrackingIssue, type TrackedKind, type TrackingInput } from "../../src/ci/tracking-issue.js"; // prettier-ignore
import { memoryIssues } from "../drift/memory-issues.js";

const MARKER = "<!-- phctl:thing key=k -->";
const kind: TrackedKind = {
  label: "phctl-thing",
  markers: [MARKER, "<!-- phctl:thing key=old -->"],
  duplicateBody: (n) => `Closed as a duplicate of #${n}.`,
};
const holds = (body: string, changed?: string): TrackingInput => ({
  kind,
  holds: {
    title: `Thing: ${body}`,
    body: (current) => `${MARKER}\n${body}${current ? ` (was #${current.number})` : ""}`,
    changed: () => changed,
    reopened: () => "again",
  },
  resolved: () => ({ comment: "over", title: "Thing: none" }),
});
const resolved: TrackingInput = { kind, resolved: () => ({ comment: "over" }) };

describe("one tracking issue", () => {
  it("opens, updates (a comment only when told), closes, sends nothing more, and reopens the same one", async () => {
    const m = memoryIssues();
    expect(await keepTrackingIssue(m.api, holds("a"))).toMatchObject({ action: "opened", changed: true, commented: false }); // prettier-ignore
    expect(m.issues).toMatchObject([{ number: 101, title: "Thing: a", body: `${MARKER}\na`, labels: ["phctl-thing"] }]); // prettier-ignore
    expect(await keepTrackingIssue(m.api, holds("b"))).toMatchObject({ action: "updated", changed: false, commented: false }); // prettier-ignore
    expect(m.issues[0].body).toBe(`${MARKER}\nb (was #101)`);
    expect(m.comments).toEqual([]);
    expect(await keepTrackingIssue(m.api, holds("c", "it changed"))).toMatchObject({ action: "updated", changed: true, commented: true }); // prettier-ignore
    expect(m.calls.slice(-2)).toEqual(["edit 101", "comment 101"]);
    const closed = await keepTrackingIssue(m.api, { kind, resolved: holds("c").resolved });
    expect(closed).toMatchObject({ action: "closed", changed: true, commented: true });
    expect(m.calls.slice(-2)).toEqual(["comment 101", "edit 101 closed"]);
    expect(m.issues[0]).toMatchObject({ state: "closed", title: "Thing: none" });
    const calls = m.calls.length;
    expect((await keepTrackingIssue(m.api, resolved)).action).toBe("none");
    expect(m.calls.slice(calls)).toEqual(["list"]);
    expect(await keepTrackingIssue(m.api, holds("d"))).toMatchObject({ action: "reopened", commented: true }); // prettier-ignore
    expect(m.issues).toHaveLength(1);
    expect(m.issues[0]).toMatchObject({ state: "open", body: `${MARKER}\nd` });
    expect(m.comments.map((c) => c.body)).toEqual(["it changed", "over", "again"]);
  });

  it("an issue under a former marker is taken over; other markers, quotes and unlabelled issues are left alone", async () => {
    const m = memoryIssues();
    const other = m.add({ title: "o", body: "<!-- phctl:thing key=k2 -->\nx", state: "open", labels: ["phctl-thing"] }); // prettier-ignore
    const quoted = m.add({ title: "q", body: `> ${MARKER}\nquoted`, state: "open", labels: ["phctl-thing"] }); // prettier-ignore
    const bare = m.add({ title: "u", body: `${MARKER}\nno label`, state: "open", labels: [] });
    const former = m.add({ title: "f", body: "<!-- phctl:thing key=old -->\nx", state: "open", labels: ["phctl-thing"] }); // prettier-ignore
    const r = await keepTrackingIssue(m.api, holds("a"));
    expect(r).toMatchObject({ action: "updated", issue: { number: former.number } });
    for (const i of [other, quoted, bare]) expect(m.issues.find((x) => x.number === i.number)).toEqual(i); // prettier-ignore
  });
});

describe("never a second one", () => {
  it("two open issues left by an earlier race: the newer closed as a duplicate, the older kept", async () => {
    const m = memoryIssues();
    for (const n of [1, 2]) m.add({ title: `t${n}`, body: `${MARKER}\n${n}`, state: "open", labels: ["phctl-thing"] }); // prettier-ignore
    const r = await keepTrackingIssue(m.api, holds("a"));
    expect(r).toMatchObject({ action: "updated", duplicates: [102], issue: { number: 101 } });
    expect(m.issues.map((i) => [i.state, i.body])).toEqual([["open", `${MARKER}\na (was #101)`], ["closed", "Closed as a duplicate of #101."]]); // prettier-ignore
  });

  it("two runs creating at once: the newer is closed as a duplicate of the older, which is kept", async () => {
    const m = memoryIssues();
    m.hooks.beforeCreate = () => void m.add({ title: "t", body: `${MARKER}\nother run`, state: "open", labels: ["phctl-thing"] }); // prettier-ignore
    const r = await keepTrackingIssue(m.api, holds("a"));
    expect(r).toMatchObject({ action: "updated", changed: false, duplicates: [102], issue: { number: 101 } }); // prettier-ignore
    expect(m.issues.map((i) => i.state)).toEqual(["open", "closed"]);
    expect((await keepTrackingIssue(m.api, holds("a"))).duplicates).toEqual([]);
  });

  it("a create that landed without an answer is found, not sent again", async () => {
    const m = memoryIssues();
    m.hooks.failCreate = ["landed"];
    const r = await createOnce(m.api, kind, { title: "t", body: `${MARKER}\na` });
    expect(r).toMatchObject({ recovered: true, raced: false, duplicates: [], issue: { number: 101 } }); // prettier-ignore
    expect(m.calls).toEqual(["create", "list", "list"]);
  });

  it("a create lost on the way is sent once more after a look; lost twice is the platform's error", async () => {
    const m = memoryIssues();
    m.hooks.failCreate = ["lost"];
    expect(await createOnce(m.api, kind, { title: "t", body: `${MARKER}\na` })).toMatchObject({ recovered: false }); // prettier-ignore
    expect(m.calls).toEqual(["create", "list", "create", "list"]);
    const n = memoryIssues();
    n.hooks.failCreate = ["lost", "lost"];
    await expect(createOnce(n.api, kind, { title: "t", body: `${MARKER}\na` })).rejects.toThrow(/no answer/); // prettier-ignore
    expect(n.issues).toEqual([]);
  });

  it("says when the platform dropped the label (no run could find the issue again)", async () => {
    const m = memoryIssues({ dropLabel: true });
    expect(await keepTrackingIssue(m.api, holds("a"))).toMatchObject({ action: "opened", labelDropped: true }); // prettier-ignore
  });
});
