/**
 * The drift tracking issue's logic on an in-memory platform: one issue per key through
 * drift, changed drift, recovery and drift again; other issues left alone; two runs at the
 * same time; creates that got no answer; the label a platform dropped; and the body's text.
 */
import { describe, expect, it } from "vitest";
import { summarize, type Plan, type PlanEntry } from "../../src/engine/plan.js";
import { changesDigest } from "../../src/engine/reviewed.js";
import { issueBody, metaOf } from "../../src/drift/issue-body.js";
import { pathKey } from "../../src/drift/options.js";
import { reportDrift, type ReportInput } from "../../src/drift/report.js";
import { countsOf } from "../../src/drift/summary.js";
import { samplePlan } from "../fixtures/sample-plan.js";
import { memoryIssues } from "../drift/memory-issues.js";

const MARKER = "<!-- phctl:drift key=infra/prod -->";

/** Issues in memory (calls recorded; `hooks` for races and creates without an answer). */
const memory = memoryIssues;

const at = (plan: Plan, iso: string): Plan => ({ ...plan, createdAt: iso });
const drift = at(samplePlan(), "2026-03-01T06:17:00.000Z");
const more: Plan = (() => {
  const p = samplePlan();
  const entries = [...p.entries, { ...p.entries[1], key: "project/ci-tools" }];
  return { ...p, entries, summary: summarize(entries, 0), createdAt: "2026-03-02T06:17:00.000Z" };
})();
/** `plan` with its entry `i` replaced. */
const withEntry = (plan: Plan, i: number, f: (e: PlanEntry) => PlanEntry): Plan => ({
  ...plan,
  entries: plan.entries.map((e, n) => (n === i ? f(e) : e)),
});
const inSync: Plan = { ...samplePlan(), entries: [], summary: summarize([], 0), createdAt: "2026-03-03T06:17:00.000Z" }; // prettier-ignore

function input(plan: Plan, extra: Partial<ReportInput> = {}): ReportInput {
  return {
    key: "infra/prod",
    plan,
    run: { label: "run 45", url: "https://github.example/acme/config/actions/runs/123" },
    render: (meta) =>
      issueBody({
        key: "infra/prod",
        plan,
        counts: countsOf(plan),
        meta,
        applyCommand: "phctl apply infra/prod",
        run: { label: "run 45", url: "https://github.example/acme/config/actions/runs/123" },
        maxChars: 65_536,
        artifactHint: "the run's log",
      }),
    ...extra,
  };
}

describe("one issue per key", () => {
  it("opens, updates, comments only on a change, closes, and reopens the same issue", async () => {
    const m = memory();
    const opened = await reportDrift(m.api, input(drift));
    expect(opened).toMatchObject({ action: "opened", previous: "in-sync", changed: true });
    expect(m.issues).toHaveLength(1);
    const [issue] = m.issues;
    expect(issue.labels).toEqual(["phctl-drift"]);
    expect(issue.title).toBe("Drift: 5 differences in infra/prod");
    expect(issue.body.startsWith(`${MARKER}\n`)).toBe(true);
    expect(metaOf(issue.body)).toEqual({ digest: changesDigest(drift.entries), live: expect.stringMatching(/^[0-9a-f]{64}$/), since: drift.createdAt }); // prettier-ignore
    expect(issue.body).toMatch(/^\*\*Drift detected\*\* in `infra\/prod` at 2026-03-01 06:17 UTC by \[run 45\]\(https:\/\/github\.example\/acme\/config\/actions\/runs\/123\): 5 differences between the manifests and live state \(1 to create, 1 to update, 1 to delete, 1 ticket, 1 blocked\)\.$/m); // prettier-ignore
    // A reviewed way only: a saved plan applied as it is, never `phctl apply` of the manifests.
    expect(issue.body).toContain("`phctl plan infra/prod --out drift-plan.json`, then `phctl apply drift-plan.json`"); // prettier-ignore
    expect(issue.body).not.toContain("`phctl apply infra/prod`");
    expect(issue.body).toContain("project/tf-a/access/developers/user/mallory");

    const again = await reportDrift(m.api, input(at(drift, "2026-03-01T07:17:00.000Z")));
    expect(again).toMatchObject({ action: "updated", previous: "drift", changed: false, commented: false }); // prettier-ignore
    expect(m.comments).toEqual([]);
    expect(m.issues[0].body).toContain("at 2026-03-01 07:17 UTC");
    expect(m.issues[0].body).toContain("; drifting since 2026-03-01 06:17 UTC.");

    const changed = await reportDrift(m.api, input(more));
    expect(changed).toMatchObject({ action: "updated", changed: true, commented: true });
    expect(m.comments).toHaveLength(1);
    expect(m.comments[0].body).toMatch(/^\*\*Drift changed\*\* at 2026-03-02 06:17 UTC \(\[run 45\]\(.*\)\): now 6 differences: 1 to create, 2 to update, .* \(plan `[0-9a-f]{12}` → `[0-9a-f]{12}`\)\./); // prettier-ignore
    expect(m.issues[0].title).toBe("Drift: 6 differences in infra/prod");
    expect(metaOf(m.issues[0].body)?.since).toBe(drift.createdAt);

    const closed = await reportDrift(m.api, input(inSync));
    expect(closed).toMatchObject({ action: "closed", previous: "drift" });
    expect(m.issues[0].state).toBe("closed");
    expect(m.comments[1].body).toMatch(
      /^\*\*In sync again\*\* at 2026-03-03 06:17 UTC \(\[run 45\]/,
    );
    expect(m.calls.slice(-2)).toEqual(["comment 101", "edit 101 closed"]);

    const quiet = await reportDrift(m.api, input(inSync));
    expect(quiet).toMatchObject({ action: "none", previous: "in-sync" });

    const reopened = await reportDrift(m.api, input(at(drift, "2026-03-04T06:17:00.000Z")));
    expect(reopened).toMatchObject({ action: "reopened", previous: "in-sync", changed: true });
    expect(m.issues).toHaveLength(1);
    expect(m.issues[0].state).toBe("open");
    expect(m.comments[2].body).toMatch(/^\*\*Drift again\*\* at 2026-03-04 06:17 UTC/);
    expect(metaOf(m.issues[0].body)?.since).toBe("2026-03-04T06:17:00.000Z");
  });

  it("comments when a drifted field takes another live value, not when it keeps it", async () => {
    const m = memory();
    await reportDrift(m.api, input(drift));
    const other = withEntry(drift, 1, (e) => ({
      ...e,
      before: { description: "Older text" },
      changes: [{ ...e.changes[0], before: "Older text" }],
    }));
    // Apply would send the same, over another live value: the plan hash names both.
    expect(changesDigest(other.entries)).not.toBe(changesDigest(drift.entries));
    const r = await reportDrift(m.api, input(at(other, "2026-03-01T07:17:00.000Z")));
    expect(r).toMatchObject({ action: "updated", changed: true, commented: true });
    expect(m.comments).toHaveLength(1);
    expect(m.comments[0].body).toMatch(/^\*\*Drift changed\*\* at 2026-03-01 07:17 UTC \(.*\): now 5 differences: .* \(plan `[0-9a-f]{12}` → `[0-9a-f]{12}`\)\. The description shows the current drift\.$/); // prettier-ignore
    expect(m.issues[0].body).toContain("Older text");
    const same = await reportDrift(m.api, input(at(other, "2026-03-01T08:17:00.000Z")));
    expect(same).toMatchObject({ changed: false, commented: false });
    expect(m.comments).toHaveLength(1);
  });

  it("what the drift does not say is no change: a deleted object's other live fields, list order", async () => {
    const listed = (order: string[], seen: string) =>
      withEntry(
        withEntry(drift, 2, (e) => ({ ...e, before: { ...e.before, lastSeen: seen } })),
        1,
        (e) => ({ ...e, changes: [{ field: "topics", before: order, after: ["a", "b", "c"] }] }),
      );
    const m = memory();
    await reportDrift(m.api, input(listed(["b", "a"], "2026-03-01T06:00:00Z")));
    const r = await reportDrift(m.api, input(listed(["a", "b"], "2026-03-01T07:00:00Z")));
    expect(r).toMatchObject({ changed: false, commented: false });
    expect(m.comments).toEqual([]);
  });

  it("an issue kept by an earlier phctl (no live digest) gets no comment for that alone", async () => {
    const m = memory();
    await reportDrift(m.api, input(drift));
    m.issues[0].body = m.issues[0].body.replace(/ live=[0-9a-f]{64}/, "");
    expect(metaOf(m.issues[0].body)).toEqual({ digest: changesDigest(drift.entries), since: drift.createdAt }); // prettier-ignore
    const r = await reportDrift(m.api, input(at(drift, "2026-03-01T07:17:00.000Z")));
    expect(r).toMatchObject({ changed: false, commented: false });
    expect(metaOf(m.issues[0].body)?.live).toMatch(/^[0-9a-f]{64}$/);
  });

  it("in sync without an issue: one list, nothing else", async () => {
    const m = memory();
    expect((await reportDrift(m.api, input(inSync))).action).toBe("none");
    expect(m.calls).toEqual(["list"]);
  });

  it("leaves other keys' issues, quoted markers and unlabelled issues alone", async () => {
    const m = memory();
    const other = m.add({ title: "other", body: "<!-- phctl:drift key=infra/prod-2 -->\nx", state: "open", labels: ["phctl-drift"] }); // prettier-ignore
    const quoted = m.add({ title: "q", body: `> ${MARKER}\nquoted`, state: "open", labels: ["phctl-drift"] }); // prettier-ignore
    const unlabelled = m.add({ title: "u", body: `${MARKER}\nno label`, state: "closed", labels: [] }); // prettier-ignore
    const r = await reportDrift(m.api, input(drift));
    expect(r.action).toBe("opened");
    expect(m.issues).toHaveLength(4);
    for (const i of [other, quoted, unlabelled])
      expect(m.issues.find((x) => x.number === i.number)).toEqual(i);
  });
});

describe("never a duplicate", () => {
  it("two runs at the same time: the newer issue is closed as a duplicate of the older", async () => {
    const m = memory();
    // The other run lists, finds nothing, and creates while this run is creating too.
    m.hooks.beforeCreate = () =>
      void m.add({ title: "Drift", body: `${MARKER}\nthe other run's`, state: "open", labels: ["phctl-drift"] }); // prettier-ignore
    const r = await reportDrift(m.api, input(drift));
    expect(r).toMatchObject({ action: "updated", duplicates: [102] });
    expect(r.issue?.number).toBe(101);
    const open = m.issues.filter((i) => i.state === "open");
    expect(open.map((i) => i.number)).toEqual([101]);
    expect(m.issues[1].body).toMatch(/^Closed as a duplicate of #101/);
    // The duplicate no longer carries the marker: the next run finds one issue.
    const next = await reportDrift(m.api, input(drift));
    expect(next).toMatchObject({ action: "updated", duplicates: [] });
  });

  it("two open issues left by an earlier race: the newer is closed, the older updated", async () => {
    const m = memory();
    for (const n of [1, 2])
      m.add({ title: `t${n}`, body: `${MARKER}\n${n}`, state: "open", labels: ["phctl-drift"] });
    const r = await reportDrift(m.api, input(drift));
    expect(r).toMatchObject({ action: "updated", duplicates: [102] });
    expect(m.issues.map((i) => i.state)).toEqual(["open", "closed"]);
    expect(m.issues[0].title).toBe("Drift: 5 differences in infra/prod");
  });

  it("a create that landed without an answer is found, not sent again", async () => {
    const m = memory();
    m.hooks.failCreate = ["landed"];
    const r = await reportDrift(m.api, input(drift));
    expect(r).toMatchObject({ action: "opened", recovered: true });
    expect(m.issues).toHaveLength(1);
    expect(m.calls.filter((c) => c === "create")).toHaveLength(1);
  });

  it("a create lost on the way is sent once more after a look; twice lost is an error", async () => {
    const m = memory();
    m.hooks.failCreate = ["lost"];
    expect((await reportDrift(m.api, input(drift))).action).toBe("opened");
    expect(m.calls).toEqual(["list", "create", "list", "create", "list"]);
    const n = memory();
    n.hooks.failCreate = ["lost", "lost"];
    await expect(reportDrift(n.api, input(drift))).rejects.toThrow(/no answer/);
    expect(n.issues).toHaveLength(0);
  });

  it("says when the platform dropped the label (the next run could not find the issue)", async () => {
    const m = memory({ dropLabel: true });
    expect((await reportDrift(m.api, input(drift))).labelDropped).toBe(true);
  });
});

describe("what is sent", () => {
  it("everything goes through scrub", async () => {
    const m = memory();
    const scrub = (s: string) => s.replaceAll("mallory", "***");
    await reportDrift(m.api, input(drift, { scrub }));
    await reportDrift(m.api, input(more, { scrub }));
    expect(JSON.stringify([m.issues, m.comments])).not.toContain("mallory");
    expect(m.issues[0].body).toContain("project/tf-a/access/developers/user/***");
  });

  it("the key earlier versions used by default: the config directory as given, normalised", () => {
    expect(pathKey(["./examples/"], "/w")).toBe("examples");
    expect(pathKey([], "/w")).toBe(".");
    expect(pathKey(["/w/infra/prod", "teams.yaml"], "/w")).toBe("infra/prod+teams.yaml");
  });
});
