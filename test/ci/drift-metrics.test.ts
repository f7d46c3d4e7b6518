/**
 * The drift metrics file read back with a parser phctl did not write
 * (parse-prometheus-text-format, as node_exporter's textfile collector and a Pushgateway read
 * it), plus the OpenMetrics rules that parser does not check: one HELP and TYPE per family,
 * `# EOF` last, escaped label values.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { summarize, type Plan } from "../../src/engine/plan.js";
import { escapeLabel, renderMetrics } from "../../src/drift/metrics.js";
import { countsOf } from "../../src/drift/summary.js";
import { samplePlan } from "../fixtures/sample-plan.js";

interface Family {
  name: string;
  help: string;
  type: string;
  metrics: { value: string; labels?: Record<string, string> }[];
}
const parse = createRequire(import.meta.url)("parse-prometheus-text-format") as (s: string) => Family[]; // prettier-ignore

const time = new Date("2026-03-01T06:17:00.250Z");
const drifted = renderMetrics({ key: "examples", time, durationMs: 1234, counts: countsOf(samplePlan()), apiCalls: 29 }); // prettier-ignore
const value = (fams: Family[], name: string, labels: Record<string, string> = {}) =>
  fams
    .find((f) => f.name === name)
    ?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value;

describe("the metrics file", () => {
  it("parses, with the differences per kind and action, in-sync 0, time, calls and duration", () => {
    const fams = parse(drifted);
    expect(fams.map((f) => f.name)).toEqual([
      "phctl_drift_entries",
      "phctl_drift_differences",
      "phctl_drift_in_sync",
      "phctl_drift_policy_violations",
      "phctl_access_expiring",
      "phctl_drift_last_run_success",
      "phctl_drift_last_run_timestamp_seconds",
      "phctl_drift_api_calls",
      "phctl_drift_duration_seconds",
    ]);
    expect(fams.every((f) => f.type === "GAUGE" && f.help.length > 10)).toBe(true);
    const entries = fams[0].metrics.map((m) => `${m.labels?.kind}/${m.labels?.action}=${m.value}`);
    expect(entries.sort()).toEqual([
      "Project/ticket=1",
      "Project/update=1",
      "ProjectAccess/delete=1",
      "Repository/create=1",
      "User/blocked=1",
    ]);
    expect(fams[0].metrics.every((m) => m.labels?.key === "examples")).toBe(true);
    expect(value(fams, "phctl_drift_differences", { key: "examples" })).toBe("5");
    expect(value(fams, "phctl_drift_in_sync")).toBe("0");
    expect(value(fams, "phctl_drift_last_run_success")).toBe("1");
    expect(Number(value(fams, "phctl_drift_last_run_timestamp_seconds"))).toBe(time.getTime() / 1000); // prettier-ignore
    expect(value(fams, "phctl_drift_api_calls")).toBe("29");
    expect(value(fams, "phctl_drift_duration_seconds")).toBe("1.234");
  });

  it("counts the grants that expire: due (still live), ended (gone live), soon; 0 each without any", () => {
    const grant = (status: "expired" | "expiring", due?: boolean) => ({
      key: "project/p/access/developers/user/bob",
      kind: "ProjectAccess" as const,
      what: "bob on the developers of project p",
      expires: "2026-06-01",
      status,
      daysLeft: status === "expired" ? -1 : 3,
      source: { file: "p.yaml", line: 7, column: 9 },
      ...(due === undefined ? {} : { due }),
    });
    const plan: Plan = { ...samplePlan(), expiring: [grant("expired", true), grant("expired", false), grant("expired", false), grant("expiring")] }; // prettier-ignore
    const fams = parse(renderMetrics({ key: "k", time, durationMs: 10, counts: countsOf(plan) }));
    expect(["due", "ended", "soon"].map((status) => value(fams, "phctl_access_expiring", { key: "k", status }))).toEqual(["1", "2", "1"]); // prettier-ignore
    const none = parse(renderMetrics({ key: "k", time, durationMs: 10, counts: countsOf(samplePlan()) })); // prettier-ignore
    expect(["due", "ended", "soon"].map((status) => value(none, "phctl_access_expiring", { key: "k", status }))).toEqual(["0", "0", "0"]); // prettier-ignore
  });

  it("in sync: no entries, differences 0, in-sync 1", () => {
    const plan: Plan = { ...samplePlan(), entries: [], summary: summarize([], 0) };
    const fams = parse(renderMetrics({ key: "k", time, durationMs: 10, counts: countsOf(plan), apiCalls: 3 })); // prettier-ignore
    expect(fams.find((f) => f.name === "phctl_drift_entries")?.metrics).toEqual([]);
    expect(value(fams, "phctl_drift_differences")).toBe("0");
    expect(value(fams, "phctl_drift_in_sync")).toBe("1");
  });

  it("counts the policy violations by enforcement; 0 and 0 without any", () => {
    const v = samplePlan();
    const violation = {
      policy: "p",
      rule: "r",
      scope: "live",
      key: "user/x",
      kind: "User",
      source: null,
      message: "m",
    } as const;
    const plan: Plan = {
      ...v,
      violations: [
        { ...violation, enforcement: "deny" },
        { ...violation, enforcement: "deny", key: "user/y" },
        { ...violation, enforcement: "warn" },
      ],
    };
    const fams = parse(renderMetrics({ key: "k", time, durationMs: 10, counts: countsOf(plan) }));
    expect(value(fams, "phctl_drift_policy_violations", { enforcement: "deny" })).toBe("2");
    expect(value(fams, "phctl_drift_policy_violations", { enforcement: "warn" })).toBe("1");
    const none = parse(drifted);
    expect(value(none, "phctl_drift_policy_violations", { enforcement: "deny" })).toBe("0");
    expect(value(none, "phctl_drift_policy_violations", { enforcement: "warn" })).toBe("0");
  });

  it("phctl_policy_debt counts each ratchet policy's violations already there; none without debt", () => {
    const violation = {
      rule: "r",
      scope: "object",
      kind: "Project",
      source: null,
      message: "m",
      enforcement: "ratchet",
    } as const;
    const plan: Plan = {
      ...samplePlan(),
      violations: [
        { ...violation, policy: "titles", key: "project/a", ratchet: "existing" },
        { ...violation, policy: "titles", key: "project/b", ratchet: "existing" },
        { ...violation, policy: "licensed", key: "project/a", ratchet: "existing" },
        { ...violation, policy: "titles", key: "project/c", ratchet: "new" },
      ],
    };
    const fams = parse(renderMetrics({ key: "k", time, durationMs: 10, counts: countsOf(plan) }));
    expect(value(fams, "phctl_policy_debt", { policy: "titles" })).toBe("2");
    expect(value(fams, "phctl_policy_debt", { policy: "licensed" })).toBe("1");
    // The new one denies: counted as a denial, not as debt.
    expect(value(fams, "phctl_drift_policy_violations", { enforcement: "deny" })).toBe("1");
    expect(parse(drifted).find((f) => f.name === "phctl_policy_debt")).toBeUndefined();
  });

  it("a failed check: success 0 and the time, no in-sync (unknown)", () => {
    const fams = parse(renderMetrics({ key: "k", time, durationMs: 10 }));
    expect(fams.map((f) => f.name)).toEqual([
      "phctl_drift_last_run_success",
      "phctl_drift_last_run_timestamp_seconds",
      "phctl_drift_duration_seconds",
    ]);
    expect(value(fams, "phctl_drift_last_run_success")).toBe("0");
  });

  it("escapes label values: the parser reads back exactly the key given", () => {
    const key = 'we\\ird"key\nx';
    expect(escapeLabel(key)).toBe('we\\\\ird\\"key\\nx');
    const fams = parse(renderMetrics({ key, time, durationMs: 1, counts: countsOf(samplePlan()) })); // prettier-ignore
    expect(fams.flatMap((f) => f.metrics).every((m) => m.labels?.key === key)).toBe(true);
  });

  it("follows OpenMetrics: one HELP and TYPE per family before its samples, # EOF last", () => {
    const lines = drifted.trimEnd().split("\n");
    expect(lines.at(-1)).toBe("# EOF");
    expect(drifted.endsWith("# EOF\n")).toBe(true);
    const seen: string[] = [];
    for (const l of lines.slice(0, -1)) {
      const meta = /^# (HELP|TYPE) (\S+) /.exec(l);
      if (meta) {
        if (meta[1] === "HELP") seen.push(meta[2]);
        continue;
      }
      expect(l).toMatch(/^[a-z_]+\{[^}]*\} -?\d+(\.\d+)?$/);
      expect(seen.at(-1), l).toBe(l.slice(0, l.indexOf("{")));
    }
    expect(new Set(seen).size).toBe(seen.length);
  });
});
