/**
 * The live reads of the delivery report, each once: the organizations and projects (the
 * readers plan uses); per project its git group (the git host's DORA "group"), then the
 * git host's DORA metrics of that group — each metric daily over the period and in all over
 * the previous period (the two medians daily there too), and the change failure rate in all
 * over the period too (a ratio of sums the daily values cannot give) — and its CI pipelines
 * over both periods (one call);
 * per organization its user counts (in all, with a git account, with an artifact account).
 *
 * Reads go through the memoised readers (ReadContext.once: none twice) and a bounded fan-out
 * (engine/bounded.ts) as plan's do: about FAN_OUT calls pending per section, not 5,000.
 * Each DORA read covers one period: the git host refuses ranges longer than it allows
 * (GitLab: 180 days, 92 in older versions), and both 3-month periods together are 184.
 *
 * Each of the three sections (dora, ci, usage) may fail alone: the others still come. The
 * first failure of a section stops its further calls (a refused token would be refused
 * hundreds of times), and the section says what failed and what to set.
 */
import type { Static } from "@sinclair/typebox";
import type { DoraPoint, Pipeline } from "../api/schemas.js";
import { FAN_OUT, mapBounded } from "../engine/bounded.js";
import {
  readGroup,
  readOrganizations,
  readProjects,
  type LiveOrganization,
} from "../engine/readers.js";
import type { ReadContext } from "../engine/read-context.js";
import { guarded } from "./sections.js";
import { median } from "./stats.js";
import type { DoraMetricName, Period, SectionStatus } from "./types.js";
import { DORA_METRICS } from "./types.js";

export type LivePipeline = Static<typeof Pipeline>;
type Point = Static<typeof DoraPoint>;
/** The metrics that are medians of daily medians. */
export type Median = "lead_time_for_changes" | "time_to_restore_service";
export const MEDIANS: readonly Median[] = ["lead_time_for_changes", "time_to_restore_service"];

/** One project's DORA answers. */
export interface ProjectDora {
  /** Daily values over the current period, per metric. */
  daily: Record<DoraMetricName, Point[]>;
  /** The metric in all over the previous period (the two medians: of previousDaily). */
  previous: Record<DoraMetricName, number>;
  /**
   * The two medians daily over the previous period: an organization's median pools its
   * projects' daily medians (delivery.ts), in both periods alike.
   */
  previousDaily: Record<Median, Point[]>;
  /** The change failure rate in all over the current period. */
  failureRate: number;
}

/** One organization's user counts (null: not answered). */
export interface OrgUsage {
  users: number | null;
  git: number | null;
  artifactservice: number | null;
}

/** Everything the delivery report is built from. */
export interface DeliveryLive {
  parentOrganization: string;
  organizations: LiveOrganization[];
  projects: { slug: string; organization: string }[];
  /** By project slug; a project without a git group has none. Undefined: the section failed. */
  dora: Map<string, ProjectDora> | undefined;
  /** By project slug, over both periods. Undefined: the section failed. */
  pipelines: Map<string, LivePipeline[]> | undefined;
  usage: Map<string, OrgUsage> | undefined;
}

/** Calls of one section: after its first failure the rest fail at once with it. */
function stopOnFirstFailure() {
  let failure: Error | undefined;
  return async <T>(call: () => Promise<T>): Promise<T> => {
    if (failure !== undefined) throw failure;
    try {
      return await call();
    } catch (e) {
      failure ??= e instanceof Error ? e : new Error(String(e));
      throw failure;
    }
  };
}

/** DORA reads of one project's group: each metric over the period (daily) and over the previous one (daily for the medians, else in all), and the change failure rate in all over the period. */
const DORA_READS = DORA_METRICS.length * 2 + 1;

/** The git host's own value in all of a median: the median of the daily medians (0: none). */
const dailyMedian = (points: readonly Point[]) =>
  median(points.map((p) => p.value).filter((v) => v > 0)) ?? 0;

async function readDora(
  rc: ReadContext,
  slugs: readonly string[],
  span: { current: Period; previous: Period },
): Promise<Map<string, ProjectDora>> {
  const once = stopOnFirstFailure();
  const dora = (id: string, metric: DoraMetricName, p: Period, interval: "daily" | "all") =>
    rc.once(`dora/${id}/${metric}/${interval}/${p.start}/${p.end}`, () =>
      once(() =>
        rc.api.call("dora.group", {
          params: { id },
          query: { metric, start_date: p.start, end_date: p.end, interval },
        }),
      ).then((points) => rc.count(points)),
    );
  // A project's reads go out together; enough projects at once to keep FAN_OUT calls pending.
  const entries = await mapBounded(
    slugs,
    async (slug) => {
      const group = await readGroup(rc, slug);
      if (!group) return undefined;
      const id = String(group.id);
      const [daily, previous, rate] = await Promise.all([
        Promise.all(DORA_METRICS.map((m) => dora(id, m, span.current, "daily"))),
        Promise.all(
          DORA_METRICS.map((m) =>
            dora(id, m, span.previous, MEDIANS.includes(m as Median) ? "daily" : "all"),
          ),
        ),
        dora(id, "change_failure_rate", span.current, "all"),
      ]);
      const value = (points: Point[]) => points[0]?.value ?? 0;
      const entry: ProjectDora = {
        daily: Object.fromEntries(
          DORA_METRICS.map((m, i) => [m, daily[i]]),
        ) as ProjectDora["daily"],
        previous: Object.fromEntries(
          DORA_METRICS.map((m, i) => [m, MEDIANS.includes(m as Median) ? dailyMedian(previous[i]) : value(previous[i])]), // prettier-ignore
        ) as ProjectDora["previous"],
        previousDaily: Object.fromEntries(
          MEDIANS.map((m) => [m, previous[DORA_METRICS.indexOf(m)]]),
        ) as ProjectDora["previousDaily"],
        failureRate: value(rate),
      };
      return [slug, entry] as const;
    },
    Math.max(1, Math.floor(FAN_OUT / DORA_READS)),
  );
  return new Map(entries.filter((e) => e !== undefined));
}

async function readPipelines(
  rc: ReadContext,
  slugs: readonly string[],
  from: string,
  to: string,
): Promise<Map<string, LivePipeline[]>> {
  const once = stopOnFirstFailure();
  const lists = await mapBounded(slugs, (projectSlug) =>
    rc.once(`pipelines/${projectSlug}/${from}/${to}`, () =>
      once(() =>
        rc.api.call("metrics.pipelines", {
          params: { projectSlug },
          query: { startDate: from, endDate: to },
        }),
      ).then((list) => rc.count(list)),
    ),
  );
  return new Map(slugs.map((s, i) => [s, lists[i]]));
}

async function readUsage(rc: ReadContext, orgs: readonly string[]): Promise<Map<string, OrgUsage>> {
  const once = stopOnFirstFailure();
  const count = (op: "metrics.users" | "metrics.usersGit" | "metrics.usersArtifact", org: string) =>
    once(async () => rc.count(await rc.api.call(op, { query: { organization: org } })).data.count);
  const rows = await Promise.all(
    orgs.map(async (org) => {
      const [users, git, artifactservice] = await Promise.all([
        count("metrics.users", org),
        count("metrics.usersGit", org),
        count("metrics.usersArtifact", org),
      ]);
      return [org, { users, git, artifactservice }] as const;
    }),
  );
  return new Map(rows);
}

/** Read what the delivery report needs; `sections` gets dora, ci and usage, in that order. */
export async function readDeliveryLive(
  rc: ReadContext,
  span: { current: Period; previous: Period },
  sections: SectionStatus[],
): Promise<DeliveryLive> {
  const [organizations, list] = await Promise.all([readOrganizations(rc), readProjects(rc)]);
  const projects = list
    .map((p) => ({ slug: p.projectSlug, organization: p.organization }))
    .sort((a, b) => a.slug.localeCompare(b.slug));
  const slugs = projects.map((p) => p.slug);
  const [[dora, doraStatus], [pipelines, ciStatus], [usage, usageStatus]] = await Promise.all([
    guarded("dora", "DORA metrics", () => readDora(rc, slugs, span), undefined, { git: true }),
    guarded(
      "ci",
      "CI pipelines",
      () => readPipelines(rc, slugs, span.previous.start, span.current.end),
      undefined,
    ),
    guarded(
      "usage",
      "Usage",
      () =>
        readUsage(
          rc,
          organizations.map((o) => o.name),
        ),
      undefined,
    ),
  ]);
  sections.push(doraStatus, ciStatus, usageStatus);
  return {
    parentOrganization: organizations.find((o) => o.parentOrganization === null)?.name ?? "",
    organizations,
    projects,
    dora,
    pipelines,
    usage,
  };
}
