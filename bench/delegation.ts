/**
 * What delegation costs at a size (issue 38: at most 10 % to validate and to a pull request's
 * plan): the generated organization (with the examples' starter policies) — its `validate` and `plan HEAD --base BASE` (one project
 * changed, as bench/pr.ts does) without and with the restriction policies of
 * examples/policies/folders.yaml, with an `owners:` block in phctl.yaml, with 1,050 grants
 * dated by `expires:` (none due), and with all three; the configurations
 * run in turn, `--runs` times each, against one seeded server; CPU (user + system) and wall
 * of the CLI, medians. Prints a table; writes nothing.
 *
 *   node -e "import('vite').then((v) => v.runnerImport('./bench/delegation.ts'))" -- --size M --runs 5
 */
import { appendFileSync, copyFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate, SIZES, type Size, withExpiries, writeOrganization } from "./generate.js";
import { prSlug, writeHead } from "./pr.js";
import { median } from "./report.js";
import { MAIN, runNode, serve, writeExitHook } from "./serve.js";

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const size = arg("size", "M") as Size;
const runs = Number(arg("runs", "5"));
const work = mkdtempSync(join(tmpdir(), "phctl-delegation-"));
const hook = writeExitHook(work);
const org = generate(SIZES[size]);
const { dir: plain, seed } = writeOrganization(org, join(work, "plain"));
// Every configuration has the examples' starter policies: the policy engine's start (cel-js,
// compiling the rules) is paid by any config with a policy, not by restrictions.
for (const f of ["access.yaml", "projects.yaml", "repositories.yaml"])
  copyFileSync(join(import.meta.dirname, "../examples/policies", f), join(plain, f));
// The same config with the restriction policies, with owners, with dated grants, and with all.
const dated = writeOrganization(
  { ...org, files: org.files.map((f) => ({ ...f, content: withExpiries(f.content) })) },
  join(work, "dated-base"),
).dir;
const variant = (name: string, policies: boolean, owners: boolean, expiries = false) => {
  const dir = join(work, name);
  cpSync(expiries ? dated : plain, dir, { recursive: true });
  if (expiries)
    for (const f of ["access.yaml", "projects.yaml", "repositories.yaml"])
      copyFileSync(join(plain, f), join(dir, f));
  if (policies)
    copyFileSync(
      join(import.meta.dirname, "../examples/policies/folders.yaml"),
      join(dir, "folders.yaml"),
    );
  if (owners) appendFileSync(join(dir, "phctl.yaml"), "\nowners:\n  platform: { users: [u0] }\n");
  return dir;
};
const configs = [
  ["plain", plain],
  ["restrictions", variant("restrictions", true, false)],
  ["owners", variant("owners", false, true)],
  ["expiries", variant("expiries", false, false, true)],
  ["delegated", variant("delegated", true, true, true)],
] as const;
for (const [, dir] of configs) writeHead(dir, `${dir}-head`, prSlug(org));

const token = "bench-delegation-token";
const { url, child } = await serve({ token, latency: 0, seedFile: seed });
const env = { PHCTL_TOKEN: token, PHCTL_API_URL: url, NO_COLOR: "1" };
type Sample = { cpuMs: number; wallMs: number };
const samples = new Map<string, Sample[]>();
const run = async (label: string, args: string[], ok: number[] = [0]) => {
  const r = await runNode([MAIN, ...args], { env, hook, cwd: work });
  if (!ok.includes(r.code ?? -1))
    throw new Error(`${label}: exit ${r.code}: ${r.stderr.slice(0, 500)}`);
  samples.set(label, [...(samples.get(label) ?? []), { cpuMs: r.cpuMs, wallMs: r.wallMs }]);
};
try {
  for (let i = 0; i < runs; i++)
    for (const [name, dir] of configs) {
      await run(`validate ${name}`, ["validate", dir]);
      await run(`pr plan ${name}`, ["plan", `${dir}-head`, "--base", dir, "--format", "json"]);
    }
} finally {
  child.kill();
}
const med = (label: string, k: keyof Sample) => median(samples.get(label)!.map((s) => s[k]));
console.log(`size ${size}, ${runs} runs each, load average ${(await import("node:os")).loadavg().map((x) => x.toFixed(2)).join(" ")}`); // prettier-ignore
console.log("| figure | config | CPU | CPU / plain | wall |");
console.log("| --- | --- | ---: | ---: | ---: |");
for (const what of ["validate", "pr plan"])
  for (const [name] of configs) {
    const [p, d] = [`${what} plain`, `${what} ${name}`];
    console.log(
      `| ${what} | ${name} | ${med(d, "cpuMs").toFixed(0)} ms | ${(med(d, "cpuMs") / med(p, "cpuMs")).toFixed(3)}× | ${med(d, "wallMs").toFixed(0)} ms |`,
    );
  }
rmSync(work, { recursive: true, force: true });
