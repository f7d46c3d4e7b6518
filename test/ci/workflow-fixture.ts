/**
 * A config repository and a GitHub runner for the workflow tests: examples/ at the root of a
 * git repository (its workflows pointing at the test's `phctl serve`, as a user edits the API
 * URL), a bare origin, and `runWorkflow`, which clones one commit shallowly (as
 * actions/checkout does), writes the event file and runs a job of an example workflow with
 * the action at the repository root. phctl is the built dist/ (PHCTL_MAIN), not `npm ci`.
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { MAIN } from "../helpers/cli.js";
import { runJob, type JobRun } from "./gha-runner.js";
import type { Value } from "./gha-expr.js";
import { copyExamples } from "../helpers/examples.js";

export const ROOT = resolve(import.meta.dirname, "../..");
export const REPO = "acme/config";

const who = { GIT_AUTHOR_NAME: "dev", GIT_AUTHOR_EMAIL: "dev@example.org" };
export const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...who, GIT_COMMITTER_NAME: "dev", GIT_COMMITTER_EMAIL: "dev@example.org" }, // prettier-ignore
  }).trim();

export interface ConfigRepo {
  tmp: string;
  /** The working copy commits are made in (pushed to `origin` by `commit`). */
  seed: string;
  origin: string;
  /** Edit one file of the config (a text replacement), commit and push; the new commit. */
  commit(file: string, from: string, to: string, message: string, branch?: string): string;
}

export function configRepo(apiUrl: string): ConfigRepo {
  const tmp = mkdtempSync(join(tmpdir(), "phctl-workflow-"));
  const seed = join(tmp, "seed");
  copyExamples(seed);
  const wfDir = join(seed, ".github/workflows");
  for (const f of readdirSync(wfDir)) {
    const text = readFileSync(join(wfDir, f), "utf8");
    writeFileSync(join(wfDir, f), text.replace("https://hosting.example.org/api", apiUrl));
  }
  git(tmp, "init", "-q", "-b", "main", seed);
  git(seed, "add", "-A");
  git(seed, "commit", "-qm", "base");
  const origin = join(tmp, "origin.git");
  git(tmp, "clone", "-q", "--bare", seed, origin);
  return {
    tmp,
    seed,
    origin,
    commit(file, from, to, message, branch = "main") {
      const path = join(seed, file);
      const text = readFileSync(path, "utf8");
      if (!text.includes(from)) throw new Error(`${file} does not hold "${from}"`);
      writeFileSync(path, text.replace(from, to));
      git(seed, "commit", "-qam", message);
      git(seed, "push", "-q", origin, `HEAD:${branch}`);
      return git(seed, "rev-parse", "HEAD");
    },
  };
}

export interface WorkflowRun {
  job: JobRun;
  workspace: string;
  runnerTemp: string;
  /** `failed` steps with their stderr, for a readable assertion. */
  failed: string[];
}

export interface RunSpec {
  repo: ConfigRepo;
  workflow: string;
  job: string;
  sha: string;
  event: Record<string, Value>;
  eventName: string;
  githubApiUrl: string;
  githubToken: string;
  secrets: Record<string, string>;
  runId: string;
  emulate: Emulate;
}

type Emulate = (uses: string, inputs: Record<string, string>, env: Record<string, string>) => void;

/** The paths of an actions/cache `path:` input (one per line). */
const cachePaths = (path: string) =>
  String(path)
    .split("\n")
    .map((p) => p.trim())
    .filter(Boolean);

/** The files a cache entry holds, by path (as `hostedActions` keeps them). */
export const cachedFiles = (entry: string | undefined): Record<string, string> =>
  entry === undefined ? {} : (JSON.parse(entry) as Record<string, string>);

/**
 * The GitHub-hosted actions the kit uses, as a test stands them in: checkout (the clone is
 * there), setup-node (Node is there), artifacts kept per run id, and a cache of files by key
 * with `restore-keys` prefixes (newest first), as actions/cache matches them (an entry holds
 * every file its `path:` lines name that existed when it was saved).
 */
export function hostedActions(): {
  emulate: Emulate;
  artifacts: Map<string, string>;
  cache: Map<string, string>;
} {
  const artifacts = new Map<string, string>(); // "<run id>/<name>" → file text
  const cache = new Map<string, string>();
  const emulate: Emulate = (uses, inputs, env) => {
    const inWorkspace = (p: string) => resolve(env.GITHUB_WORKSPACE, p);
    switch (uses.replace(/@.*/, "")) {
      case "actions/checkout":
        return;
      case "actions/setup-node":
        if (inputs["node-version"] !== "20") throw new Error("setup-node: not Node 20");
        return;
      case "actions/upload-artifact":
        if (!existsSync(inputs.path)) throw new Error(`upload-artifact: no file ${inputs.path}`);
        artifacts.set(`${env.GITHUB_RUN_ID}/${inputs.name}`, readFileSync(inputs.path, "utf8"));
        return;
      case "actions/download-artifact": {
        const text = artifacts.get(`${inputs["run-id"]}/${inputs.name}`);
        if (text === undefined) throw new Error(`download-artifact: no ${inputs.name} in run ${inputs["run-id"]}`); // prettier-ignore
        mkdirSync(inputs.path, { recursive: true });
        writeFileSync(join(inputs.path, "phctl-plan.json"), text);
        return;
      }
      case "actions/cache/restore": {
        const prefixes = String(inputs["restore-keys"] ?? "")
          .split("\n")
          .filter(Boolean);
        const hit =
          cache.get(inputs.key) ??
          [...cache.entries()].reverse().find(([k]) => prefixes.some((p) => k.startsWith(p)))?.[1];
        if (hit === undefined) return;
        for (const [path, text] of Object.entries(JSON.parse(hit) as Record<string, string>)) {
          mkdirSync(dirname(inWorkspace(path)), { recursive: true });
          writeFileSync(inWorkspace(path), text);
        }
        return;
      }
      case "actions/cache/save": {
        // Every path that exists (as actions/cache, which fails only when none does).
        const files = Object.fromEntries(
          cachePaths(inputs.path)
            .filter((p) => existsSync(inWorkspace(p)))
            .map((p) => [p, readFileSync(inWorkspace(p), "utf8")]),
        );
        if (Object.keys(files).length === 0) throw new Error("cache/save: no file to save");
        cache.set(inputs.key, JSON.stringify(files));
        return;
      }
      default:
        throw new Error(`${uses} is not emulated`);
    }
  };
  return { emulate, artifacts, cache };
}

/** Run a job of an example workflow on a fresh runner, checked out at `sha`. */
export async function runWorkflow(s: RunSpec): Promise<WorkflowRun> {
  const run = mkdtempSync(join(s.repo.tmp, "run-"));
  const workspace = join(run, "work");
  const runnerTemp = join(run, "temp");
  mkdirSync(runnerTemp);
  git(run, "clone", "-q", "--depth", "1", `file://${s.repo.origin}`, workspace);
  git(workspace, "fetch", "-q", "--depth", "1", "origin", s.sha);
  git(workspace, "checkout", "-q", "--detach", s.sha);
  const eventPath = join(run, "event.json");
  writeFileSync(eventPath, JSON.stringify(s.event));
  const env: Record<string, string> = {
    PATH: process.env.PATH!,
    HOME: process.env.HOME!,
    NO_COLOR: "1",
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: workspace,
    GITHUB_EVENT_NAME: s.eventName,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: REPO,
    GITHUB_SHA: s.sha,
    GITHUB_API_URL: s.githubApiUrl,
    GITHUB_SERVER_URL: "https://github.example",
    GITHUB_RUN_ID: s.runId,
    GITHUB_RUN_ATTEMPT: "1",
    RUNNER_TEMP: runnerTemp,
    RUNNER_OS: "Linux",
    PHCTL_MAIN: MAIN, // the built phctl instead of `npm ci` in the action's checkout
  };
  const job = await runJob({
    workflow: join(workspace, ".github/workflows", s.workflow),
    job: s.job,
    env,
    contexts: {
      github: {
        event: s.event,
        event_name: s.eventName,
        repository: REPO,
        sha: s.sha,
        run_id: s.runId,
        run_attempt: "1",
        workspace,
        token: s.githubToken,
      },
      secrets: s.secrets,
      vars: {},
      runner: { temp: runnerTemp, os: "Linux" },
    },
    action: { matches: (uses) => /^your-org\/phctl@/.test(uses), dir: ROOT },
    emulate: s.emulate,
  });
  const failed = job.steps.filter((x) => x.outcome === "failure");
  return { job, workspace, runnerTemp, failed: failed.map((x) => `${x.name}: ${x.stderr}`) };
}

/** The fake GitHub behind a front that adds the two endpoints only the apply flow reads. */
export interface GitHubFront {
  url: string;
  close(): Promise<void>;
}

/**
 * A front to the fake GitHub at `ghUrl` answering a commit's pull requests (with
 * merge_commit_sha: `pullsOf` by merge commit) and a workflow's successful pull-request runs
 * (`runsOf` by head commit); every other request goes through to the fake.
 */
export async function startGitHubFront(
  ghUrl: string,
  o: { pullsOf: Map<string, object[]>; runsOf: Map<string, object[]> },
): Promise<GitHubFront> {
  const front = createServer((req, res) => {
    const url = new URL(req.url!, "http://x");
    const pulls = /^\/repos\/acme\/config\/commits\/([0-9a-f]+)\/pulls$/.exec(url.pathname);
    const runs = url.pathname === "/repos/acme/config/actions/workflows/phctl-plan.yml/runs";
    if (req.method === "GET" && (pulls || runs)) {
      const q = url.searchParams;
      const ok = runs && q.get("event") === "pull_request" && q.get("status") === "success";
      const body = pulls
        ? (o.pullsOf.get(pulls[1]) ?? [])
        : { workflow_runs: ok ? (o.runsOf.get(q.get("head_sha")!) ?? []) : [] };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !["host", "content-length"].includes(k)),
      ) as Record<string, string>;
      void fetch(`${ghUrl}${req.url}`, {
        method: req.method!,
        headers,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      }).then(async (r) => {
        const link = r.headers.get("link");
        res.writeHead(r.status, { "content-type": "application/json", ...(link ? { link } : {}) });
        res.end(Buffer.from(await r.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((ok) => front.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    close: () => new Promise<void>((ok) => front.close(() => ok())),
  };
}
