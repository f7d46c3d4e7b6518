/* global process, performance */
// The phctl side of a plan benchmark, in its own process (bench/run.ts spawns it), so that
// its peak RSS and CPU are phctl's alone: load the manifests, read live state, diff — what
// `phctl plan` does minus rendering — with an explicit client concurrency. Uses the built
// code (npm run build). Prints one JSON line; CPU times are process.cpuUsage() deltas:
// loadCpuMs = reading + validating the manifests, diffCpuMs = the diff alone (live state
// in memory), cpuMs = the whole process (network handling included).
//   node bench/plan-child.js MANIFEST_DIR API_URL CONCURRENCY   (token in PHCTL_TOKEN)
import { ApiClient } from "../dist/api/client.js";
import { runPlanWithLive } from "../dist/engine/run-plan.js";
import { loadManifests } from "../dist/pipeline/load.js";
import { planPoliciesOf } from "../dist/cli/plan-policies.js";

const [dir, apiUrl, concurrency] = process.argv.slice(2);
const cpuMs = (u) => (u.user + u.system) / 1000;
const t0 = performance.now();
const c0 = process.cpuUsage();
const loaded = await loadManifests([dir]);
const { state, diagnostics } = loaded;
if (!state) {
  process.stderr.write(JSON.stringify(diagnostics.slice(0, 3)) + "\n");
  process.exit(1);
}
const loadCpuMs = cpuMs(process.cpuUsage(c0));
const t1 = performance.now();
const api = new ApiClient({
  apiUrl,
  token: process.env.PHCTL_TOKEN,
  concurrency: Number(concurrency),
});
// The organization's policies, as `phctl plan` checks them (none in most configs).
const policies = planPoliciesOf(loaded);
const { plan, diffCpuMs } = await runPlanWithLive({ api, state, apiUrl, policies });
await api.close();
const t2 = performance.now();
process.stdout.write(
  JSON.stringify({
    loadMs: t1 - t0,
    planMs: t2 - t1,
    loadCpuMs,
    diffCpuMs,
    entries: plan.entries.length,
    violations: plan.violations.length,
    policies: policies.policies.length,
    stats: plan.stats,
    cpuMs: cpuMs(process.cpuUsage()),
    maxRssKB: process.resourceUsage().maxRSS,
  }) + "\n",
);
