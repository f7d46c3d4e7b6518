/**
 * What drift says (issue 27, item 7): the default key is `default`, as for the plan
 * comment and apply (issue marker, messages, metrics), and an issue an earlier phctl keyed
 * by the config path is taken over; no "the config"; a closed issue no longer reads as
 * drift; drift's markdown says drift, and in sync when it is.
 */
import { describe, expect, it } from "vitest";
import type { Issue, IssueApi, IssueEdit } from "../../src/ci/issues.js";
import { summarize, type Plan } from "../../src/engine/plan.js";
import { checkDriftFlags } from "../../src/cli/drift-flags.js";
import { issueBody, issueTitle } from "../../src/drift/issue-body.js";
import { renderMetrics } from "../../src/drift/metrics.js";
import { messageText } from "../../src/drift/notify.js";
import { reportDrift, type ReportInput } from "../../src/drift/report.js";
import { countsOf } from "../../src/drift/summary.js";
import { samplePlan } from "../fixtures/sample-plan.js";

function memory(seed: Issue[] = []) {
  const issues: Issue[] = seed.map((i) => ({ ...i }));
  const api: IssueApi = {
    platform: "Test",
    listIssues: async (label) => issues.filter((i) => i.labels.includes(label)).map((i) => ({ ...i })), // prettier-ignore
    createIssue: async ({ title, body, label }) => {
      const i = { title, body, state: "open" as const, labels: [label], number: 101 + issues.length }; // prettier-ignore
      issues.push(i);
      return { ...i };
    },
    editIssue: async (n: number, e: IssueEdit) => {
      const i = issues.find((x) => x.number === n)!;
      Object.assign(i, {
        ...(e.title !== undefined ? { title: e.title } : {}),
        ...(e.body !== undefined ? { body: e.body } : {}),
        ...(e.state ? { state: e.state } : {}),
      });
      return { ...i };
    },
    commentIssue: async (_n, body) => ({ id: 1, body }),
  };
  return { api, issues };
}

const drift: Plan = { ...samplePlan(), createdAt: "2026-03-01T06:17:00.000Z" };
const inSync: Plan = { ...samplePlan(), entries: [], summary: summarize([], 0), createdAt: "2026-03-03T06:17:00.000Z" }; // prettier-ignore

function input(key: string, plan: Plan, extra: Partial<ReportInput> = {}): ReportInput {
  return {
    key,
    plan,
    render: (meta) =>
      issueBody({
        key,
        plan,
        counts: countsOf(plan),
        meta,
        applyCommand: "phctl apply .",
        maxChars: 65_536,
        artifactHint: "the run's log",
      }),
    ...extra,
  };
}

describe("the drift key", () => {
  it("is `default` by default, as for the plan comment and apply, whatever the path", () => {
    for (const paths of [[], ["."], ["./examples/"], ["infra/a", "infra/b"]])
      expect(checkDriftFlags(paths, { report: "github-issue" }, "/w").key).toBe("default");
    expect(checkDriftFlags(["examples"], { key: "prod" }, "/w").key).toBe("prod");
  });

  it("names the metric series `default`", () => {
    const o = checkDriftFlags(["."], { metricsFile: "m.prom" }, "/w");
    const text = renderMetrics({ key: o.key, time: new Date(0), durationMs: 1, counts: countsOf(drift) }); // prettier-ignore
    expect(text).toContain('phctl_drift_differences{key="default"} 5');
  });

  it("takes over the issue an earlier phctl opened under the path key: no second issue", async () => {
    const old: Issue = {
      number: 7,
      title: "Drift: 5 differences between the manifests and live state",
      body: "<!-- phctl:drift key=. -->\nold body",
      state: "open",
      labels: ["phctl-drift"],
    };
    const m = memory([old]);
    const o = checkDriftFlags(["."], { report: "github-issue" }, "/w");
    const r = await reportDrift(m.api, input(o.key, drift, { formerKeys: o.formerKeys }));
    expect(r.action).toBe("updated");
    expect(m.issues).toHaveLength(1);
    expect(m.issues[0].body.startsWith("<!-- phctl:drift key=default -->\n")).toBe(true);
  });
});

describe("drift's words", () => {
  it("the default key reads as the organization, never as `the config`", () => {
    expect(issueTitle("default", countsOf(drift), "acme")).toBe("Drift: 5 differences in organization acme"); // prettier-ignore
    expect(issueTitle("infra/prod", countsOf(drift), "acme")).toBe("Drift: 5 differences in infra/prod"); // prettier-ignore
    const body = input("default", drift).render({ digest: "0".repeat(64), since: drift.createdAt });
    expect(body).toMatch(/^\*\*Drift detected\*\* in organization acme at 2026-03-01 06:17 UTC/m);
    expect(body).not.toContain("the config");
    const text = messageText({ status: "drift", key: "default", organization: "acme", counts: countsOf(drift), previous: "in-sync", time: drift.createdAt, durationMs: 1, phctlVersion: "1" }); // prettier-ignore
    expect(text).toMatch(/^phctl: drift in organization acme: 5 differences/);
    const failed = messageText({ status: "error", key: "default", previous: "unknown", time: drift.createdAt, durationMs: 1, error: "boom", phctlVersion: "1" }); // prettier-ignore
    expect(failed).toBe("phctl: the drift check failed: boom");
  });

  it("a closed issue's title says it is in sync, not drift", async () => {
    const m = memory();
    await reportDrift(m.api, input("infra/prod", drift));
    expect(m.issues[0].title).toBe("Drift: 5 differences in infra/prod");
    await reportDrift(m.api, input("infra/prod", inSync));
    expect(m.issues[0].state).toBe("closed");
    expect(m.issues[0].title).toBe("Drift resolved: infra/prod in sync since 2026-03-03 06:17 UTC");
    await reportDrift(m.api, input("infra/prod", { ...drift, createdAt: "2026-03-04T06:17:00.000Z" })); // prettier-ignore
    expect(m.issues[0].title).toBe("Drift: 5 differences in infra/prod");
  });

  it("the issue body's plan is headed as drift, an access granted live said so", () => {
    const body = input("default", drift).render({ digest: "0".repeat(64), since: drift.createdAt });
    expect(body).toMatch(/^### phctl drift: 5 differences — 3 to apply \(1 destructive\), 1 ticket, 1 blocked · acme/m); // prettier-ignore
    expect(body).toContain("granted live to mallory (developers) · apply will remove it");
  });
});
