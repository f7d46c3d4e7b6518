/**
 * The drift metrics file (`phctl drift --metrics-file PATH`): OpenMetrics text, which the
 * node_exporter textfile collector and a Pushgateway also read as Prometheus text (`# EOF`
 * is a comment there). Every series carries the `key` label, so several config directories
 * can share one collector directory. Gauges only:
 *
 *   phctl_drift_entries{key,kind,action}          differences by kind and action
 *   phctl_drift_differences{key}                  all differences (0 in sync)
 *   phctl_drift_in_sync{key}                      1 in sync, 0 drift (absent after an error)
 *   phctl_drift_policy_violations{key,enforcement} policy violations found (deny, warn)
 *   phctl_policy_debt{key,policy}                 a ratchet policy's violations already there
 *   phctl_access_expiring{key,status}             grants with `expires:`: due (ended, still
 *                                                 live), ended (gone, entry left), soon
 *   phctl_drift_last_run_success{key}             1 the check ran, 0 it failed (exit 1)
 *   phctl_drift_last_run_timestamp_seconds{key}   when the run read live state (Unix time)
 *   phctl_drift_api_calls{key}                    calls to the service's API
 *   phctl_drift_duration_seconds{key}             the run's wall time
 *
 * Pure; the caller writes it atomically (a scraper never reads half a file).
 */
import type { DriftCounts } from "./summary.js";

export interface DriftMetrics {
  key: string;
  /** The run's time. */
  time: Date;
  durationMs: number;
  /** Absent when the check failed before it had a plan. */
  counts?: DriftCounts;
  apiCalls?: number;
}

/** A label value as the exposition formats quote it: backslash, double quote, newline. */
export function escapeLabel(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

const labels = (l: Record<string, string>): string =>
  `{${Object.entries(l)
    .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
    .join(",")}}`;

/** A number as both formats read it (no exponent for counts, seconds to the millisecond). */
const num = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(3));

export function renderMetrics(m: DriftMetrics): string {
  const out: string[] = [];
  const key = { key: m.key };
  const family = (name: string, help: string, samples: [Record<string, string>, number][]) => {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} gauge`);
    for (const [l, v] of samples) out.push(`${name}${labels(l)} ${num(v)}`);
  };
  const c = m.counts;
  if (c) {
    const entries: [Record<string, string>, number][] = [];
    for (const kind of Object.keys(c.byKind).sort())
      for (const [action, n] of Object.entries(c.byKind[kind]))
        entries.push([{ ...key, kind, action }, n ?? 0]);
    family(
      "phctl_drift_entries",
      "Differences between the manifests and live state, by kind and action.",
      entries,
    );
    family("phctl_drift_differences", "All differences between the manifests and live state.", [
      [key, c.total],
    ]);
    family("phctl_drift_in_sync", "1 when live state matches the manifests, else 0.", [
      [key, c.total === 0 ? 1 : 0],
    ]);
    family(
      "phctl_drift_policy_violations",
      "Violations of the organization's policies (live and declared objects, changes), by enforcement.",
      [
        [{ ...key, enforcement: "deny" }, c.policy.deny],
        [{ ...key, enforcement: "warn" }, c.policy.warn],
      ],
    );
    // Only with debt: a policy with none has no series (ratchet policies are few and temporary).
    const debts = Object.keys(c.policy.debt).sort();
    if (debts.length > 0)
      family(
        "phctl_policy_debt",
        "Violations of a ratchet policy already there (not blocking): to fix before it moves to deny.",
        debts.map((policy): [Record<string, string>, number] => [
          { ...key, policy },
          c.policy.debt[policy] ?? 0,
        ]),
      );
  }
  if (c)
    family(
      "phctl_access_expiring",
      "Grants whose expires: has passed (due: still live, the next apply removes them; ended: gone live, the manifest entry left) or ends within the warning window (soon).",
      (["due", "ended", "soon"] as const).map((status): [Record<string, string>, number] => [
        { ...key, status },
        c.expiring[status],
      ]),
    );
  family("phctl_drift_last_run_success", "1 when the last drift check ran, 0 when it failed.", [
    [key, c ? 1 : 0],
  ]);
  family(
    "phctl_drift_last_run_timestamp_seconds",
    "When the last drift check ran (Unix time, seconds).",
    [[key, m.time.getTime() / 1000]],
  );
  if (m.apiCalls !== undefined)
    family("phctl_drift_api_calls", "Calls the last drift check made to the service's API.", [
      [key, m.apiCalls],
    ]);
  family("phctl_drift_duration_seconds", "Wall time of the last drift check, seconds.", [
    [key, m.durationMs / 1000],
  ]);
  out.push("# EOF");
  return `${out.join("\n")}\n`;
}
