/**
 * Crash-consistency trials (not part of `npm test`; the smoke is
 * test/bench/crash-smoke.test.ts; see bench/README.md, "Crash trials"):
 *
 *   npm run crash                               # 28 trials (7 per mode), size mid, seed 1
 *   npm run crash -- --trials 4                 # one per mode
 *   npm run crash -- --trials 40 --seed 7 --size small
 *
 * Trials take the modes in turn: resume, fresh, concurrent (two applies at once from two
 * work directories, nothing killed), dropped (resume, on a server that drops the answer to
 * a share of the POSTs after acting on them: the mail sent, the object made).
 *
 * Flags: --trials N (28), --seed S (1: the kill moments), --size mid|small (mid),
 * --queue-delay MS (300), --drop-rate R (0.1: mode dropped's share of POSTs), --keep (keep
 * the temp directory; kept anyway when a trial fails).
 *
 * A generated organization whose users all declare `sendWelcome: true` is applied from
 * empty once, uninterrupted (the calibration: its wall time and its accepted POSTs); then
 * each trial applies it from empty on a fresh server and store, SIGKILLs the apply at a
 * moment drawn uniformly over the calibration's wall time, and finishes it — with `--resume`
 * in the same work directory, or from a fresh work directory without `.phctl/` — or runs two
 * applies at once, and checks it (bench/crash-checks.ts): among others, the welcome mails
 * each user got (none, one, two or more; never two). Exit 1 when any trial fails a check.
 * Figures go to bench/crash-results.md.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MODES, perUserCell, type Mode } from "./crash-checks.js";
import {
  calibrate,
  CRASH_SIZES,
  MAX_RUNS,
  runTrial,
  type Calibration,
  type CrashSize,
  type TrialResult,
} from "./crash-trial.js";
import { generate, writeOrganization } from "./generate.js";
import { machine } from "./report.js";
import { prng } from "./trials.js";

const RESULTS = join(import.meta.dirname, "crash-results.md");
const TOKEN = "crash-token-5e1a";

function flags(argv: string[]) {
  const o = {
    trials: 28,
    seed: 1,
    size: "mid" as CrashSize,
    queueDelay: 300,
    dropRate: 0.1,
    keep: false,
  };
  const num = (flag: string, v: string | undefined, min: number) => {
    const x = Number(v);
    if (v === undefined || !Number.isInteger(x) || x < min)
      throw new Error(`${flag} needs an integer ≥ ${min}`);
    return x;
  };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i + 1];
    switch (argv[i]) {
      case "--trials":
        o.trials = num("--trials", v, 1);
        i++;
        break;
      case "--seed":
        o.seed = num("--seed", v, 0);
        i++;
        break;
      case "--queue-delay":
        o.queueDelay = num("--queue-delay", v, 0);
        i++;
        break;
      case "--drop-rate": {
        const r = Number(v);
        if (v === undefined || !(r > 0 && r <= 1)) throw new Error("--drop-rate needs 0 < R ≤ 1");
        o.dropRate = r;
        i++;
        break;
      }
      case "--size":
        if (v !== "mid" && v !== "small") throw new Error("--size is mid or small");
        o.size = v;
        i++;
        break;
      case "--keep":
        o.keep = true;
        break;
      default:
        throw new Error(`unknown flag ${argv[i]}`);
    }
  }
  return o;
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const code = (c: number | null) => (c === null ? "killed" : String(c));

/** One row of the trial table (markdown). */
function row(t: TrialResult, c: Calibration): string {
  const i = t.interrupted;
  const first = i.killedAtMs !== undefined ? "killed" : `exited ${code(i.code)} first`;
  const at = "afterMs" in t.kill ? t.kill.afterMs : (i.killedAtMs ?? i.wallMs);
  const kill =
    t.mode === "concurrent"
      ? "none: 2 applies at once"
      : `${Math.round(at)} ms (${Math.round((at / c.wallMs) * 100)} %)`;
  const converged = t.applies.at(-1)?.code === 0 ? String(t.applies.length) : `no (${MAX_RUNS})`;
  const w = t.welcome;
  const cells = [
    t.n,
    t.mode,
    kill,
    converged,
    t.jobDuplicates.length + t.postDuplicates.length,
    perUserCell(w.perUser),
    `${w.lost.length} / ${w.named.length} / ${w.unknown.length}`,
    t.mode === "concurrent"
      ? `${t.applies.map((r) => code(r.code)).join(" ‖ ")} → plan ${code(t.plan.code)}`
      : `${first} → ${t.applies.map((r) => code(r.code)).join(", ")} → plan ${code(t.plan.code)}`,
    s(t.wallMs),
    t.failures.length === 0 ? "ok" : "FAIL",
  ];
  return `| ${cells.join(" | ")} |`;
}

const HEAD = [
  "| # | mode | kill at (of calibration) | runs to converge | duplicates | welcome mails per user (0 / 1 / 2+) | users without one: lost / named; said unknown | exit codes (killed apply → applies → plan) | trial | result |",
  "| -: | --- | --- | --- | -: | --- | --- | --- | -: | --- |",
];

function summary(results: TrialResult[]): string {
  const sum = (rs: TrialResult[], f: (r: TrialResult) => number) =>
    rs.reduce((a, r) => a + f(r), 0);
  const per = MODES.map((m) => {
    const rs = results.filter((r) => r.mode === m);
    const ok = rs.filter((r) => r.failures.length === 0).length;
    const mails = perUserCell({
      none: sum(rs, (r) => r.welcome.perUser.none),
      one: sum(rs, (r) => r.welcome.perUser.one),
      more: sum(rs, (r) => r.welcome.perUser.more),
    });
    return `${m} ${ok}/${rs.length} passed (welcome mails per user 0 / 1 / 2+: ${mails}; said unknown ${sum(rs, (r) => r.welcome.unknown.length)}; without one and not named ${sum(rs, (r) => r.welcome.lost.length)})`;
  });
  return (
    `${per.join(", ")}; duplicates ${sum(results, (r) => r.jobDuplicates.length + r.postDuplicates.length)}, ` +
    `welcome mails twice or more ${sum(results, (r) => r.welcome.twice.length)}, lost ${sum(results, (r) => r.welcome.lost.length)}, named ${sum(results, (r) => r.welcome.named.length)}, said unknown ${sum(results, (r) => r.welcome.unknown.length)}; not converged ${results.filter((r) => r.applies.at(-1)?.code !== 0 || r.plan.code !== 0).length}`
  );
}

const o = flags(process.argv.slice(1).filter((a) => a !== "--"));
const shape = CRASH_SIZES[o.size];
const org = generate(shape, { sendWelcome: true });
const root = mkdtempSync(join(tmpdir(), "phctl-crash-"));
const { dir: manifests } = writeOrganization(org, root);
const users = org.seed.users?.map((u) => u.username ?? "") ?? [];
const setup = { manifests, users, queueDelay: o.queueDelay, token: TOKEN, dropRate: o.dropRate };
const random = prng(o.seed);

console.log(
  `crash trials: size ${o.size} (${shape.users} users, ${shape.teams} teams, ${shape.projects} projects, ${shape.repos} repositories; ${org.resources} resources, ${org.queuedJobs} queued jobs), queue delay ${o.queueDelay} ms, drop rate ${o.dropRate}, seed ${o.seed}, ${o.trials} trials; in ${root}`,
);
const cal = await calibrate(setup, join(root, "calibration"));
const calibrationProblems = [
  ...(cal.apply.code !== 0
    ? [`the uninterrupted apply exited ${code(cal.apply.code)}: ${cal.apply.stderr.trim()}`]
    : []),
  ...(cal.plan.code !== 0 ? [`the plan after it exited ${code(cal.plan.code)}`] : []),
];
console.log(
  `calibration: uninterrupted apply ${s(cal.wallMs)} (exit ${code(cal.apply.code)}, plan ${code(cal.plan.code)})`,
);
for (const p of calibrationProblems) console.log(`  calibration problem: ${p}`);

const results: TrialResult[] = [];
for (let n = 1; n <= o.trials; n++) {
  const mode: Mode = MODES[(n - 1) % MODES.length];
  const kill = { afterMs: Math.round(random() * cal.wallMs) };
  const r = await runTrial(setup, cal, { n, mode, kill, dir: join(root, `trial-${n}`) });
  results.push(r);
  console.log(row(r, cal));
  for (const f of r.failures) console.log(`    ${f}`);
}

console.log("");
console.log([...HEAD, ...results.map((r) => row(r, cal))].join("\n"));
const line = summary(results);
console.log(`\n${line}`);

const failures = results.flatMap((r) => r.failures.map((f) => `- trial ${r.n} (${r.mode}): ${f}`));
writeFileSync(
  RESULTS,
  [
    "# Crash trials",
    "",
    `\`npm run crash -- --trials ${o.trials} --seed ${o.seed} --size ${o.size} --drop-rate ${o.dropRate}\` on ${new Date().toISOString().slice(0, 10)}, ${machine()}.`,
    "",
    `Size ${o.size}: ${shape.users} users (each \`sendWelcome: true\` with a git account), ${shape.teams} teams, ${shape.projects} projects, ${shape.repos} repositories — ${org.resources} resources, ${org.queuedJobs} queued jobs; queue delay ${o.queueDelay} ms; mode dropped: the answers to ${Math.round(o.dropRate * 100)} % of the POSTs dropped after the server acted on them. Calibration (one uninterrupted apply from empty): ${s(cal.wallMs)}, exit ${code(cal.apply.code)}, plan after it ${code(cal.plan.code)}.${calibrationProblems.map((p) => ` Calibration problem: ${p}.`).join("")}`,
    "",
    ...HEAD,
    ...results.map((r) => row(r, cal)),
    "",
    `Summary: ${line}.`,
    "",
    ...(failures.length > 0 ? ["## Failed checks", "", ...failures, ""] : []),
  ].join("\n"),
);
try {
  // Tables as prettier would lay them out, so `npm run lint` stays clean (as report.ts does).
  execFileSync(join(import.meta.dirname, "../node_modules/.bin/prettier"), ["--write", RESULTS], {
    stdio: "ignore",
  });
} catch {
  console.error("prettier not available: crash-results.md left unformatted");
}
console.log(`figures written to ${RESULTS}`);

const failed = failures.length > 0 || calibrationProblems.length > 0;
if (failed || o.keep) console.log(`trial directories kept in ${root}`);
else rmSync(root, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
