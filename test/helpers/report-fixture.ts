/**
 * Realistic report data made deterministically from a seed, for the HTML renderer's tests
 * and the browser test: an access review and delivery metrics of a parent organization
 * with two customer organizations, users who log in often, rarely or never, 90 days of
 * pipelines and deployments — and names that are HTML (`<img onerror=…>`), which must
 * render as text.
 */
import {
  DORA_METRICS,
  type AccessReport,
  type AccessRow,
  type AccessUser,
  type CiDay,
  type CiStats,
  type DeliveryReport,
  type DoraScope,
  type Finding,
} from "../../src/report/types.js";
import { prng } from "../../src/server/faults.js";

/** A small deterministic random source: the server's seeded generator (mulberry32). */
export const rng = prng;

/** A name that is markup: every renderer must show it as text. */
export const EVIL = `<img src=x onerror="alert(1)">&amp;`;
const NOW = Date.parse("2026-06-01T06:00:00Z");
const ORGS = ["acme", "partner-a", "partner-b"];
const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const dayOf = (ms: number) => iso(ms).slice(0, 10);

const envelope = (name: string[]) => ({
  formatVersion: 1 as const,
  generatedAt: iso(NOW),
  phctlVersion: "0.1.0",
  apiUrl: "http://127.0.0.1:4010",
  parentOrganization: "acme",
  sections: name.map((n) => ({ name: n, title: n, status: "ok" as const })),
  partial: false,
  stats: { objectsRead: 420, apiCalls: 57, durationMs: 812 },
});

/** An access review of `users` users over `projects` projects. */
export function accessFixture(
  o: { users?: number; projects?: number; rowsPerProject?: number; seed?: number } = {},
): AccessReport {
  const r = rng(o.seed ?? 1);
  const nUsers = o.users ?? 40;
  const nProjects = o.projects ?? 12;
  const users: AccessUser[] = Array.from({ length: nUsers }, (_, i) => {
    const organization = ORGS[i % 7 === 0 ? 1 + (i % 2) : 0];
    const days = i % 11 === 5 ? null : Math.floor(r() ** 2 * 400);
    return {
      username: i === 3 ? EVIL : `user${String(i).padStart(4, "0")}`,
      organization,
      role: i % 13 === 0 ? "admin" : "member",
      status: "active",
      declared: i % 17 !== 9,
      serviceAccount: i % 19 === 4,
      lastLogin: days === null ? null : iso(NOW - days * DAY_MS),
      daysSinceLogin: days,
      projects: 0,
      highest: null,
    };
  });
  const levels = [["admins", "admin"], ["maintainers", "write"], ["developers", "write"], ["reporters", "read"]] as const; // prettier-ignore
  const rows: AccessRow[] = [];
  const projects = Array.from({ length: nProjects }, (_, p) => {
    const project = p === 2 ? `proj-${EVIL}` : `project-${String(p).padStart(3, "0")}`;
    const organization = ORGS[0];
    let admins = 0;
    for (let k = 0; k < (o.rowsPerProject ?? 6); k++) {
      const u = users[Math.floor(r() * users.length)];
      const [level, grade] =
        levels[Math.min(3, Math.floor(r() * 4) + (p % 5 === 0 && k === 0 ? 0 : 0))];
      const via =
        k % 6 === 5
          ? { kind: "userTeam" as const, team: "reviewers" }
          : { kind: "direct" as const };
      if (level === "admins" && via.kind === "direct") admins++;
      u.projects++;
      const rank = { admin: 0, write: 1, read: 2 };
      if (u.highest === null || rank[grade] < rank[u.highest]) u.highest = grade;
      rows.push({
        principal: u.username,
        principalKind: "user",
        organization: u.organization,
        project,
        projectOrganization: organization,
        level,
        grade,
        via,
        declared: !(p === 4 && k === 1),
        lastLogin: u.lastLogin ?? null,
      });
    }
    return { project, organization, declared: true, admins, principals: o.rowsPerProject ?? 6 };
  });
  const inactive = users.filter((u) => (u.daysSinceLogin ?? 0) >= 90 && (u.highest === "admin" || u.highest === "write")); // prettier-ignore
  const finding = (id: Finding["id"], title: string, list: Finding["rows"]): Finding => ({ id, title, count: list.length, rows: list }); // prettier-ignore
  const findings: Finding[] = [
    finding("inactive-with-write", "Users inactive for 90 days or more who hold write or admin", inactive.map((u) => ({ principal: u.username, level: u.highest ?? "none", detail: `last login ${u.daysSinceLogin} days ago` }))), // prettier-ignore
    finding("never-logged-in", "Users who never logged in", users.filter((u) => u.daysSinceLogin === null).map((u) => ({ principal: u.username, detail: "never logged in" }))), // prettier-ignore
    finding("projects-under-two-admins", "Projects with fewer than two admins", projects.filter((p) => p.admins < 2).map((p) => ({ project: p.project, detail: `${p.admins} admins` }))), // prettier-ignore
    finding("live-only-access", "Access granted live but absent from the manifests", rows.filter((x) => !x.declared).map((x) => ({ principal: x.principal, project: x.project, level: x.level, detail: "not in the manifests" }))), // prettier-ignore
    finding(
      "customer-write-on-parent",
      "Users of customer organizations with write on the parent's projects",
      [],
    ),
    finding("service-account-admin", "Service accounts with admin", []),
  ];
  return {
    ...envelope(["access", "lastLogin"]),
    kind: "access",
    inactiveDays: 90,
    serviceAccountPatterns: ["*-bot"],
    rows,
    users,
    projects,
    findings,
  };
}

/** Delivery metrics of `projects` projects over 90 days. */
export function deliveryFixture(o: { projects?: number; seed?: number } = {}): DeliveryReport {
  const r = rng(o.seed ?? 2);
  const days = Array.from({ length: 90 }, (_, i) => dayOf(NOW - (90 - i) * DAY_MS));
  const scope = (name: string, organization: string, scale: number): DoraScope => {
    const series = (f: () => number | null) => days.map((date) => ({ date, value: f() }));
    const deploys = series(() => Math.round(r() * 3 * scale));
    const total = deploys.reduce((a, p) => a + (p.value ?? 0), 0);
    const mk = (
      i: number,
      value: number | null,
      s: { date: string; value: number | null }[],
      unit: "per-day" | "seconds" | "ratio",
    ) => ({
      // prettier-ignore
      metric: DORA_METRICS[i],
      unit,
      value,
      band: value === null ? null : (["elite", "high", "medium", "low"] as const)[i % 4],
      previous: value === null ? null : value * 0.9,
      change: value === null ? null : value * 0.1,
      series: s, // prettier-ignore
    });
    return {
      name,
      organization,
      deployments: total,
      metrics: [
        mk(0, total / 90, deploys, "per-day"),
        mk(1, 36_000 + r() * 200_000, series(() => (r() < 0.2 ? null : 20_000 + r() * 250_000)), "seconds"), // prettier-ignore
        mk(2, 3_000 + r() * 20_000, series(() => (r() < 0.7 ? null : 1_000 + r() * 40_000)), "seconds"), // prettier-ignore
        mk(
          3,
          0.04 + r() * 0.15,
          series(() => (r() < 0.2 ? null : r() * 0.3)),
          "ratio",
        ),
      ],
    };
  };
  const nProjects = o.projects ?? 12;
  const names = Array.from({ length: nProjects }, (_, p) => (p === 2 ? `proj-${EVIL}` : `project-${String(p).padStart(3, "0")}`)); // prettier-ignore
  const ciOf = (name: string, organization: string, n: number): CiStats => {
    const failed = Math.floor(n * r() * 0.3);
    return { name, organization, pipelines: n, successful: n - failed, failed, perDay: n ? n / 90 : null, successRate: n ? (n - failed) / n : null, medianDuration: n ? 120 + r() * 1500 : null, p95Duration: n ? 1800 + r() * 1800 : null, previousPipelines: Math.round(n * 0.8), previousSuccessRate: n ? 0.8 : null }; // prettier-ignore
  };
  const ciProjects = names.map((n, i) =>
    ciOf(n, ORGS[0], i === 7 ? 0 : Math.round(100 + r() * 900)),
  );
  const daily: CiDay[] = days.map((date, i) => {
    const pipelines = i % 7 >= 5 ? Math.round(r() * 10) : Math.round(40 + r() * 40);
    const failed = Math.round(pipelines * r() * 0.25);
    const other = Math.round(pipelines * 0.05);
    return { date, pipelines, successful: pipelines - failed - other, failed, medianDuration: pipelines ? 300 + r() * 600 : null }; // prettier-ignore
  });
  const byMedian = ciProjects.filter((p) => p.medianDuration !== null).sort((a, b) => (b.medianDuration ?? 0) - (a.medianDuration ?? 0)); // prettier-ignore
  const byRate = ciProjects.filter((p) => p.successRate !== null).sort((a, b) => (a.successRate ?? 0) - (b.successRate ?? 0)); // prettier-ignore
  return {
    ...envelope(["dora", "ci", "usage"]),
    kind: "delivery",
    period: { start: days[0], end: days[days.length - 1], days: 90 },
    previousPeriod: { start: dayOf(NOW - 180 * DAY_MS), end: dayOf(NOW - 91 * DAY_MS), days: 90 },
    bands: {
      year: 2023,
      source: "Accelerate State of DevOps Report 2023 (DORA)",
      table: DORA_METRICS.map((metric) => ({
        metric,
        elite: "e",
        high: "h",
        medium: "m",
        low: "l",
      })),
    },
    dora: {
      projects: names.map((n, i) => scope(n, ORGS[0], i === 7 ? 0 : 1)),
      organizations: ORGS.map((org, i) => scope(org, org, [3, 1, 0.4][i])),
    },
    ci: {
      projects: ciProjects,
      organizations: ORGS.map((org, i) => ciOf(org, org, [4000, 600, 0][i])),
      daily,
      slowest: byMedian.slice(0, 5).map((p) => p.name),
      leastReliable: byRate.slice(0, 5).map((p) => p.name),
    },
    usage: {
      organizations: ORGS.map((org, i) => ({ organization: org, users: [1800, 150, 50][i], services: { git: [1700, 140, 45][i], artifactservice: i === 2 ? null : [900, 30][i] } })), // prettier-ignore
    },
  };
}
