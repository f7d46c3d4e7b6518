/**
 * The delivery report's organization numbers against numbers computed here from the raw
 * facts the reference server holds — its pipelines (`GET /v1/metrics/projects/{slug}/ci/
 * pipelines`, the same pipelines the git host's DORA series derive from) and its users
 * (`GET /v1/users`) — with small arithmetic of this file's own, never the report's code:
 * periods end at the last full day (today's partial day left out); deployment frequency;
 * the change failure rate as the API defines it (failed ÷ successful + failed), this
 * period's and the previous one's; the failure-rate chart whose weighted mean is its
 * headline; lead time as the median of every project-day median; users per organization
 * without a customer organization's users in its parent; the definition said in every format.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryReport, DoraScope } from "../../src/report/types.js";
import { seed } from "../../src/server/seed.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const DAY = 86_400_000;
const TOKEN = { secret: "orgnum-token-51c9e2a7", role: "system-admin", parentOrganization: "acme" } as const; // prettier-ignore
const ACME = ["api", "web", "docs", "infra"];
const PARTNER = ["sdk", "tools"];

interface Pipe {
  status: string;
  createdAt: string;
  duration: number;
}

let t: TestServer;
let dir: string;
let d: DeliveryReport;
const pipes = new Map<string, Pipe[]>();

const env = () => ({ PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKEN.secret, PHCTL_GIT_TOKEN: TOKEN.secret }); // prettier-ignore
const call = async <T>(path: string, query: Record<string, string | boolean> = {}) => {
  const r = await t.call<T>("GET", path, { as: null, query, headers: { authorization: `Bearer ${TOKEN.secret}` } }); // prettier-ignore
  expect(r.status).toBe(200);
  return r.body;
};
const user = (username: string, organization?: string) => ({
  username,
  firstName: username,
  lastName: "Test",
  externalEmail: `${username}@example.org`,
  ...(organization ? { organization } : {}),
});

beforeAll(async () => {
  t = await startServer({ tokens: [...Object.values(TOKENS), TOKEN] });
  seed(t.server.ctx, {
    parentOrganization: "acme",
    organizations: [{ name: "partner", parent: "acme" }],
    users: [
      user("ann"),
      user("bob"),
      user("cyd"),
      user("dan"),
      user("eve", "partner"),
      user("fay", "partner"),
      user("gus", "partner"),
    ],
    projects: [
      ...ACME.map((slug) => ({ slug, name: slug, git: { path: slug } })),
      ...PARTNER.map((slug) => ({ slug, name: slug, organization: "partner", git: { path: slug } })), // prettier-ignore
    ],
    // Two periods of 3 months and more, up to now: today's pipelines are there too.
    activity: { seed: 11, days: 200 },
  });
  for (const slug of [...ACME, ...PARTNER])
    pipes.set(slug, await call<Pipe[]>(`/v1/metrics/projects/${slug}/ci/pipelines`));
  dir = mkdtempSync(join(tmpdir(), "phctl-orgnum-"));
  mkdirSync(join(dir, "config"));
  writeFileSync(join(dir, "config", "phctl.yaml"), "organization: acme\n");
  const r = await phctl(["report", "delivery", "config", "--format", "json"], env(), dir);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  d = JSON.parse(r.stdout) as DeliveryReport;
});
afterAll(async () => {
  await t.close();
});

// ------------------------------------------------------------ this file's own arithmetic

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const med = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? null : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const org = (name: string) => d.dora.organizations.find((o) => o.name === name)!;
const metricOf = (s: DoraScope, m: string) => s.metrics.find((x) => x.metric === m)!;
const slugsOf = (name: string) => (name === "acme" ? ACME : PARTNER);

/** The organization's pipelines between two days (inclusive), by UTC day of creation. */
function between(name: string, start: string, end: string): Pipe[] {
  return slugsOf(name).flatMap(
    (s) =>
    pipes.get(s)!.filter((p) => p.createdAt.slice(0, 10) >= start && p.createdAt.slice(0, 10) <= end), // prettier-ignore
  );
}
const counts = (ps: Pipe[]) => ({
  ok: ps.filter((p) => p.status === "success").length,
  failed: ps.filter((p) => p.status === "failed").length,
});

/** 3 months ending `end` (inclusive): from the day after it, 3 calendar months back. */
function threeMonths(end: string) {
  const next = new Date(Date.parse(`${end}T00:00:00Z`) + DAY);
  const first = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() - 3, 1));
  const inMonth = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate(); // prettier-ignore
  first.setUTCDate(Math.min(next.getUTCDate(), inMonth));
  const start = dayOf(first.getTime());
  return { start, end, days: Math.round((Date.parse(end) - Date.parse(start)) / DAY) + 1 };
}
/** The periods as they should be: the last full day is yesterday (UTC). */
const expected = () => {
  const current = threeMonths(dayOf(Date.now() - DAY));
  return { current, previous: threeMonths(dayOf(Date.parse(current.start) - DAY)) };
};

describe("the organization's numbers, computed from the raw pipelines", () => {
  it("periods end at the last full day: yesterday (UTC); today's pipelines are not counted", () => {
    const yesterday = dayOf(Date.now() - DAY);
    expect(d.period).toEqual(expected().current);
    expect(d.previousPeriod).toEqual(expected().previous);
    // Today has pipelines on the server, and no point of any chart.
    expect([...pipes.values()].flat().some((p) => p.createdAt.startsWith(dayOf(Date.now())))).toBe(true); // prettier-ignore
    for (const o of d.dora.organizations)
      for (const m of o.metrics) expect(m.series.at(-1)!.date).toBe(yesterday);
    expect(d.ci.daily.at(-1)!.date).toBe(yesterday);
  });

  it("deployment frequency: successful deployments of full days ÷ the days, both periods", () => {
    const { current, previous } = expected();
    for (const name of ["acme", "partner"]) {
      const now = counts(between(name, current.start, current.end)).ok;
      const before = counts(between(name, previous.start, previous.end)).ok;
      const f = metricOf(org(name), "deployment_frequency");
      expect(f.value).toBe(round4(now / current.days));
      expect(f.previous).toBe(round4(before / previous.days));
    }
  });

  it("change failure rate: failed ÷ (successful + failed) of all its projects, this period and the previous one", () => {
    for (const name of ["acme", "partner"]) {
      const now = counts(between(name, d.period.start, d.period.end));
      const before = counts(between(name, d.previousPeriod.start, d.previousPeriod.end));
      const r = metricOf(org(name), "change_failure_rate");
      expect(r.value).toBe(round4(now.failed / (now.ok + now.failed)));
      expect(r.previous).toBe(round4(before.failed / (before.ok + before.failed)));
    }
    // Per project, the same definition: the git host's own value.
    for (const slug of [...ACME, ...PARTNER]) {
      const c = counts(
        pipes.get(slug)!.filter((p) => p.createdAt.slice(0, 10) >= d.period.start && p.createdAt.slice(0, 10) <= d.period.end), // prettier-ignore
      );
      const p = d.dora.projects.find((x) => x.name === slug)!;
      expect(metricOf(p, "change_failure_rate").value).toBe(
        c.ok + c.failed === 0 ? null : round4(c.failed / (c.ok + c.failed)),
      );
    }
  });

  it("the failure-rate chart: each day's deployments weigh its point, and the weighted mean is the headline", () => {
    for (const name of ["acme", "partner"]) {
      const r = metricOf(org(name), "change_failure_rate");
      let sum = 0;
      let weight = 0;
      for (const p of r.series) {
        const day = counts(between(name, p.date, p.date));
        // A day when some project had failed deployments only: its count is spread (the
        // API gives none); every other day is exact.
        const failedOnly = slugsOf(name).some((s) => {
          const c = counts(pipes.get(s)!.filter((x) => x.createdAt.startsWith(p.date)));
          return c.ok === 0 && c.failed > 0;
        });
        if (day.ok + day.failed === 0) expect(p.value).toBeNull();
        else if (!failedOnly) {
          expect(p.weight).toBe(day.ok + day.failed);
          expect(p.value).toBe(round4(day.failed / (day.ok + day.failed)));
        }
        if (p.value !== null) {
          sum += p.value * p.weight!;
          weight += p.weight!;
        }
      }
      const all = counts(between(name, d.period.start, d.period.end));
      expect(weight).toBeCloseTo(all.ok + all.failed, 2);
      expect(Math.abs(sum / weight - r.value!)).toBeLessThan(1e-4);
    }
  });

  it("lead time: the median of every project's daily medians (days with deployments), both periods", () => {
    const pooled = (name: string, start: string, end: string) =>
      med(
        slugsOf(name).flatMap((s) => {
          const byDay = new Map<string, number[]>();
          for (const p of pipes.get(s)!) {
            const day = p.createdAt.slice(0, 10);
            if (p.status !== "success" || day < start || day > end) continue;
            byDay.set(day, [...(byDay.get(day) ?? []), p.duration]);
          }
          return [...byDay.values()].map((xs) => med(xs)!);
        }),
      );
    for (const name of ["acme", "partner"]) {
      const l = metricOf(org(name), "lead_time_for_changes");
      expect(l.value).toBe(pooled(name, d.period.start, d.period.end));
      expect(l.previous).toBe(pooled(name, d.previousPeriod.start, d.previousPeriod.end));
    }
  });

  it("users per organization: each its own, the customer's not counted in the parent", async () => {
    const users = (await call<{ data: { organization: string }[] }>("/v1/users", { all: true })).data; // prettier-ignore
    const own = (o: string) => users.filter((u) => u.organization === o).length;
    expect(own("acme")).toBe(4);
    expect(d.usage.organizations.map((u) => [u.organization, u.users])).toEqual([
      ["acme", own("acme")],
      ["partner", own("partner")],
    ]);
  });
});

describe("the report says which definition it follows, in every format", () => {
  it("json, markdown, csv and html", async () => {
    const cfr = d.dora.definitions?.find((x) => x.metric === "change_failure_rate");
    expect(cfr?.project).toContain("failed deployments ÷ all deployments (successful + failed)");
    const words = "failed deployments ÷ all deployments";
    const md = await phctl(["report", "delivery", "config"], env(), dir);
    expect(md.stdout).toContain(words);
    const out = join(dir, "csv");
    expect((await phctl(["report", "delivery", "config", "--format", "csv", "--out", out], env(), dir)).code).toBe(0); // prettier-ignore
    expect(readdirSync(out)).toContain("dora-definitions.csv");
    expect(readFileSync(join(out, "dora-definitions.csv"), "utf8")).toContain(words);
    const html = join(dir, "d.html");
    expect((await phctl(["report", "delivery", "config", "--format", "html", "--out", html], env(), dir)).code).toBe(0); // prettier-ignore
    expect(readFileSync(html, "utf8")).toContain(words);
  });
});
