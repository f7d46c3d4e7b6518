/**
 * Apply benchmark (not part of `npm test`): a 50-project organization applied from empty
 * against `phctl serve --queue-delay 200 --latency 20` in its own process (so the server's
 * CPU does not share the client's event loop). Judges the executor against the bound any
 * schedule is held to:
 *
 *   wall time  vs  critical path + total API time / concurrency
 *
 * - wall time: from `apply-started` to the last action (concurrency 8, the default);
 * - total API time: the server's time for every request of the walk (its request log);
 * - critical path: the heaviest dependency chain of the 50-project graph, weighting each
 *   node with the mean uncontended duration of its kind and action, measured by applying a
 *   small organization (3 projects) one action at a time on a fresh server.
 *
 *   npm run build
 *   node -e "import('vite').then((v) => v.runnerImport('./bench/apply.ts'))"
 *
 * Env: BENCH_PROJECTS (50), BENCH_LATENCY (20), BENCH_QUEUE_DELAY (200), BENCH_CONCURRENCY (8).
 */
import { readLog, serve } from "./serve.js";
import { ApiClient } from "../src/api/client.js";
import type { ApplyEvent } from "../src/engine/apply-events.js";
import { planGraph, runApply, walk } from "../src/engine/apply.js";
import { criticalPath } from "../src/engine/graph.js";
import { runPlanWithLive } from "../src/engine/run-plan.js";
import { loadManifestTexts } from "../src/manifest/index.js";
import type { DesiredState } from "../src/manifest/types.js";

const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 50);
const LATENCY = Number(process.env.BENCH_LATENCY ?? 20);
const QUEUE_DELAY = Number(process.env.BENCH_QUEUE_DELAY ?? 200);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const TOKEN = "bench-token-5f1e";

/** The synthetic organization: users with git accounts, teams, projects with git and access. */
function manifests(PROJECTS: number, USERS: number): DesiredState {
  const u = (i: number) => `user${i % USERS}`;
  const users = Array.from(
    { length: USERS },
    (_, i) =>
      `---\napiVersion: phctl/v1\nkind: User\nmetadata: { name: ${u(i)} }\nspec:\n  firstName: F${i}\n  lastName: L${i}\n  externalEmail: ${u(i)}@example.org\n  services: { git: {} }\n`,
  ).join("");
  const teams = Array.from(
    { length: Math.min(5, Math.ceil(USERS / 10)) },
    (_, t) =>
      `---\napiVersion: phctl/v1\nkind: Team\nmetadata: { name: team${t} }\nspec:\n  members: [${Array.from({ length: 10 }, (_, m) => u(t * 10 + m)).join(", ")}]\n`,
  ).join("");
  const projects = Array.from({ length: PROJECTS }, (_, p) => {
    const repo = (name: string, subgroup = "") =>
      `      - { name: ${name}, subgroup: "${subgroup}", issueTracking: enabled, mergeRequests: enabled }`;
    return `---
apiVersion: phctl/v1
kind: Project
metadata: { name: proj${p} }
spec:
  title: Project ${p}
  description: synthetic
  licenses: [MIT]
  access:
    admins: [${u(p)}]
    maintainers: [${u(p + 1)}, ${u(p + 2)}]
    developers: [${u(p + 3)}, ${u(p + 4)}]
    reporters: [${u(p + 5)}]
  git:
    group: {}
    subgroups: [docs, tools]
    repositories:
${[repo("core"), repo("tests"), repo("site"), repo("ci"), repo("guide", "docs"), repo("scripts", "tools")].join("\n")}
  artifacts:
    repositories: [{ name: releases }]
`;
  }).join("");
  const r = loadManifestTexts([
    { file: "phctl.yaml", content: "organization: acme\n", config: true },
    { file: "users.yaml", content: users },
    { file: "teams.yaml", content: teams },
    { file: "projects.yaml", content: projects },
  ]);
  if (!r.state) throw new Error(JSON.stringify(r.diagnostics.slice(0, 3)));
  return r.state;
}

interface Run {
  wallMs: number;
  apiMs: number;
  calls: number;
  byMethod: Record<string, number>;
  failed: number;
  graph: ReturnType<typeof planGraph>;
}

/** Apply `state` from empty with a concurrency limit; the walk's figures. */
async function run(state: DesiredState, concurrency: number): Promise<Run> {
  const { url, child } = await serve({ token: TOKEN, latency: LATENCY, queueDelay: QUEUE_DELAY });
  const api = new ApiClient({ apiUrl: url, token: TOKEN, concurrency });
  try {
    const { plan, live } = await runPlanWithLive({ api, state, apiUrl: url });
    const graph = planGraph(plan.entries);
    const before = (await readLog(api)).length;
    let started = 0;
    let last = 0;
    let failed = 0;
    const reporter = (e: ApplyEvent) => {
      if (e.type === "apply-started") started = performance.now();
      if (e.type === "action-done") last = performance.now();
      if (e.type === "action-failed") {
        failed++;
        console.error(`failed ${e.id}: ${e.message}`);
      }
    };
    await runApply({ api, entries: plan.entries, graph, live, reporter });
    const log = (await readLog(api)).slice(before).filter((e) => !e.url.startsWith("/_control"));
    return {
      wallMs: last - started,
      apiMs: log.reduce((s, e) => s + e.ms, 0),
      calls: log.length,
      byMethod: log.reduce<Record<string, number>>(
        (m, e) => ({ ...m, [e.method]: (m[e.method] ?? 0) + 1 }),
        {},
      ),
      failed,
      graph,
    };
  } finally {
    await api.close();
    child.kill();
  }
}

/** Mean duration of each `<action> <kind>` with nothing else running (one action at a time). */
async function calibrate(state: DesiredState): Promise<Map<string, number>> {
  const { url, child } = await serve({ token: TOKEN, latency: LATENCY, queueDelay: QUEUE_DELAY });
  const api = new ApiClient({ apiUrl: url, token: TOKEN, concurrency: 8 });
  const sums = new Map<string, { ms: number; n: number }>();
  try {
    const { plan, live } = await runPlanWithLive({ api, state, apiUrl: url });
    const graph = planGraph(plan.entries);
    for (const id of graph.order) {
      const node = graph.nodes.get(id)!;
      const one = planGraph([node.entry]);
      const type = `${node.entry.action} ${node.entry.kind}`;
      await walk({
        api,
        graph: one,
        live,
        reporter: (e) => {
          if (e.type === "action-failed") console.error(`failed ${e.id}: ${e.message}`);
          if (e.type !== "action-done") return;
          const s = sums.get(type) ?? { ms: 0, n: 0 };
          sums.set(type, { ms: s.ms + e.durationMs, n: s.n + 1 });
        },
      });
    }
  } finally {
    await api.close();
    child.kill();
  }
  return new Map([...sums].map(([k, s]) => [k, s.ms / s.n]));
}

const a = await run(manifests(PROJECTS, 60), CONCURRENCY);
const alone = await calibrate(manifests(3, 10));
const weight = (id: string) => {
  const e = a.graph.nodes.get(id)!.entry;
  return alone.get(`${e.action} ${e.kind}`) ?? 0;
};
const cp = criticalPath(a.graph, weight);
const bound = cp.length + a.apiMs / CONCURRENCY;
const f = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  `apply of ${PROJECTS} projects from empty: ${a.graph.nodes.size} actions, ${a.calls} API calls ${JSON.stringify(a.byMethod)} (latency ${LATENCY} ms, queue delay ${QUEUE_DELAY} ms)`,
);
console.log(
  `  wall time (concurrency ${CONCURRENCY}):  ${f(a.wallMs)}${a.failed ? ` (${a.failed} failed)` : ""}`,
);
console.log(
  `  total API time (server):     ${f(a.apiMs)}  / ${CONCURRENCY} = ${f(a.apiMs / CONCURRENCY)}`,
);
console.log(
  `  critical path:               ${f(cp.length)}  (${cp.path.map((id) => `${id} ${Math.round(weight(id))} ms`).join(" → ")})`,
);
console.log(
  `  uncontended means: ${[...alone].map(([k, ms]) => `${k} ${Math.round(ms)} ms`).join(", ")}`,
);
console.log(`  bound = critical path + API time / concurrency = ${f(bound)}`);
console.log(`  wall / bound = ${(a.wallMs / bound).toFixed(2)} (target ≤ 1.5)`);
