/**
 * The redactor's cost (src/secrets.ts) over a benchmark-sized plan: 20,000 entries whose
 * before/after values are ordinary text, one in 100 holding a token (glued to a word, after
 * a newline, after `%3D`) and one in 100 a registered credential URL-encoded (five are
 * registered) — the way `phctl plan` masks it
 * (`redactValue` over the plan) and the way a file is written (`redact` over the whole JSON
 * text), plus adversarial strings (long runs of prefixes and near-tokens) that a
 * backtracking pattern would make quadratic. Best of `runs`, in milliseconds.
 *
 * bench/redact.ts prints it; test/bench/redact-smoke.test.ts runs it small.
 */
import { performance } from "node:perf_hooks";
import { redact, redactValue, registerSecret } from "../src/secrets.js";

export interface RedactBench {
  entries: number;
  /** The plan as JSON text, in characters. */
  chars: number;
  /** `redactValue(plan)`, best of the runs. */
  valueMs: number;
  /** `redact(JSON text of the plan)`, best of the runs. */
  textMs: number;
  /** The same with every token after a space (what the old pattern found too). */
  spacedMs: number;
  /** `redact` over the same plan's text without any token: the cost of looking. */
  cleanMs: number;
  /** `redact` over 1 MB of near-tokens (prefixes and short bodies, no token), best of the runs. */
  adversarialMs: number;
  /** How many masks the text run left (`***`): the tokens were found. */
  masks: number;
}

const REGISTERED = ["bench-api-Qm7Lz2Rk9Vw4", "bench-file-Hp3Xc8Tn1Jd6", "bench/git+Bv5Ns0=="];
const body = (i: number) => `${"Ab1Cd2Ef3G".repeat(4)}${i}`;

/**
 * A plan-like value: `entries` description changes, one in 100 holding a token glued to
 * what comes before it (or after a space: `spaced`) and one in 100 a registered credential.
 */
export function benchPlan(
  entries: number,
  tokens: "glued" | "spaced" | "none" = "glued",
): { entries: unknown[] } {
  const out: unknown[] = [];
  const glue = (before: string) => (tokens === "spaced" ? " " : before);
  for (let i = 0; i < entries; i++) {
    const token =
      tokens === "none"
        ? ""
        : i % 100 === 0
          ? [`${glue("x")}ghp_${body(i)}`, `${glue("line\n")}glpat-${body(i)}`, `${glue("token%3D")}ghs_${body(i)}`][(i / 100) % 3] // prettier-ignore
          : i % 100 === 50
            ? `?u=${encodeURIComponent(REGISTERED[2])}`
            : "";
    out.push({
      key: `project/p${i % 2000}/repo/r${i}`,
      kind: "Repository",
      action: "update",
      before: { description: `old text of repository ${i}, gh_pages and high_score` },
      after: { description: `a much longer new description of repository ${i} ${token}` },
      changes: [{ field: "description", before: `old ${i}`, after: `new ${i} ${token}` }],
      reason: "description differs",
    });
  }
  return { entries: out };
}

function best(runs: number, f: () => unknown): number {
  let min = Infinity;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    f();
    min = Math.min(min, performance.now() - t);
  }
  return Math.round(min * 10) / 10;
}

/** Measure (registers five credentials, as a CI job with every token set would). */
export function redactBench(o: { entries: number; runs: number }): RedactBench {
  for (const s of REGISTERED) registerSecret(s);
  registerSecret(`ghs_${"GhEnvTok3n".repeat(4)}`);
  registerSecret("bench-gitlab-Ku4Fm9Gr6Sa1");
  const plan = benchPlan(o.entries);
  const text = JSON.stringify(plan, null, 2);
  const spaced = JSON.stringify(benchPlan(o.entries, "spaced"), null, 2);
  const clean = JSON.stringify(benchPlan(o.entries, "none"), null, 2);
  const near = `ghp_short gho_${"a".repeat(35)}! glpat-x github_pat_ab glpat-migration-tools-2024 `;
  const adversarial = near.repeat(Math.ceil(1_000_000 / near.length));
  redact(text); // warm-up
  return {
    entries: o.entries,
    chars: text.length,
    valueMs: best(o.runs, () => redactValue(plan)),
    textMs: best(o.runs, () => redact(text)),
    spacedMs: best(o.runs, () => redact(spaced)),
    cleanMs: best(o.runs, () => redact(clean)),
    adversarialMs: best(o.runs, () => redact(adversarial)),
    masks: redact(text).split("***").length - 1,
  };
}
