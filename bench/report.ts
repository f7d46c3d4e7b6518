/**
 * bench/results.md: one section per size and latency (`<!-- begin M@20 -->` …
 * `<!-- end M@20 -->`), the sections of earlier runs kept, and a scaling table of the
 * no-change plan across sizes at the top, rebuilt from whatever sections exist; the
 * pull-request section (`<!-- begin pr -->`, bench/pr.ts) after it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import type { Organization, Size } from "./generate.js";

export interface Sample {
  /** The process's wall time (the baseline: its own wall time). */
  wallMs: number;
  /**
   * The time judged against the bound: a plan's read+diff (timed inside the process), an
   * apply from empty's walk; the process wall for the other scenarios.
   */
  phaseMs: number;
  calls: number;
  /** Peak RSS of the phctl process; NaN when it ran in the bench process (baseline). */
  maxRssKB: number;
  /** The bound for this sample, ms. */
  boundMs: number;
  cpuMs?: number;
  loadMs?: number;
  /** CPU of loading + validating the manifests, and of the pure diff (plan-child, when it says). */
  loadCpuMs?: number;
  diffCpuMs?: number;
  entries?: number;
  objectsRead?: number;
}

export interface Row {
  scenario: string;
  samples: Sample[];
  callsMin: number;
}

export const median = (xs: number[]): number => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor((s.length - 1) / 2)];
};
export const fmtS = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const n = (x: number) => x.toLocaleString("en-US");

/** What the scaling table needs of a section (kept in it as a JSON comment). */
export interface SectionData {
  size: Size;
  latency: number;
  resources: number;
  calls: number;
  readDiffMs: number;
  wallMs: number;
  rssMB: number;
}

export interface SectionInput {
  size: Size;
  latency: number;
  concurrency: number;
  runs: number;
  org: Organization;
  rows: Row[];
  notes: string[];
  machine: string;
}

export const NO_CHANGE = "plan, no change";
export const BASELINE = "baseline: GET per resource";

export function machine(): string {
  const cpu = cpus();
  return `${cpu[0]?.model ?? "unknown CPU"}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}, ${process.platform}/${process.arch}`;
}

export function section(s: SectionInput): string {
  const { org, rows } = s;
  const c = org.counts;
  const key = `${s.size}@${s.latency}`;
  const med = (r: Row, f: (x: Sample) => number | undefined) =>
    median(r.samples.map((x) => f(x) ?? NaN));
  const nc = rows.find((r) => r.scenario === NO_CHANGE);
  const data: SectionData | undefined = nc && {
    size: s.size,
    latency: s.latency,
    resources: org.resources,
    calls: med(nc, (x) => x.calls),
    readDiffMs: Math.round(med(nc, (x) => x.phaseMs)),
    wallMs: Math.round(med(nc, (x) => x.wallMs)),
    rssMB: Math.round(Math.max(...nc.samples.map((x) => x.maxRssKB)) / 1024),
  };
  const lines = [
    `<!-- begin ${key} -->`,
    ...(data ? [`<!-- data ${JSON.stringify(data)} -->`] : []),
    `## Size ${s.size}, latency ${s.latency} ms`,
    "",
    `${n(c.users)} users (${n(c.userServices)} service accounts), ${n(c.teams)} teams (${n(c.teamMembers)} memberships), ${n(c.projects)} projects (${n(c.accessEntries)} access entries, ${n(c.projectLicenses)} licenses), ${n(c.gitGroups)} git groups, ${n(c.subgroups)} subgroups, ${n(c.repositories)} repositories, ${n(c.mirrors)} mirrors, ${n(c.artifactRepositories)} artifact repositories = **${n(org.resources)} resources** (${n(org.identityObjects)} of them objects with an identity: users, teams, projects, git groups, subgroups, repositories, mirrors, artifact repositories). calls_min: no-change plan ${n(org.callsMin)}, export ${n(org.exportCallsMin)}. Latency ${s.latency} ms${s.latency ? " (±25 %)" : " (no bound but the apply from empty's: the others are made of latencies)"}, phctl concurrency ${s.concurrency}, median of ${s.runs}. Run ${new Date().toISOString().slice(0, 16)}Z on ${s.machine}.`,
    "",
    "| scenario | wall (process) | read+diff / walk | API calls | calls_min | calls / calls_min | calls / resource | peak RSS | lower bound | time / bound |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    const calls = med(r, (x) => x.calls);
    const rss = Math.max(...r.samples.map((x) => x.maxRssKB));
    const inBench = r.samples.every((x) => Number.isNaN(x.maxRssKB));
    const samePhase = r.samples.every((x) => x.phaseMs === x.wallMs);
    // 0 at latency 0: a bound made of latencies says nothing then.
    const bound = med(r, (x) => x.boundMs);
    lines.push(
      `| ${r.scenario} | ${fmtS(med(r, (x) => x.wallMs))} | ${samePhase ? "—" : fmtS(med(r, (x) => x.phaseMs))} | ${n(calls)} | ${n(r.callsMin)} | ${(calls / r.callsMin).toFixed(2)} | ${(calls / org.resources).toFixed(2)} | ${inBench ? "(bench process)" : `${Math.round(rss / 1024)} MB`} | ${bound > 0 ? fmtS(bound) : "—"} | ${bound > 0 ? med(r, (x) => x.phaseMs / x.boundMs).toFixed(2) : "—"} |`,
    );
  }
  lines.push("");
  const b = rows.find((r) => r.scenario === BASELINE);
  if (b && nc) {
    const pc = med(nc, (x) => x.calls);
    const bc = med(b, (x) => x.calls);
    const pt = med(nc, (x) => x.phaseMs);
    const bt = med(b, (x) => x.wallMs);
    lines.push(
      `**phctl no-change plan / per-resource baseline: calls ${(pc / bc).toFixed(3)} (${(bc / pc).toFixed(1)}× fewer), time ${(pt / bt).toFixed(3)} (${(bt / pt).toFixed(1)}× faster; read+diff vs the baseline's wall).**`,
      "",
    );
  }
  if (nc) {
    const cpu = (f: (x: Sample) => number | undefined) => {
      const v = med(nc, f);
      return Number.isNaN(v) ? undefined : fmtS(v);
    };
    const parts = [
      `manifest load ${cpu((x) => x.loadMs)}`,
      cpu((x) => x.loadCpuMs) && `load + validate CPU ${cpu((x) => x.loadCpuMs)}`,
      cpu((x) => x.diffCpuMs) && `diff CPU ${cpu((x) => x.diffCpuMs)}`,
      `process CPU ${cpu((x) => x.cpuMs)} (load + client + diff, network waits excluded)`,
    ].filter(Boolean);
    lines.push(`No-change plan inside phctl: ${parts.join(", ")}.`, "");
  }
  for (const x of s.notes) lines.push(`- ${x}`);
  lines.push(`<!-- end ${key} -->`);
  return lines.join("\n");
}

const SIZE_ORDER: Size[] = ["S", "M", "L"];
const SECTION = /<!-- begin ([SML])(?:@(\d+))? -->[\s\S]*?<!-- end \1(?:@\2)? -->/g;

/** The sections of a results file by `SIZE@LATENCY` (sections without a latency: 20 ms). */
export function parseSections(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(SECTION)) {
    const key = `${m[1]}@${m[2] ?? "20"}`;
    const body = m[2]
      ? m[0]
      : m[0]
          .replace(`<!-- begin ${m[1]} -->`, `<!-- begin ${key} -->`)
          .replace(`<!-- end ${m[1]} -->`, `<!-- end ${key} -->`);
    out.set(key, body);
  }
  return out;
}

/** A section's no-change figures: its data comment, else its table's row (older sections). */
export function sectionData(key: string, body: string): SectionData | undefined {
  const d = /<!-- data (\{.*?\}) -->/.exec(body);
  if (d) return JSON.parse(d[1]) as SectionData;
  const row = body.split("\n").find((l) => /^\|\s*plan, no change\s*\|/.test(l));
  if (!row) return undefined;
  const cells = row.split("|").map((x) => x.trim());
  const secs = (x: string) => Number(x.replace(/\s*s$/, "")) * 1000;
  const [size, latency] = key.split("@");
  return {
    size: size as Size,
    latency: Number(latency),
    resources: NaN,
    wallMs: secs(cells[2]),
    readDiffMs: secs(cells[3]),
    calls: Number(cells[4].replace(/,/g, "")),
    rssMB: Number(/(\d+) MB/.exec(cells[8] ?? "")?.[1] ?? NaN),
  };
}

const sortKeys = (keys: Iterable<string>) =>
  [...keys].sort((a, b) => {
    const [sa, la] = a.split("@");
    const [sb, lb] = b.split("@");
    return SIZE_ORDER.indexOf(sa as Size) - SIZE_ORDER.indexOf(sb as Size) || +la - +lb;
  });

/** The scaling table: the no-change plan S → M → L, per latency, ratios to the size before. */
export function scalingTable(sections: Map<string, string>, resourcesOf: (s: Size) => number) {
  const data = sortKeys(sections.keys())
    .map((k) => sectionData(k, sections.get(k)!))
    .filter((d): d is SectionData => d !== undefined);
  const latencies = [...new Set(data.map((d) => d.latency))].sort((a, b) => a - b);
  if (data.length === 0) return [];
  const x = (a: number, b: number | undefined) =>
    b === undefined || !b ? "—" : `${(a / b).toFixed(2)}×`;
  const lines = [
    "## Scaling: no-change plan, S → M → L",
    "",
    "Growth from the size before: resources, API calls, read+diff (inside phctl) and process wall. Linear growth: read+diff grows like the calls (last column ≈ 1).",
    "",
    "| latency | size | resources | API calls | read+diff | wall (process) | peak RSS | resources × | calls × | read+diff × | wall × | read+diff × / calls × |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const lat of latencies) {
    let prev: (SectionData & { res: number }) | undefined;
    for (const size of SIZE_ORDER) {
      const d = data.find((y) => y.latency === lat && y.size === size);
      if (!d) continue;
      const res = Number.isNaN(d.resources) ? resourcesOf(size) : d.resources;
      const callsX = prev ? d.calls / prev.calls : undefined;
      const timeX = prev ? d.readDiffMs / prev.readDiffMs : undefined;
      lines.push(
        `| ${lat} ms | ${size} | ${n(res)} | ${n(d.calls)} | ${fmtS(d.readDiffMs)} | ${fmtS(d.wallMs)} | ${Number.isNaN(d.rssMB) ? "—" : `${d.rssMB} MB`} | ${x(res, prev?.res)} | ${x(d.calls, prev?.calls)} | ${x(d.readDiffMs, prev?.readDiffMs)} | ${x(d.wallMs, prev?.wallMs)} | ${callsX && timeX ? (timeX / callsX).toFixed(2) : "—"} |`,
      );
      prev = { ...d, res };
    }
  }
  lines.push("");
  return lines;
}

const PR_BLOCK = /<!-- begin pr -->[\s\S]*?<!-- end pr -->/;

/**
 * Merge new sections into `file` (others kept), rebuild the scaling table, prettier it.
 * `pr`: the pull-request section (bench/pr.ts), placed after the scaling table; without
 * it, the file's own is kept.
 */
export function writeResults(
  file: string,
  fresh: Map<string, string>,
  resourcesOf: (s: Size) => number,
  pr?: string,
): void {
  const old = existsSync(file) ? readFileSync(file, "utf8") : "";
  const sections = parseSections(old);
  for (const [k, v] of fresh) sections.set(k, v);
  const prBlock = pr ?? PR_BLOCK.exec(old)?.[0];
  // Blocks other scripts write (startup, loading, soak, apply-cpu…) are kept as they are.
  const others = [...old.matchAll(/<!-- begin ([a-z][a-z-]*) -->[\s\S]*?<!-- end \1 -->/g)]
    .filter((m) => m[1] !== "pr")
    .map((m) => `${m[0].trimEnd()}\n`);
  const body = [
    "# Benchmark results",
    "",
    "Generated by `npm run bench` (bench/run.ts; definitions in bench/README.md). One section per size and latency; a run replaces only its own sections.",
    "",
    ...scalingTable(sections, resourcesOf),
    ...(prBlock ? [`${prBlock.trimEnd()}\n`] : []),
    ...sortKeys(sections.keys()).map((k) => `${sections.get(k)}\n`),
    ...others,
  ].join("\n");
  writeFileSync(file, body);
  try {
    // Tables as prettier would lay them out, so `npm run lint` stays clean.
    execFileSync(join(import.meta.dirname, "../node_modules/.bin/prettier"), ["--write", file], {
      stdio: "ignore",
    });
  } catch {
    console.error("prettier not available: results.md left unformatted");
  }
}
