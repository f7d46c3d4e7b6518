/**
 * `npm run bench:gitlab`: examples/.gitlab-ci.yml's plan job run by gitlab-ci-local with its
 * shell executor — the template's own scripts, unchanged, on this machine — twice in the same
 * checkout, as a reused GitLab shell runner runs it. phctl is installed as the template
 * installs it: the `npm pack` tarball of this checkout, checked against its SHA-256. The
 * service is `phctl serve` matching the base commit (a read-only token), GitLab the fake of
 * test/helpers/fake-gitlab.ts (the note). Passes when both runs pass, the merge request has one
 * note (the second run finds it, up to date) and no base worktree is left; prints how long the
 * install and each run took. Needs rsync (gitlab-ci-local copies the checkout with it);
 * BENCH_DEBUG=1 prints the jobs' logs.
 *
 * gitlab-ci-local 4.73.0 is the last release that starts on Node 20 (4.74 uses Node 22's Set
 * methods); it is installed into a temporary directory, not into this project.
 */
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { ApiClient } from "../src/api/client.js";
import { loadManifests } from "../src/pipeline/load.js";
import { GITLAB_TOKENS, startFakeGitLab } from "../test/helpers/fake-gitlab.js";
import { populate } from "../test/helpers/populate.js";
import { startServer, TOKENS } from "../test/helpers/server.js";
import { copyExamples } from "../test/helpers/examples.js";

const GITLAB_CI_LOCAL = "gitlab-ci-local@4.73.0";
const ROOT = resolve(import.meta.dirname, "..");
const PROJECT = "42";
const MR = 7;

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
const who = { GIT_AUTHOR_NAME: "dev", GIT_AUTHOR_EMAIL: "dev@example.org", GIT_COMMITTER_NAME: "dev", GIT_COMMITTER_EMAIL: "dev@example.org" }; // prettier-ignore
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...who } }).trim();
/** npm as a user runs it: none of the npm_* settings of the `npm run` running us. */
const npmEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
const npm = (cwd: string, ...args: string[]) =>
  execFileSync("npm", args, { cwd, encoding: "utf8", env: npmEnv, stdio: ["ignore", "pipe", "pipe"] }); // prettier-ignore

const tmp = mkdtempSync(join(tmpdir(), "phctl-bench-gitlab-"));

/** Stops here, keeping the checkout and the job logs to look at. */
function fail(message: string): never {
  process.stderr.write(`bench:gitlab: ${message}\n(kept ${tmp})\n`);
  process.exit(1);
}

const server = await startServer();
const gitlab = await startFakeGitLab();
try {
  process.stdout.write(`node ${process.version}, ${GITLAB_CI_LOCAL}, shell executor\n`);
  // gitlab-ci-local copies the checkout with rsync before every job, shell jobs too
  if (spawnSync("rsync", ["--version"]).error) fail("gitlab-ci-local needs rsync: apt-get install rsync"); // prettier-ignore
  npm(tmp, "install", "--prefix", join(tmp, "glc"), "--no-audit", "--no-fund", GITLAB_CI_LOCAL);
  const glc = join(tmp, "glc/node_modules/.bin/gitlab-ci-local");

  // The release tarball, and how long the template's install of it takes on a cold cache.
  npm(ROOT, "pack", "--pack-destination", tmp, "--ignore-scripts", "--silent");
  const version = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
  const tgz = join(tmp, `phctl-${version}.tgz`);
  const sha = createHash("sha256").update(readFileSync(tgz)).digest("hex");
  let start = process.hrtime.bigint();
  npm(tmp, "install", "--global", "--prefix", join(tmp, "cold"), "--ignore-scripts", "--omit=dev", "--no-audit", "--no-fund", "--cache", join(tmp, "npm-cache"), tgz); // prettier-ignore
  process.stdout.write(`the template's install of phctl-${version}.tgz, cold npm cache: ${seconds(start).toFixed(1)} s\n`); // prettier-ignore

  // The service matches the base commit of a config repository whose head changes a project.
  const api = new ApiClient({ apiUrl: server.url, token: TOKENS.admin.secret });
  const { state } = await loadManifests([join(ROOT, "examples")]);
  await populate(api, state!);
  await api.close();
  const repo = join(tmp, "builds", "config");
  mkdirSync(repo, { recursive: true });
  copyExamples(repo);
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", "-A");
  git(repo, "commit", "-qm", "base");
  const base = git(repo, "rev-parse", "HEAD");
  const project = join(repo, "projects/ci-tools.yaml");
  writeFileSync(project, readFileSync(project, "utf8").replace("Shared continuous-integration tooling", "Shared CI tooling for every team")); // prettier-ignore
  git(repo, "commit", "-qam", "ci-tools: a clearer description");
  git(repo, "remote", "add", "origin", "https://gitlab.example.org/acme/config.git");

  const variables = {
    CI_PIPELINE_SOURCE: "merge_request_event",
    CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
    CI_MERGE_REQUEST_IID: String(MR),
    CI_PROJECT_ID: PROJECT,
    // gitlab-ci-local gives a shell job the directory a docker job would have (/builds/…)
    CI_PROJECT_DIR: repo,
    CI_API_V4_URL: gitlab.apiUrl,
    PHCTL_API_URL: server.url,
    PHCTL_READ_TOKEN: TOKENS.member.secret,
    PHCTL_GITLAB_TOKEN: GITLAB_TOKENS.write,
    PHCTL_VERSION: version,
    PHCTL_TARBALL_URL: `file://${tgz}`,
    PHCTL_SHA256: sha,
  };
  const args = ["phctl-plan", "--force-shell-executor", "--no-color", "--timestamps", ...Object.entries(variables).flatMap(([k, v]) => ["--variable", `${k}=${v}`])]; // prettier-ignore
  const run = promisify(execFile);
  for (const n of [1, 2]) {
    start = process.hrtime.bigint();
    // Never a synchronous child here: the service and GitLab answer from this process.
    const failed = (e: { code?: number; stdout?: string; stderr?: string }) =>
      fail(`run ${n} of the plan job failed (exit ${e.code}):\n${e.stdout}${e.stderr}`);
    const r = await run(glc, args, { cwd: repo, env: { ...npmEnv, TMPDIR: tmp }, maxBuffer: 1 << 26 }).catch(failed); // prettier-ignore
    if (process.env.BENCH_DEBUG) process.stdout.write(r.stdout + r.stderr);
    const installed = /added \d+ packages in [\d.]+m?s/.exec(r.stdout)?.[0] ?? "phctl already installed in the checkout"; // prettier-ignore
    process.stdout.write(`run ${n} of phctl-plan in the same checkout: passed in ${seconds(start).toFixed(1)} s (${installed})\n`); // prettier-ignore
  }

  const notes = gitlab.notes(PROJECT, MR);
  if (notes.length !== 1) fail(`the merge request has ${notes.length} notes, not 1`);
  if (!notes[0]?.body.includes("Shared CI tooling for every team")) fail("the note does not show the change"); // prettier-ignore
  if (gitlab.requests.filter((q) => q.method === "POST").length !== 1) fail("the second run posted a second note"); // prettier-ignore
  const worktrees = git(repo, "worktree", "list", "--porcelain").match(/^worktree /gm)?.length;
  if (worktrees !== 1) fail(`${worktrees} worktrees left in the checkout, not 1`);
  process.stdout.write("bench:gitlab: ok (one note, found again by the second run; no worktree left)\n"); // prettier-ignore
} finally {
  await gitlab.close();
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
}
