/**
 * The DORA API answers from a day index of each project's pipelines (routes/git/dora-days.ts),
 * not by reading and sorting them again for every question: the same answers as the
 * definitions give when computed here, independently, from the pipelines the CI metrics
 * list; the pipelines read once however many questions are asked, and again after one is
 * added or removed; every query the pipeline and DORA routes run over pipelines uses an
 * index (a report asks 4,500 questions of a size-M server).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const DAY = 86_400_000;
const METRICS = [
  "deployment_frequency",
  "lead_time_for_changes",
  "time_to_restore_service",
  "change_failure_rate",
] as const;
type Metric = (typeof METRICS)[number];

let t: TestServer;
let today: string;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await startServer();
  seed(t.server.ctx, {
    parentOrganization: "acme",
    projects: [
      { slug: "busy", name: "Busy", git: { path: "busy" } },
      { slug: "calm", name: "Calm", git: { path: "calm" } },
      {
        slug: "edges",
        name: "Edges",
        git: { path: "edges" },
        // Two at the same instant (id decides), a running one (not counted), a failure
        // restored days later, one never restored.
        pipelines: [
          { status: "failed", ref: "main", created: "2024-03-01T10:00:00.000Z", duration: 5 },
          { status: "success", ref: "main", created: "2024-03-01T10:00:00.000Z", duration: 7 },
          { status: "failed", ref: "main", created: "2024-03-01T10:00:00.000Z", duration: 9 },
          { status: "running", ref: "main", created: "2024-03-02T10:00:00.000Z", duration: 0 },
          { status: "success", ref: "main", created: "2024-03-04T11:30:00.000Z", duration: 60 },
          { status: "success", ref: "main", created: "2024-03-04T12:00:00.000Z", duration: 90 },
          { status: "failed", ref: "main", created: "2024-03-06T08:00:00.000Z", duration: 3 },
        ],
      },
    ],
    activity: { seed: 7 },
  });
  today = dayOf(Date.now());
});
afterAll(() => t.close());

const dora = async (group: string, query: Record<string, string>) => {
  const r = await t.call<{ date: string; value: number }[]>(
    "GET",
    `/git-api/groups/acme%2F${group}/dora/metrics`,
    { as: null, headers: { "private-token": TOKENS.member.secret }, query },
  );
  expect(r.status).toBe(200);
  return r.body;
};

interface P {
  id: number;
  status: string;
  createdAt: string;
  duration: number;
}

/** The docs' definitions, computed from a project's pipelines as the CI metrics list them. */
function expected(
  pipelines: P[],
  metric: Metric,
  start: string,
  end: string,
  interval: "daily" | "monthly" | "all",
): { date: string; value: number }[] {
  const days: string[] = [];
  for (let d = Date.parse(`${start}T00:00:00Z`); d <= Date.parse(`${end}T00:00:00Z`); d += DAY)
    days.push(dayOf(d));
  const ordered = [...pipelines].sort((a, b) =>
    a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id,
  );
  const on = (day: string) => ordered.filter((p) => p.createdAt.slice(0, 10) === day);
  const median = (xs: number[]) => {
    if (xs.length === 0) return 0;
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const restores = (day: string) =>
    on(day)
      .filter((p) => p.status === "failed")
      .flatMap((p) => {
        const next = ordered.slice(ordered.indexOf(p) + 1).find((q) => q.status === "success");
        return next
          ? [Math.round((Date.parse(next.createdAt) - Date.parse(p.createdAt)) / 1000)]
          : [];
      });
  const durations = (day: string) =>
    on(day)
      .filter((p) => p.status === "success")
      .map((p) => p.duration);
  const count = (ds: string[], status: string) =>
    ds.reduce((n, d) => n + on(d).filter((p) => p.status === status).length, 0);
  const value = (ds: string[]): number => {
    const ok = count(ds, "success");
    const failed = count(ds, "failed");
    if (metric === "deployment_frequency") return ok;
    if (metric === "change_failure_rate")
      return ok + failed === 0 ? 0 : Math.round((failed / (ok + failed)) * 10_000) / 10_000;
    const of = metric === "lead_time_for_changes" ? durations : restores;
    if (ds.length === 1) return median(of(ds[0]));
    return median(
      ds
        .map(of)
        .filter((xs) => xs.length > 0)
        .map(median),
    );
  };
  if (interval === "daily") return days.map((d) => ({ date: d, value: value([d]) }));
  if (interval === "all") return [{ date: days[0], value: value(days) }];
  const months = [...new Set(days.map((d) => `${d.slice(0, 7)}-01`))];
  return months.map((m) => ({
    date: m,
    value: value(days.filter((d) => d.slice(0, 7) === m.slice(0, 7))),
  }));
}

async function pipelinesOf(slug: string): Promise<P[]> {
  const r = await t.call<P[]>("GET", `/v1/metrics/projects/${slug}/ci/pipelines`);
  expect(r.status).toBe(200);
  return r.body;
}

/** Counts the queries over pipelines, with their arguments, while `run` runs. */
async function queriesDuring(run: () => Promise<unknown>) {
  const db = t.server.ctx.db;
  const seen: { sql: string; args: unknown[] }[] = [];
  const all = db.all.bind(db);
  const get = db.get.bind(db);
  db.all = (sql: string, ...args: unknown[]) => {
    if (/\bFROM pipelines\b/.test(sql)) seen.push({ sql, args });
    return all(sql, ...args);
  };
  db.get = (sql: string, ...args: unknown[]) => {
    if (/\bFROM pipelines\b/.test(sql)) seen.push({ sql, args });
    return get(sql, ...args);
  };
  try {
    await run();
  } finally {
    db.all = all;
    db.get = get;
  }
  return seen;
}

describe("DORA answers from the day index", () => {
  it("answer what the definitions give, computed from the listed pipelines", async () => {
    const ago = (n: number) => dayOf(Date.now() - n * DAY);
    const ranges: [string, string][] = [
      [ago(45), today], // the newest pipelines, today's partial day too
      [ago(120), ago(46)], // before the activity starts, up to the middle of it
      [ago(30), ago(30)], // one day
    ];
    for (const slug of ["busy", "calm"]) {
      const pipelines = await pipelinesOf(slug);
      expect(pipelines.length).toBeGreaterThan(20);
      for (const [start, end] of ranges)
        for (const metric of METRICS)
          for (const interval of ["daily", "monthly", "all"] as const)
            expect(
              await dora(slug, { metric, start_date: start, end_date: end, interval }),
              `${slug} ${metric} ${interval} ${start}..${end}`,
            ).toEqual(expected(pipelines, metric, start, end, interval));
    }
  });

  it("ties in time go by id, other statuses are not counted, restores look past the range", async () => {
    const q = { start_date: "2024-03-01", end_date: "2024-03-06" };
    const values = async (metric: Metric, interval = "daily") =>
      (await dora("edges", { metric, ...q, interval })).map((p) => p.value);
    // Hand-computed from the seeded pipelines above.
    expect(await values("deployment_frequency")).toEqual([1, 0, 0, 2, 0, 0]);
    expect(await values("change_failure_rate")).toEqual([0.6667, 0, 0, 0, 0, 1]);
    expect(await values("lead_time_for_changes")).toEqual([7, 0, 0, 75, 0, 0]);
    // 10:00 (first) → success at 10:00 = 0 s; 10:00 (third) → 2024-03-04 11:30 = 264,600 s.
    expect(await values("time_to_restore_service")).toEqual([132_300, 0, 0, 0, 0, 0]);
    expect(await values("time_to_restore_service", "all")).toEqual([132_300]);
    expect(await values("lead_time_for_changes", "all")).toEqual([41]);
    expect(await values("change_failure_rate", "all")).toEqual([0.5]);
    // The restore is found past a range that ends before it.
    const first = await dora("edges", {
      metric: "time_to_restore_service",
      start_date: "2024-03-01",
      end_date: "2024-03-01",
    });
    expect(first).toEqual([{ date: "2024-03-01", value: 132_300 }]);
  });

  it("read a project's pipelines once for many questions, and again after they change", async () => {
    const ask = () =>
      Promise.all(
        METRICS.flatMap((metric) =>
          ["daily", "all", "monthly"].map((interval) =>
            dora("busy", {
              metric,
              interval,
              start_date: dayOf(Date.now() - 300 * DAY),
              end_date: today,
            }),
          ),
        ),
      );
    const before = await ask();
    // Warm now: twelve more questions read no pipeline.
    expect(await queriesDuring(ask)).toEqual([]);
    const db = t.server.ctx.db;
    const projectId = db.get<{ id: number }>("SELECT id FROM projects WHERE slug = 'busy'")!.id;
    const added = Number(
      db.run(
        `INSERT INTO pipelines (project_id, bundle_id, status, ref, sha, created, finished, duration)
         VALUES (?, NULL, 'success', 'main', 'abc', ?, NULL, 5)`,
        projectId,
        `${today}T00:00:00Z`,
      ).lastInsertRowid,
    );
    let after: Awaited<ReturnType<typeof ask>> = [];
    const reads = await queriesDuring(async () => (after = await ask()));
    expect(reads).toHaveLength(1);
    // deployment_frequency daily: today has one more; in all: one more.
    expect(after[0].at(-1)!.value).toBe(before[0].at(-1)!.value + 1);
    expect(after[1][0].value).toBe(before[1][0].value + 1);
    db.run("DELETE FROM pipelines WHERE id = ?", added);
    expect(await ask()).toEqual(before);
  });

  it("every query over pipelines of the CI and DORA routes uses an index", async () => {
    const seen = await queriesDuring(async () => {
      await pipelinesOf("busy");
      await t.call("GET", "/v1/metrics/projects/busy/ci/pipelines", {
        query: { startDate: dayOf(Date.now() - 60 * DAY), endDate: today },
      });
      await t.call("GET", "/v1/metrics/projects/busy/ci/pipelines/counts", {
        query: { startDate: dayOf(Date.now() - 60 * DAY) },
      });
      // A change to any pipeline: the day index is built again, by a query of its own.
      t.server.ctx.db.run(
        "UPDATE pipelines SET duration = duration WHERE id = (SELECT max(id) FROM pipelines)",
      );
      await dora("calm", { metric: "deployment_frequency" });
    });
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (const { sql, args } of seen) {
      const plan = t.server.ctx.db.raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as {
        detail: string;
      }[];
      const details = plan.map((p) => p.detail).join("; ");
      expect(details, sql).not.toMatch(/SCAN pipelines\b/);
      expect(details, sql).toMatch(
        /SEARCH pipelines USING (COVERING )?INDEX pipelines_project_created/,
      );
    }
  });
});
