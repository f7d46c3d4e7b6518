/**
 * Runs one job of a GitHub Actions workflow the way a runner would, for tests: `run:` steps in
 * order with `bash --noprofile --norc -eo pipefail`, the files GitHub gives every step
 * (GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH, GITHUB_STEP_SUMMARY), `if:` conditions, step
 * outputs, and `env:` at every level. A `uses:` step of a local composite action (`action`
 * names its directory) is expanded into its steps; every other `uses:` goes to `emulate`, which
 * must know it (or throw): the test decides what checkout, setup-node or upload-artifact do.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { condition, interpolate, type ExprContext, type Value } from "./gha-expr.js";

export interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string | boolean;
  env?: Record<string, string>;
  with?: Record<string, string | number | boolean>;
  shell?: string;
  "working-directory"?: string;
}

export interface StepRecord {
  name: string;
  outcome: "success" | "failure" | "skipped";
  stdout: string;
  stderr: string;
}

export interface JobRun {
  steps: StepRecord[];
  /** Every step's GITHUB_STEP_SUMMARY, in order, as the job summary shows them. */
  summary: string;
  status: "success" | "failure";
}

export interface RunOptions {
  workflow: string;
  job: string;
  /** The runner's environment (GITHUB_*, RUNNER_TEMP, PATH, …). */
  env: Record<string, string>;
  /** Expression contexts: github (with event), secrets, vars… */
  contexts: Record<string, Value>;
  /** A `uses:` that names this action is expanded from `<actionDir>/action.yml`. */
  action: { matches: (uses: string) => boolean; dir: string };
  emulate: (uses: string, inputs: Record<string, string>, env: Record<string, string>) => void;
}

const readLines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "");

/** `name=value` and `name<<EOF … EOF` lines, as GITHUB_OUTPUT and GITHUB_ENV hold them. */
export function parseCommandFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      if (end < 0) throw new Error(`unterminated ${heredoc[1]}<<${heredoc[2]}`);
      out[heredoc[1]] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (line.includes("=")) {
      out[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return out;
}

/** bash as the runner starts it; the test's servers run in this process, so never block it. */
function bash(script: string, cwd: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], { cwd, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", fail);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

export async function runJob(o: RunOptions): Promise<JobRun> {
  const wf = parse(readFileSync(o.workflow, "utf8"));
  const job = wf.jobs[o.job];
  if (!job) throw new Error(`no job ${o.job} in ${o.workflow}`);
  const files = mkdtempSync(join(o.env.RUNNER_TEMP, "_runner_file_commands-"));
  const state = { env: { ...o.env }, path: [] as string[], status: "success" as JobRun["status"] };
  const records: StepRecord[] = [];
  const summaries: string[] = [];
  let counter = 0;
  const workspace = o.env.GITHUB_WORKSPACE;
  const hashFiles = (patterns: string[]) => {
    const found = patterns.map((p) => join(workspace, p)).filter((f) => existsSync(f));
    if (found.length === 0) return "";
    const h = createHash("sha256");
    for (const f of found) h.update(readFileSync(f));
    return h.digest("hex");
  };

  const walk = async (
    steps: Step[],
    scope: Record<string, Value>,
    outerEnv: Record<string, string>,
  ): Promise<void> => {
    const stepsCtx: Record<string, Value> = {};
    for (const step of steps) {
      const ctx: ExprContext = {
        contexts: { ...o.contexts, ...scope, steps: stepsCtx, env: { ...state.env, ...outerEnv } },
        status: state.status,
        hashFiles,
      };
      const name = step.name ?? step.uses ?? step.run?.split("\n")[0] ?? "step";
      const ex = (v: unknown) => interpolate(String(v), ctx);
      if (!condition(step.if, ctx)) {
        records.push({ name, outcome: "skipped", stdout: "", stderr: "" });
        if (step.id) stepsCtx[step.id] = { outputs: {}, outcome: "skipped", conclusion: "skipped" };
        continue;
      }
      const env = { ...outerEnv };
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = ex(v);
      if (step.uses && o.action.matches(step.uses)) {
        const action = parse(readFileSync(join(o.action.dir, "action.yml"), "utf8"));
        const inputs: Record<string, Value> = {};
        for (const [k, spec] of Object.entries<{ default?: string }>(action.inputs ?? {}))
          inputs[k] = step.with?.[k] !== undefined ? ex(step.with[k]) : ex(spec.default ?? "");
        const actionGithub = { ...(o.contexts.github as object), action_path: o.action.dir };
        await walk(
          action.runs.steps,
          { inputs, github: actionGithub },
          {
            ...env,
            GITHUB_ACTION_PATH: o.action.dir,
          },
        );
        continue;
      }
      const n = ++counter;
      const output = join(files, `output_${n}`);
      const envFile = join(files, `env_${n}`);
      const pathFile = join(files, `path_${n}`);
      const summaryFile = join(files, `step_summary_${n}`);
      for (const f of [output, envFile, pathFile, summaryFile]) writeFileSync(f, "");
      const runEnv: Record<string, string> = {
        ...state.env,
        ...env,
        PATH: [...state.path, state.env.PATH].join(":"),
        GITHUB_OUTPUT: output,
        GITHUB_ENV: envFile,
        GITHUB_PATH: pathFile,
        GITHUB_STEP_SUMMARY: summaryFile,
      };
      let outcome: StepRecord["outcome"] = "success";
      let stdout = "";
      let stderr = "";
      if (step.uses) {
        const inputs: Record<string, string> = {};
        for (const [k, v] of Object.entries(step.with ?? {})) inputs[k] = ex(v);
        try {
          o.emulate(step.uses, inputs, runEnv);
        } catch (e) {
          outcome = "failure";
          stderr = (e as Error).message;
        }
      } else {
        if (step.shell !== undefined && step.shell !== "bash")
          throw new Error(`step "${name}": shell ${step.shell} is not emulated`);
        const script = join(files, `step_${n}.sh`);
        writeFileSync(script, String(step.run));
        const cwd = step["working-directory"]
          ? join(workspace, ex(step["working-directory"]))
          : workspace;
        const r = await bash(script, cwd, runEnv);
        stdout = r.stdout;
        stderr = r.stderr;
        if (r.code !== 0) outcome = "failure";
      }
      Object.assign(state.env, parseCommandFile(readLines(envFile)));
      state.path.unshift(...readLines(pathFile).split("\n").filter(Boolean).reverse());
      summaries.push(readLines(summaryFile));
      if (outcome === "failure") state.status = "failure";
      records.push({ name, outcome, stdout, stderr });
      if (step.id)
        stepsCtx[step.id] = {
          outputs: parseCommandFile(readLines(output)),
          outcome,
          conclusion: outcome,
        };
    }
  };

  const wfEnv: Record<string, string> = {};
  const ctx0: ExprContext = { contexts: { ...o.contexts, env: {} }, status: "success" };
  for (const [k, v] of Object.entries({ ...wf.env, ...job.env }))
    wfEnv[k] = interpolate(String(v), ctx0);
  await walk(job.steps, {}, wfEnv);
  return { steps: records, summary: summaries.join(""), status: state.status };
}
