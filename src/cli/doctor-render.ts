/**
 * `phctl doctor`'s report as a table for people (pure: report and style in, text out) and
 * as JSON; the profile fixes as the YAML to put in an API profile.
 */
import type { Style } from "../render/style.js";
import { concrete } from "./doctor-fixes.js";
import { countByStatus } from "./doctor-reads.js";
import type { CheckStatus, DoctorReport } from "./doctor-report.js";

const pad = (s: string, n: number) => (s.length >= n ? `${s} ` : s.padEnd(n));

function mark(status: CheckStatus, st: Style): string {
  const word = pad(status, 6);
  switch (status) {
    case "ok":
      return st.green(word);
    case "warn":
      return st.yellow(word);
    case "fail":
      return st.red(word);
    case "info":
    case "skip":
      return st.dim(word);
  }
}

/** Dotted profile lines (`envelope.list.items: items`) as one nested YAML snippet. */
export function profileYaml(lines: readonly string[]): string[] {
  const root = new Map<string, unknown>();
  for (const line of lines) {
    const i = line.indexOf(": ");
    const keys = line.slice(0, i).split(".");
    // Operation ids hold a dot themselves: `operations.users.get.path`.
    const path =
      keys[0] === "operations" && keys.length > 3
        ? ["operations", keys.slice(1, -1).join("."), keys.at(-1)!]
        : keys;
    let node = root;
    for (const k of path.slice(0, -1)) {
      if (!(node.get(k) instanceof Map)) node.set(k, new Map());
      node = node.get(k) as Map<string, unknown>;
    }
    node.set(path.at(-1)!, line.slice(i + 2));
  }
  const out: string[] = [];
  const walk = (m: Map<string, unknown>, depth: number) => {
    for (const [k, v] of m) {
      const indent = "  ".repeat(depth);
      if (v instanceof Map) {
        out.push(`${indent}${k}:`);
        walk(v as Map<string, unknown>, depth + 1);
      } else out.push(`${indent}${k}: ${String(v)}`);
    }
  };
  walk(root, 0);
  return out;
}

/** The report as a table. */
export function renderDoctorText(r: DoctorReport, st: Style): string {
  const out: string[] = [`phctl doctor: ${r.apiUrl}`, ""];
  const w = Math.max(...r.checks.map((c) => c.name.length), 5) + 2;
  out.push(st.bold(`  ${pad("CHECK", w)}${pad("STATUS", 8)}DETAIL`));
  for (const c of r.checks) {
    out.push(`  ${pad(c.name, w)}${mark(c.status, st)}  ${c.detail}`);
    if (c.fix) out.push(`  ${" ".repeat(w + 8)}→ ${c.fix}`);
  }
  if (r.reads.length > 0) {
    const wo = Math.max(...r.reads.map((x) => x.operation.length)) + 2;
    const wp = Math.max(...r.reads.map((x) => x.method.length + x.path.length + 1)) + 2;
    out.push(
      "",
      st.bold(`  ${pad("READ OPERATION", wo)}${pad("ROUTE", wp)}${pad("STATUS", 8)}RESULT`),
    );
    for (const x of r.reads) {
      const paging = x.paging?.detail ? `; ${x.paging.detail}` : "";
      const args = x.params ? ` [${Object.values(x.params).join(", ")}]` : "";
      out.push(
        `  ${pad(x.operation, wo)}${pad(`${x.method} ${x.path}`, wp)}${mark(x.status, st)}  ${x.detail}${args}${paging}`,
      );
      for (const s of x.shape ?? []) {
        const where = s.path === "" ? "" : `${s.path} `;
        const had = s.had ? ` (it had: ${s.had.join(", ") || "no fields"})` : "";
        const fix = s.profileFix ? ` → profile: ${s.profileFix}` : "";
        out.push(`  ${" ".repeat(wo)}${where}expected ${s.expected}, got ${s.got}${had}${fix}`);
      }
    }
  }
  for (const n of r.notProbed)
    out.push("", st.dim(`  Not probed: ${n.operations.join(", ")} — ${n.why}.`));
  if (r.profileFixes.length > 0) {
    out.push("", "  Fix with an API profile (apiProfile: in phctl.yaml, or --api-profile FILE):");
    for (const l of profileYaml(r.profileFixes)) out.push(`    ${l}`);
  }
  if (r.withFixes) out.push("", ...withFixesLines(r.profileFixes, r.withFixes, st));
  out.push("", summary(r, st));
  return `${out.join("\n")}\n`;
}

/**
 * What reading again with the suggested lines applied showed, naming the lines it could
 * not apply (no value guessed, or found by the last re-read).
 */
function withFixesLines(
  all: readonly string[],
  w: NonNullable<DoctorReport["withFixes"]>,
  st: Style,
): string[] {
  const fits = w.reads.filter((x) => x.status === "ok").length;
  const left = all.filter((l) => !w.profileFixes.includes(l));
  const keys = (ls: string[]) => ls.map((l) => l.slice(0, l.indexOf(": "))).join(", ");
  const unvalued = left.filter((l) => !concrete(l));
  const late = left.filter(concrete);
  const not = [
    ...(unvalued.length ? [`${keys(unvalued)}: the service's value is needed`] : []),
    ...(late.length ? [`${keys(late)}: found by the last re-read`] : []),
  ];
  const which =
    left.length === 0
      ? all.length === 1
        ? "that line applied"
        : "those lines applied"
      : `the other lines applied (not ${not.join("; not ")})`;
  const lines = [`  Read again with ${which}: ${fits} of ${w.reads.length} read operations fit.`];
  for (const x of w.reads.filter((y) => y.status === "fail")) {
    const shape = (x.shape ?? []).map(
      (s) => `${s.path ? `${s.path} ` : ""}expected ${s.expected}, got ${s.got}`,
    );
    if (x.paging?.detail) shape.push(x.paging.detail);
    lines.push(`    ${st.red("fail")}  ${x.operation}: ${[x.detail, ...shape].join("; ")}`);
  }
  return lines;
}

function summary(r: DoctorReport, st: Style): string {
  const c = countByStatus([...r.checks, ...r.reads]);
  const fits = r.reads.filter((x) => x.status === "ok").length;
  const warns = c.warn ? ` (${c.warn} warning${c.warn === 1 ? "" : "s"})` : "";
  if (r.ok)
    return st.green(
      `phctl can work with this service: ${fits} of ${r.reads.length} read operations fit${warns}.`,
    );
  const failed = [
    ...r.checks.filter((x) => x.status === "fail").map((x) => x.name),
    ...r.reads.filter((x) => x.status === "fail").map((x) => x.operation),
  ];
  const what = failed.length ? failed.join(", ") : "the service could not be read";
  return st.red(
    `phctl cannot work with this service as it is: ${failed.length || 1} problem${failed.length === 1 ? "" : "s"} (${what}).`,
  );
}

/** The report as JSON (the DoctorReport, as it is). */
export function renderDoctorJson(r: DoctorReport): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}
