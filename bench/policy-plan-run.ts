/**
 * What change rules cost a no-change plan (issue 29: at most 10 % at size M). One seeded
 * reference server in a child process; the same manifests planned without and with
 * `rules` change rules (a `policies.yaml` of `kind: Policy` documents beside them) by
 * `bench/plan-child.js` in its own process, alternately, `runs` times each. The figure is
 * the median of the plan's read+diff phase and of the process's wall and CPU (the rules
 * are compiled in the load, evaluated on every plan entry). Used by bench/policy-plan.ts and
 * the smoke test.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../src/api/client.js";
import { generate, SIZES, writeOrganization, type Size } from "./generate.js";
import { median } from "./report.js";
import { runNode, serve, writeExitHook } from "./serve.js";

const PLAN_CHILD = join(import.meta.dirname, "plan-child.js");
const TOKEN = "bench-token-policy";

/** The kinds change rules select, in turn. */
const KINDS = ["Project", "Repository", "User", "Team"] as const;

/**
 * `n` change rules over the four kinds (one policy per kind), each a distinct expression
 * over the entry: what an organization's "archive before delete", "no visibility change"
 * and the like cost.
 */
export function changePolicies(n: number): string {
  const docs: string[] = [];
  for (const [k, kind] of KINDS.entries()) {
    const rules: string[] = [];
    for (let i = k; i < n; i += KINDS.length)
      rules.push(
        [
          `    - name: rule-${i}`,
          `      expression: 'change.action != "delete" || change.key != "${kind.toLowerCase()}/never-${i}" || size(change.fields) > ${i}'`,
          `      message: change rule ${i} is broken`,
        ].join("\n"),
      );
    if (rules.length === 0) continue;
    docs.push(
      [
        "apiVersion: phctl/v1",
        "kind: Policy",
        `metadata: { name: changes-${kind.toLowerCase()} }`,
        "spec:",
        `  select: { kind: ${kind} }`,
        "  scope: change",
        "  enforcement: deny",
        "  rules:",
        ...rules,
      ].join("\n"),
    );
  }
  return `${docs.join("\n---\n")}\n`;
}

export interface PolicyPlanSample {
  wallMs: number;
  planMs: number;
  cpuMs: number;
  entries: number;
  violations: number;
  /** Policies the plan was checked against (the child's load). */
  policies: number;
}

export interface PolicyPlanResult {
  size: Size;
  rules: number;
  runs: number;
  latency: number;
  without: PolicyPlanSample;
  with: PolicyPlanSample;
  /** (with − without) / without of the read+diff phase, and of the process wall. */
  overheadPlan: number;
  overheadWall: number;
}

export interface PolicyPlanOptions {
  size: Size;
  rules: number;
  runs: number;
  latency: number;
  concurrency: number;
  log?: (s: string) => void;
}

const mid = (xs: PolicyPlanSample[]): PolicyPlanSample => ({
  wallMs: median(xs.map((x) => x.wallMs)),
  planMs: median(xs.map((x) => x.planMs)),
  cpuMs: median(xs.map((x) => x.cpuMs)),
  entries: Math.max(...xs.map((x) => x.entries)),
  violations: Math.max(...xs.map((x) => x.violations)),
  policies: Math.max(...xs.map((x) => x.policies)),
});

export async function policyPlanBench(o: PolicyPlanOptions): Promise<PolicyPlanResult> {
  const log = o.log ?? (() => {});
  const root = mkdtempSync(join(tmpdir(), "phctl-bench-policy-"));
  try {
    const org = generate(SIZES[o.size]);
    const { dir, seed } = writeOrganization(org, root);
    const withRules = join(root, "with-rules");
    cpSync(dir, withRules, { recursive: true });
    writeFileSync(join(withRules, "policies.yaml"), changePolicies(o.rules));
    const hook = writeExitHook(root);
    const { url, child } = await serve({ token: TOKEN, seedFile: seed, latency: o.latency });
    const api = new ApiClient({ apiUrl: url, token: TOKEN, concurrency: 4 });
    try {
      const once = async (manifests: string): Promise<PolicyPlanSample> => {
        const r = await runNode([PLAN_CHILD, manifests, url, String(o.concurrency)], {
          env: { PHCTL_TOKEN: TOKEN },
          hook,
          cwd: root,
        });
        if (r.code !== 0) throw new Error(`plan failed (${r.code}): ${r.stderr}`);
        const out = JSON.parse(r.stdout.trim().split("\n").pop()!) as {
          planMs: number;
          entries: number;
          violations?: number;
          policies?: number;
        };
        return {
          wallMs: r.wallMs,
          planMs: out.planMs,
          cpuMs: r.cpuMs,
          entries: out.entries,
          violations: out.violations ?? 0,
          policies: out.policies ?? 0,
        };
      };
      // A first plan of each warms the server's caches; then alternately, so drift in the
      // machine's load falls on both alike.
      await once(dir);
      await once(withRules);
      const without: PolicyPlanSample[] = [];
      const withP: PolicyPlanSample[] = [];
      for (let i = 0; i < o.runs; i++) {
        without.push(await once(dir));
        withP.push(await once(withRules));
        log(
          `run ${i + 1}: without rules ${without.at(-1)!.planMs.toFixed(0)} ms, with ${o.rules} change rules ${withP.at(-1)!.planMs.toFixed(0)} ms (read+diff)`,
        );
      }
      const a = mid(without);
      const b = mid(withP);
      return {
        size: o.size,
        rules: o.rules,
        runs: o.runs,
        latency: o.latency,
        without: a,
        with: b,
        overheadPlan: (b.planMs - a.planMs) / a.planMs,
        overheadWall: (b.wallMs - a.wallMs) / a.wallMs,
      };
    } finally {
      await api.close();
      child.kill();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
