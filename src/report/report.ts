/**
 * Make a report: read live (access-read.ts, delivery-read.ts), build its data (access.ts,
 * delivery.ts) and wrap it with what every report carries — format version, when, which
 * service, the sections' status and the calls it took. Nothing here prints.
 */
import type { ApiClient } from "../api/client.js";
import { ReadContext } from "../engine/read-context.js";
import type { DesiredState } from "../manifest/types.js";
import { VERSION } from "../version.js";
import { buildAccess } from "./access.js";
import { readAccessLive } from "./access-read.js";
import { buildDelivery } from "./delivery.js";
import { readDeliveryLive } from "./delivery-read.js";
import { accessChanges, type PreviousReview } from "./since.js";
import type { Span } from "./span.js";
import { periods } from "./span.js";
import type { AccessReport, DeliveryReport, SectionStatus } from "./types.js";
import { REPORT_FORMAT_VERSION } from "./types.js";

/** What both reports are made with. */
export interface ReportRun {
  api: ApiClient;
  state: DesiredState;
  /** The service as the report records it: its URL, or "embedded". */
  apiUrl: string;
  /** The clock (tests fix it). */
  nowMs?: number;
}

function envelope(
  run: ReportRun,
  sections: SectionStatus[],
  startMs: number,
  calls: number,
  rc: ReadContext,
) {
  return {
    formatVersion: REPORT_FORMAT_VERSION,
    generatedAt: new Date(run.nowMs ?? Date.now()).toISOString(),
    phctlVersion: VERSION,
    apiUrl: run.apiUrl,
    sections,
    partial: sections.some((s) => s.status === "failed"),
    stats: {
      objectsRead: rc.objects,
      apiCalls: run.api.metrics.calls - calls,
      durationMs: Math.round(performance.now() - startMs),
    },
  } as const;
}

/** The access review. */
export async function makeAccessReport(
  run: ReportRun & {
    inactiveDays: number;
    serviceAccountPatterns: readonly string[];
    previous?: PreviousReview;
  },
): Promise<AccessReport> {
  const startMs = performance.now();
  const calls = run.api.metrics.calls;
  const rc = new ReadContext(run.api);
  const sections: SectionStatus[] = [];
  const live = await readAccessLive(rc, sections);
  const nowMs = run.nowMs ?? Date.now();
  const data = buildAccess({
    ...live,
    state: run.state,
    nowMs,
    inactiveDays: run.inactiveDays,
    serviceAccountPatterns: run.serviceAccountPatterns,
    ...(run.previous ? { previous: run.previous } : {}),
  });
  return {
    ...envelope({ ...run, nowMs }, sections, startMs, calls, rc),
    parentOrganization: live.parentOrganization,
    kind: "access",
    inactiveDays: run.inactiveDays,
    serviceAccountPatterns: [...run.serviceAccountPatterns],
    ...data,
    ...(run.previous ? { since: accessChanges(run.previous, data) } : {}),
  };
}

/** The delivery metrics over `period` (and the one before it). */
export async function makeDeliveryReport(
  run: ReportRun & { period: Span },
): Promise<DeliveryReport> {
  const startMs = performance.now();
  const calls = run.api.metrics.calls;
  const rc = new ReadContext(run.api);
  const nowMs = run.nowMs ?? Date.now();
  const span = periods(run.period, nowMs);
  const sections: SectionStatus[] = [];
  const live = await readDeliveryLive(rc, span, sections);
  return {
    ...envelope({ ...run, nowMs }, sections, startMs, calls, rc),
    parentOrganization: live.parentOrganization,
    kind: "delivery",
    ...buildDelivery(live, span),
  };
}
