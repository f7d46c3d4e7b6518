/**
 * The "Apply CPU and memory" section of bench/results.md (bench/apply-cpu-report.ts): a
 * run replaces its own table, keeps the other tables and the words written above them by
 * hand; rows show the other threads' CPU and the bare HTTP floor when measured, "–" when not.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  bestLines,
  rowLine,
  writeSection,
  type CpuRow,
  type CpuTable,
} from "../../bench/apply-cpu-report.js";

const row = (build: string, cpuMs: number, extra: Partial<CpuRow> = {}): CpuRow => ({
  build,
  actions: 1000,
  cpuMs,
  beforeMs: 100,
  walkMs: cpuMs - 200,
  afterMs: 100,
  rssMB: 150,
  wallMs: 5000,
  load: "0.10 → 0.20",
  ...extra,
});

const table = (key: string, rows: CpuRow[]): CpuTable => ({
  key,
  setup: `Size M, latency ${key.split("@")[1]} ms`,
  machine: "test machine",
  when: "2026-11-24T00:00Z",
  rows,
});

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function results(text: string): string {
  dir = mkdtempSync(join(tmpdir(), "phctl-cpu-report-"));
  const file = join(dir, "results.md");
  writeFileSync(file, text);
  return file;
}

describe("apply-cpu section of results.md", () => {
  it("rows show the threads' CPU and the floor per action when measured, – when not", () => {
    expect(rowLine(row("now", 300, { threadsMs: 120, floorMs: 50 }))).toContain(
      "| 0.300 ms | 0.30 s | 0.100 ms | 0.10 s | 0.10 s | 0.12 s | 0.050 ms | 150 MB |",
    );
    expect(rowLine(row("old", 900))).toContain("| 0.10 s | – | – | 150 MB |");
  });

  it("the best line says what a build costs above the bare HTTP exchange of its calls", () => {
    const rows = [
      row("now", 380, { floorMs: 100 }),
      row("now", 370, { floorMs: 110 }),
      row("old", 900),
    ];
    expect(bestLines(rows)).toEqual([
      "now: best 0.370 ms CPU per action (0.260–0.280 ms above the bare HTTP exchange of its calls), peak RSS 150 MB (2 runs)",
      "old: best 0.900 ms CPU per action, peak RSS 150 MB (1 run)",
    ]);
  });

  it("a first run writes the section with its opening words", () => {
    const file = results("# Results\n\nOther sections.\n");
    writeSection(file, table("M@0", [row("now", 300)]));
    const text = readFileSync(file, "utf8");
    expect(text.startsWith("# Results\n\nOther sections.\n")).toBe(true);
    expect(text).toContain("## Apply CPU and memory");
    expect(text).toContain("Targets at size M: ≤ 0.3 ms CPU per action");
    expect(text).toContain("### Size M, latency 0 ms");
  });

  it("a later run keeps the words written by hand and the other latency's table", () => {
    const file = results("# Results\n");
    writeSection(file, table("M@0", [row("now", 300)]));
    const edited = readFileSync(file, "utf8").replace(
      "## Apply CPU and memory\n",
      "## Apply CPU and memory\n\nA finding written by hand.\n",
    );
    writeFileSync(file, `${edited}\nAfter the section.\n`);
    writeSection(file, table("M@20", [row("now", 400)]));
    writeSection(file, table("M@0", [row("before", 900), row("now", 250)]));
    const text = readFileSync(file, "utf8");
    expect(text).toContain("A finding written by hand.");
    expect(text.match(/## Apply CPU and memory/g)).toHaveLength(1);
    expect(text).toContain("### Size M, latency 20 ms");
    expect(text).toContain("- now: best 0.250 ms CPU per action");
    expect(text).not.toContain("- now: best 0.300 ms CPU per action");
    expect(text.indexOf("### Size M, latency 0 ms")).toBeLessThan(
      text.indexOf("### Size M, latency 20 ms"),
    );
    expect(text.trimEnd().endsWith("After the section.")).toBe(true);
  });
});
