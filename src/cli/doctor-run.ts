/**
 * `phctl doctor` from start to end: the network checks, the first call (URL, token, parent
 * organization), every read operation, the clock and rate limits — and, when reads did not
 * fit in ways a profile line can describe, the reads once more with those lines applied
 * (in memory), so that one run names every line the profile needs; then, with a git token,
 * the git host's delivery-metrics API (doctor-git.ts). Prints nothing.
 */
import type { ApiClient } from "../api/client.js";
import type { NetworkSettings } from "../api/network.js";
import type { ApiProfile } from "../api/profile.js";
import {
  clockCheck,
  firstCallChecks,
  networkChecks,
  parentCheck,
  profileCheck,
  rateLimitCheck,
  ROLE,
  tlsCheck,
} from "./doctor-checks.js";
import { applyProfileFixes, concrete } from "./doctor-fixes.js";
import { deliveryMetricsCheck, type GitSettings } from "./doctor-git.js";
import { Prober, type Answer, type Refusal } from "./doctor-probe.js";
import { QUEUE_STATUS_READS, probeReads } from "./doctor-reads.js";
import { reportOk, type Check, type DoctorReport, type ReadCheck } from "./doctor-report.js";

export interface DoctorInput {
  client: ApiClient;
  apiUrl: string;
  network: NetworkSettings;
  /** The profile the client calls through (the default: the route table as it is). */
  profile: ApiProfile;
  /** phctl.yaml's `organization:`, to compare with the token's. */
  organization?: string;
  /** Clock skew that earns a warning, ms (default 30 s). */
  maxSkewMs?: number;
  /** What is set for the delivery-metrics API (default: nothing, so it is not checked). */
  git?: GitSettings;
}

const fixesOf = (reads: readonly ReadCheck[]): string[] => [
  ...new Set(reads.flatMap((r) => (r.shape ?? []).flatMap((s) => s.profileFix ?? []))),
];

/**
 * Read again with the suggested lines that have a value applied, while that finds more
 * (at most 3 rounds). A line without one (`<the service's name>`) is left out rather than
 * stopping the others being tried; `profileFixes` of the result is exactly what was applied.
 */
async function readWithFixes(
  o: DoctorInput,
  orgList: Answer | Refusal,
  parent: string | undefined,
  first: string[],
): Promise<DoctorReport["withFixes"]> {
  let lines = first.filter(concrete);
  let result: DoctorReport["withFixes"];
  for (let round = 0; round < 3 && lines.length > 0; round++) {
    const profile = applyProfileFixes(o.profile, lines);
    if (!profile) return result;
    const { rows: reads } = await probeReads(new Prober(o.client, profile), orgList, parent);
    result = { profileFixes: lines, reads };
    const more = fixesOf(reads).filter((l) => concrete(l) && !lines.includes(l));
    if (more.length === 0) return result;
    lines = [...lines, ...more];
  }
  return result;
}

/** Probe the service; the report says whether phctl can work with it. */
export async function runDoctor(o: DoctorInput): Promise<DoctorReport> {
  const p = new Prober(o.client, o.profile);
  const checks: Check[] = [
    ...networkChecks(o.apiUrl, o.network),
    await tlsCheck(o.apiUrl, o.network),
  ];
  const orgList = await p.get("organizations.list");
  checks.push(...firstCallChecks(o.apiUrl, orgList));
  const usable =
    orgList.ok || (orgList.status !== 0 && orgList.status !== 401 && orgList.status !== 403);
  const { check, parent } = parentCheck(orgList, o.organization);
  checks.push(check, ROLE);
  const found = usable ? await probeReads(p, orgList, parent) : undefined;
  const reads = found?.rows ?? [];
  const fixes = fixesOf(reads);
  const withFixes = fixes.length ? await readWithFixes(o, orgList, parent, fixes) : undefined;
  const git = o.git ?? { token: false, url: false };
  checks.push(
    await deliveryMetricsCheck(o.client, o.profile, git, found?.gitGroup),
    clockCheck(p, o.maxSkewMs ?? 30_000),
    rateLimitCheck(p),
    profileCheck(o.profile),
  );
  const report: DoctorReport = {
    formatVersion: 1,
    apiUrl: o.apiUrl,
    ok: false,
    checks,
    reads,
    notProbed: [
      {
        operations: QUEUE_STATUS_READS,
        why: "they need the id of a job that a write queued; doctor never writes",
      },
    ],
    profileFixes: [
      ...new Set([
        ...fixes,
        ...(withFixes ? [...withFixes.profileFixes, ...fixesOf(withFixes.reads)] : []),
      ]),
    ],
    ...(withFixes ? { withFixes } : {}),
  };
  report.ok = reportOk(report) && usable;
  return report;
}
