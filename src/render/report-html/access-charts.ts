/** The access review's charts: users by last login, and access by grade and how it is held. */
import * as Plot from "@observablehq/plot";
import type { AccessReport, AccessUser } from "../../report/types.js";
import { chart, noChart } from "./charts.js";
import type { Html } from "./html.js";

/** Last-login buckets, oldest last; the review's threshold (--inactive) is its own edge. */
function bucketOf(u: AccessUser, inactive: number): string {
  const d = u.daysSinceLogin;
  if (d === undefined) return "unknown";
  if (d === null) return "never";
  if (d < 30) return "< 30 days";
  if (d < inactive) return `30–${inactive - 1} days`;
  return `≥ ${inactive} days`;
}

/** Users by days since their last login, split by the highest access they hold. */
export function lastLoginChart(report: AccessReport): Html {
  const id = "access-last-login";
  const title = "Users by last login";
  if (!report.users.length) return noChart(id, title, "no users");
  const inactive = Math.max(31, report.inactiveDays);
  const buckets = ["< 30 days", `30–${inactive - 1} days`, `≥ ${inactive} days`, "never", "unknown"]; // prettier-ignore
  const rows = report.users.map((u) => ({
    bucket: bucketOf(u, inactive),
    highest: u.highest ?? "none",
  }));
  const present = buckets.filter((b) => rows.some((r) => r.bucket === b));
  return chart({
    id,
    title,
    note: `Inactive: no login for ${report.inactiveDays} days or more (--inactive). Colour: the highest access the user holds.`,
    marginBottom: 42,
    x: { label: "Days since last login", domain: present },
    // On a phone five buckets share 280 px: their names without " days" (the axis says it).
    narrow: { x: { label: "Days since last login", domain: present, tickFormat: (b: string) => b.replace(/ days$/, "") } }, // prettier-ignore
    y: { label: "Users", grid: true },
    color: {
      legend: true,
      domain: ["admin", "write", "read", "none"],
      range: ["#d1495b", "#e0a100", "#3b82c4", "#9a9a9a"],
    },
    marks: [
      Plot.barY(rows, Plot.groupX({ y: "count" }, { x: "bucket", fill: "highest" })),
      Plot.ruleY([0]),
    ],
  });
}

const VIA_WORDS = { direct: "directly", userTeam: "user team", organizationTeam: "organization team" }; // prettier-ignore

/** Access rows by grade, stacked by how they are held. */
export function grantsChart(report: AccessReport): Html {
  const id = "access-grants";
  const title = "Access by level and how it is held";
  if (!report.rows.length) return noChart(id, title, "no access");
  const rows = report.rows.map((r) => ({ grade: r.grade, via: VIA_WORDS[r.via.kind] }));
  return chart({
    id,
    title,
    note: "One count per principal × project.",
    height: 160,
    marginLeft: 70,
    x: { label: "Principal × project pairs", grid: true },
    y: { label: "Level", domain: ["admin", "write", "read"] },
    color: { legend: true, domain: Object.values(VIA_WORDS), range: ["#3b82c4", "#2e9e5b", "#a05195"] }, // prettier-ignore
    marks: [
      Plot.barX(rows, Plot.groupY({ x: "count" }, { y: "grade", fill: "via" })),
      Plot.ruleX([0]),
    ],
  });
}
