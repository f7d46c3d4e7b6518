/**
 * examples/.gitlab-ci.yml's scripts run as a GitLab shell runner runs them: before_script and
 * script in one bash (`-eo pipefail`), after_script in a shell of its own, in a checkout the
 * runner may reuse. phctl is a stand-in (tests/e2e and bench/gitlab-ci-local.ts run the real
 * one): what is checked here is the scripts' own logic.
 *
 * - The plan job passes again and again in the same checkout (a retried job, the next
 *   pipeline, a base worktree whose directory is gone), leaving no worktree behind.
 * - phctl is installed only from the release tarball whose SHA-256 is PHCTL_SHA256, checked and
 *   installed afresh by every job (a phctl the checkout holds is removed, never run); phctl of
 *   PHCTL_VERSION already on the PATH outside the checkout (the image) installs nothing.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"; // prettier-ignore
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { copyExamples } from "../helpers/examples.js";

const ROOT = resolve(import.meta.dirname, "../..");
const ci = parse(readFileSync(join(ROOT, "examples/.gitlab-ci.yml"), "utf8"));
const tmp = mkdtempSync(join(tmpdir(), "phctl-gitlab-jobs-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
const fresh = (name: string) => {
  const d = join(tmp, `${name}-${++n}`);
  mkdirSync(d, { recursive: true });
  return d;
};

const git = (cwd: string, ...args: string[]) => {
  const r = spawnSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "dev", GIT_AUTHOR_EMAIL: "dev@example.org", GIT_COMMITTER_NAME: "dev", GIT_COMMITTER_EMAIL: "dev@example.org" }, // prettier-ignore
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.trim();
};

/** A job's scripts as GitLab runs them (the `.phctl` template under the job). */
function scripts(name: string): { main: string; after: string } {
  const job = { ...ci[".phctl"], ...ci[name] };
  return {
    main: [...(job.before_script ?? []), ...job.script].join("\n"),
    after: (job.after_script ?? []).join("\n"),
  };
}

function bash(script: string, cwd: string, env: Record<string, string>) {
  const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], {
    cwd,
    env,
    encoding: "utf8",
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** A directory holding an executable `name` with this shell body. */
function standIn(name: string, body: string): string {
  const dir = fresh("bin");
  writeFileSync(join(dir, name), `#!/usr/bin/env bash\n${body}\n`);
  chmodSync(join(dir, name), 0o755);
  return dir;
}

/** phctl 0.1.0 that plans only when --base is a checkout of the base commit. */
const PHCTL = standIn(
  "phctl",
  `case "$1" in
  --version) echo 0.1.0 ;;
  plan)
    while [ $# -gt 0 ]; do case "$1" in --base) base=$2; shift ;; --out) out=$2; shift ;; esac; shift; done
    grep -q "Shared continuous-integration tooling" "$base/projects/ci-tools.yaml" || { echo "not the base: $base"; exit 1; }
    echo "{}" >"$out"; echo "planned against $base" ;;
esac`,
);

describe("the plan job, run again in the same checkout (a reused shell runner)", () => {
  const origin = fresh("origin");
  copyExamples(origin);
  git(origin, "init", "-q", "-b", "main");
  git(origin, "add", "-A");
  git(origin, "commit", "-qm", "base");
  const base = git(origin, "rev-parse", "HEAD");
  const file = join(origin, "projects/ci-tools.yaml");
  writeFileSync(file, readFileSync(file, "utf8").replace("Shared continuous-integration tooling", "CI for all")); // prettier-ignore
  git(origin, "commit", "-qam", "head");

  const checkout = join(fresh("runner"), "builds", "config");
  git(tmp, "clone", "-q", "--depth", "1", `file://${origin}`, checkout); // shallow, as runners clone
  const jobTmp = fresh("tmp");
  const run = (pipeline: number) =>
    bash(scripts("phctl-plan").main, checkout, {
      PATH: `${PHCTL}:${process.env.PATH}`,
      HOME: process.env.HOME!,
      TMPDIR: jobTmp,
      CI_PROJECT_DIR: checkout,
      CI_PIPELINE_ID: String(pipeline),
      CI_JOB_URL: "https://gitlab.example/job/1",
      CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
      PHCTL_READ_TOKEN: "t-member",
      PHCTL_VERSION: "0.1.0",
      PHCTL_CONFIG: ".",
      PHCTL_KEY: "default",
      PHCTL_JOURNAL: ".phctl/default/journal.jsonl",
    });
  const worktrees = () => git(checkout, "worktree", "list", "--porcelain").match(/^worktree /gm)!.length; // prettier-ignore

  it("passes, plans against the base commit and removes its worktree", () => {
    const r = run(41);
    expect(r.out).toMatch(/planned against .*phctl-base-41\./);
    expect(r.code, r.out).toBe(0);
    expect(worktrees()).toBe(1);
    expect(readdirSync(jobTmp).filter((f) => f.startsWith("phctl-base-"))).toEqual([]);
  });

  it("passes when retried in the same pipeline, and in the next one", () => {
    for (const pipeline of [41, 41, 42]) {
      const r = run(pipeline);
      expect(r.code, r.out).toBe(0);
    }
    expect(worktrees()).toBe(1);
  });

  it("passes after a job that failed left its worktree, present or deleted since", () => {
    const left = join(jobTmp, "phctl-base-40.abc123");
    git(checkout, "worktree", "add", "--detach", left, base);
    expect(run(43).code).toBe(0);
    git(checkout, "worktree", "add", "--detach", left, base);
    rmSync(left, { recursive: true }); // the runner's /tmp was cleaned: "missing but registered"
    const r = run(44);
    expect(r.code, r.out).toBe(0);
    expect(worktrees()).toBe(1);
  });
});

/**
 * phctl whose validate finds a policy denial (or, with PHCTL_ERRORS=1, an error in the
 * manifests) and whose plan writes the plan and exits 1 (a denial).
 */
const DENYING = standIn(
  "phctl",
  `case "$1" in
  --version) echo 0.1.0 ;;
  validate)
    errors=\${PHCTL_ERRORS:-0}
    if [ "$3" = --format ] && [ "$4" = json ]; then echo '{"summary": {"errors": '"$errors"'}}'; fi
    exit 1 ;;
  plan)
    while [ $# -gt 0 ]; do case "$1" in --out) out=$2; shift ;; esac; shift; done
    echo "{}" >"$out"; echo "planned; a policy denies it"; exit 1 ;;
  comment) echo "commented on $2" ;;
esac`,
);

describe("the plan job of a change a policy denies", () => {
  const origin = fresh("origin");
  copyExamples(origin);
  git(origin, "init", "-q", "-b", "main");
  git(origin, "add", "-A");
  git(origin, "commit", "-qm", "base");
  const base = git(origin, "rev-parse", "HEAD");
  const checkout = join(fresh("runner"), "builds", "config");
  git(tmp, "clone", "-q", "--depth", "1", `file://${origin}`, checkout);
  const run = (extra: Record<string, string> = {}) =>
    bash(scripts("phctl-plan").main, checkout, {
      PATH: `${DENYING}:${process.env.PATH}`,
      HOME: process.env.HOME!,
      TMPDIR: fresh("tmp"),
      CI_PROJECT_DIR: checkout,
      CI_PIPELINE_ID: "51",
      CI_JOB_URL: "https://gitlab.example/job/1",
      CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
      PHCTL_READ_TOKEN: "t-member",
      PHCTL_VERSION: "0.1.0",
      PHCTL_CONFIG: ".",
      PHCTL_KEY: "default",
      PHCTL_JOURNAL: ".phctl/default/journal.jsonl",
      ...extra,
    });

  it("comments on the plan, removes its worktree, then fails", () => {
    const r = run();
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain("commented on phctl-plan.json");
    const denied = r.out.indexOf(
      "phctl: a policy of the organization denies this plan: the comment lists the violations",
    );
    expect(denied).toBeGreaterThan(r.out.indexOf("commented on phctl-plan.json"));
    expect(git(checkout, "worktree", "list", "--porcelain").match(/^worktree /gm)).toHaveLength(1);
  });

  it("errors in the manifests stop the job at validate, before any plan", () => {
    const r = run({ PHCTL_ERRORS: "2" });
    expect(r.code, r.out).toBe(1);
    expect(r.out).not.toContain("planned");
    expect(r.out).not.toContain("commented");
  });

  it("a plan that failed before its note marks the note stale (after_script); a denial does not", () => {
    const env = (status: string) => ({
      PATH: `${DENYING}:${process.env.PATH}`,
      HOME: process.env.HOME!,
      CI_PROJECT_DIR: checkout,
      CI_JOB_ID: "77",
      CI_JOB_STATUS: status,
      PHCTL_READ_TOKEN: "t-member",
      PHCTL_KEY: "default",
    });
    const failed = run({ PHCTL_ERRORS: "2", CI_JOB_ID: "77" });
    expect(failed.code).toBe(1);
    expect(existsSync(join(checkout, ".phctl-errors-77.txt"))).toBe(true);
    const after = bash(scripts("phctl-plan").after, checkout, env("failed"));
    expect(after.out).toContain("commented on --stale");
    expect(existsSync(join(checkout, ".phctl-errors-77.txt"))).toBe(false);
    // A denial: the note shows the plan and its violations; it is not stale.
    const denied = run({ CI_JOB_ID: "78" });
    expect(denied.code).toBe(1);
    const kept = bash(scripts("phctl-plan").after, checkout, { ...env("failed"), CI_JOB_ID: "78" }); // prettier-ignore
    expect(kept.out).not.toContain("--stale");
  });
});

describe("installing phctl", () => {
  // A release tarball as scripts/pack.js makes it (its npm-shrinkwrap.json included), of a phctl that answers --version and comment.
  const pkg = join(fresh("release"), "package");
  mkdirSync(pkg);
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "phctl", version: "0.1.0", bin: { phctl: "cli.js" } })); // prettier-ignore
  writeFileSync(join(pkg, "npm-shrinkwrap.json"), JSON.stringify({ name: "phctl", version: "0.1.0", lockfileVersion: 3, requires: true, packages: { "": { name: "phctl", version: "0.1.0", bin: { phctl: "cli.js" } } } })); // prettier-ignore
  writeFileSync(join(pkg, "cli.js"), '#!/usr/bin/env node\nconsole.log(process.argv[2] === "--version" ? "0.1.0" : `ran ${process.argv.slice(2).join(" ")}`);\n'); // prettier-ignore
  const tgz = join(pkg, "..", "phctl-0.1.0.tgz");
  spawnSync("tar", ["-czf", tgz, "-C", join(pkg, ".."), "package"]);
  const sha = createHash("sha256").update(readFileSync(tgz)).digest("hex");
  const noCurl = standIn("curl", 'echo "curl must not run" >&2; exit 9');

  const install = (vars: Record<string, string>, path = process.env.PATH!) => {
    const project = fresh("project");
    const env = {
      PATH: path,
      HOME: process.env.HOME!,
      CI_PROJECT_DIR: project,
      PHCTL_VERSION: "0.1.0",
      PHCTL_TARBALL_URL: `file://${tgz}`,
      npm_config_update_notifier: "false",
      ...vars,
    };
    const before = ci[".phctl"].before_script.join("\n");
    return { ...bash(before, project, env), project, env };
  };

  it("installs the release tarball whose SHA-256 is PHCTL_SHA256 into the checkout", () => {
    const r = install({ PHCTL_SHA256: sha });
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^0\.1\.0$/m);
    expect(existsSync(join(r.project, ".phctl-install/bin/phctl"))).toBe(true);
    // after_script runs in a shell of its own: the apply job's still finds phctl
    writeFileSync(join(r.project, "phctl-apply.json"), "{}");
    writeFileSync(join(r.project, ".phctl-mr-iid"), "12");
    const after = bash(scripts("phctl-apply").after, r.project, { ...r.env, PHCTL_KEY: "default" }); // prettier-ignore
    expect(after.out).toContain("ran comment reviewed-plan.json --key default --pr 12");
  });

  it("never runs a phctl the checkout holds: every job checks and installs the tarball again", () => {
    const committed = (project: string) => {
      for (const d of [".phctl-install/bin", ".phctl-install/node_modules/.bin", "bin"]) {
        mkdirSync(join(project, d), { recursive: true });
        writeFileSync(join(project, d, "phctl"), '#!/usr/bin/env bash\n[ "$1" = --version ] && echo 0.1.0 || echo "COMMITTED PHCTL RAN with ${PHCTL_TOKEN:-}"\n', { mode: 0o755 }); // prettier-ignore
      }
    };
    const project = fresh("project");
    committed(project);
    const env = { PATH: process.env.PATH!, HOME: process.env.HOME!, CI_PROJECT_DIR: project, PHCTL_VERSION: "0.1.0", PHCTL_TARBALL_URL: `file://${tgz}`, PHCTL_TOKEN: "write-token", npm_config_update_notifier: "false" }; // prettier-ignore
    const before = ci[".phctl"].before_script.join("\n");
    const r = bash(before, project, { ...env, PHCTL_SHA256: sha });
    expect(r.code, r.out).toBe(0);
    expect(r.out).not.toContain("COMMITTED PHCTL RAN");
    expect(readFileSync(join(project, ".phctl-install/bin/phctl"), "utf8")).toContain("package/cli.js"); // prettier-ignore
    writeFileSync(join(project, "phctl-apply.json"), "{}");
    writeFileSync(join(project, ".phctl-mr-iid"), "12");
    const after = bash(scripts("phctl-apply").after, project, { ...env, PHCTL_KEY: "default" });
    expect(after.out).toContain("ran comment reviewed-plan.json");
    expect(after.out).not.toContain("COMMITTED PHCTL RAN");
    // No tarball to check: a phctl inside the checkout is no image's, even first on the PATH.
    committed(project);
    const image = bash(before, project, { ...env, PHCTL_SHA256: "", PATH: `${join(project, "bin")}:${process.env.PATH}` }); // prettier-ignore
    expect(image.code).toBe(1);
    expect(image.out).not.toContain("COMMITTED PHCTL RAN");
    expect(image.out).toContain("phctl: set PHCTL_SHA256 to the SHA-256 of");
  });

  it("refuses a tarball with another SHA-256, and installs nothing", () => {
    const r = install({ PHCTL_SHA256: "0".repeat(64) });
    expect(r.code).toBe(1);
    expect(r.out).toContain(`file://${tgz} has the SHA-256 ${sha}, not PHCTL_SHA256 (${"0".repeat(64)}): not installed`); // prettier-ignore
    expect(existsSync(join(r.project, ".phctl-install"))).toBe(false);
  });

  it("without PHCTL_SHA256, says what to set and installs nothing", () => {
    const r = install({ PHCTL_SHA256: "" }, `${noCurl}:${process.env.PATH}`);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`phctl: set PHCTL_SHA256 to the SHA-256 of file://${tgz}, or PHCTL_IMAGE to an image holding phctl 0.1.0`); // prettier-ignore
    expect(r.out).not.toContain("curl must not run");
  });

  it("uses phctl of PHCTL_VERSION already on the PATH (the image): nothing downloaded", () => {
    const r = install({ PHCTL_SHA256: "" }, `${PHCTL}:${noCurl}:${process.env.PATH}`);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^0\.1\.0$/m);
    expect(existsSync(join(r.project, ".phctl-install"))).toBe(false);
  });
});

/**
 * The apply job in a checkout the runner reuses without cleaning it (GIT_CLEAN_FLAGS: none):
 * an earlier job's files never become this job's outcome, and the worktree of the last
 * applied commit is removed whatever happened.
 */
describe("the apply job in an unclean checkout", () => {
  const origin = fresh("origin");
  copyExamples(origin);
  git(origin, "init", "-q", "-b", "main");
  git(origin, "add", "-A");
  git(origin, "commit", "-qm", "applied");
  const applied = git(origin, "rev-parse", "HEAD");
  git(origin, "commit", "-q", "--allow-empty", "-m", "merge of !7");
  const merge = git(origin, "rev-parse", "HEAD");
  const checkout = join(fresh("runner"), "builds", "config");
  git(tmp, "clone", "-q", `file://${origin}`, checkout);

  // GitLab's API as the job reads it: !7 merged `merge`; the last deployment is `applied`.
  const curl = standIn(
    "curl",
    `url="\${@: -1}"
case "$url" in
  */repository/commits/${merge}/merge_requests) echo '[{"iid": 7, "state": "merged", "merge_commit_sha": "${merge}"}]' ;;
  */repository/commits/*/merge_requests) echo '[]' ;;
  */merge_requests/7/pipelines) echo '[{"id": 70}]' ;;
  */pipelines/70/jobs*) echo '[{"id": 700, "name": "phctl-plan"}]' ;;
  */jobs/700/artifacts/phctl-plan.json) echo '{}' ;;
  */deployments*) echo '[{"sha": "${applied}"}]' ;;
  *) echo "unexpected $url" >&2; exit 22 ;;
esac`,
  );
  // phctl whose apply fails before it writes a result; comment says what it was asked.
  const phctl = standIn(
    "phctl",
    `case "$1" in
  --version) echo 0.1.0 ;;
  apply) echo "phctl: error: the service is away"; exit 1 ;;
  comment) echo "commented: $*" ;;
esac`,
  );
  const env = (job: string, sha: string) => ({
    PATH: `${phctl}:${curl}:${process.env.PATH}`,
    HOME: process.env.HOME!,
    TMPDIR: fresh("tmp"),
    CI_PROJECT_DIR: checkout,
    CI_PROJECT_ID: "5",
    CI_API_V4_URL: "https://gitlab.example/api/v4",
    CI_PIPELINE_ID: job,
    CI_JOB_ID: job,
    CI_COMMIT_SHA: sha,
    PHCTL_GITLAB_TOKEN: "glpat-test",
    PHCTL_VERSION: "0.1.0",
    PHCTL_CONFIG: ".",
    PHCTL_KEY: "default",
    PHCTL_JOURNAL: ".phctl/default/journal.jsonl",
  });
  const job = (id: string, sha: string) => {
    const main = bash(scripts("phctl-apply").main, checkout, env(id, sha));
    const after = bash(scripts("phctl-apply").after, checkout, env(id, sha));
    return { main, after };
  };
  const worktrees = () => git(checkout, "worktree", "list", "--porcelain").match(/^worktree /gm)!.length; // prettier-ignore

  it("a direct push after an applied merge request reports nothing on that merge request", () => {
    // What the applied merge request's job left behind.
    writeFileSync(join(checkout, "phctl-apply.json"), '{"formatVersion":1,"status":"applied"}');
    writeFileSync(join(checkout, ".phctl-mr-iid"), "7 900\n");
    const r = job("901", applied); // a direct push: no merge request merged it
    expect(r.main.code).toBe(1);
    expect(r.main.out).toContain("nothing reviewed to apply");
    expect(r.main.out).not.toMatch(/run phctl apply by hand/);
    // Its follow-up issue is kept (and nothing reported on the merge request of before).
    expect(r.main.out).toContain("commented: comment --unreviewed --key default");
    expect(r.after.out).not.toContain("commented");
    expect(existsSync(join(checkout, "phctl-apply.json"))).toBe(false);
  });

  it("a failed apply leaves no worktree of the last applied commit", () => {
    const r = job("902", merge);
    expect(r.main.out).toContain("phctl: applying the plan reviewed on !7");
    expect(r.main.code).toBe(1);
    expect(r.main.out).toContain("the service is away");
    expect(r.after.out).not.toContain("commented"); // no result: the apply did not start
    expect(worktrees()).toBe(1);
  });
});
