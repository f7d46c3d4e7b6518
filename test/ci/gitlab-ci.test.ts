/**
 * examples/.gitlab-ci.yml is well-formed: YAML that parses, the four jobs with the rules,
 * tokens, artifacts, cache and resource group the flow needs, and scripts that parse with
 * `bash -n` (GitLab runs each job's lines as one script); the drift job's script runs with a
 * stand-in phctl that prints the arguments it gets.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const ci = parse(readFileSync(resolve(import.meta.dirname, "../../examples/.gitlab-ci.yml"), "utf8")); // prettier-ignore
const JOBS = ["phctl-plan", "phctl-apply", "phctl-drift", "phctl-report"];
const MR = '$CI_PIPELINE_SOURCE == "merge_request_event"';

function bashParses(lines: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), "phctl-gitlab-")), "job.sh");
  writeFileSync(file, lines.join("\n"));
  try {
    execFileSync("bash", ["-n", file], { stdio: "pipe" });
    return "";
  } catch (e) {
    return String((e as { stderr?: Buffer }).stderr);
  }
}

describe("examples/.gitlab-ci.yml", () => {
  it("has the four jobs, each extending the install template, in its own stage", () => {
    expect(ci.stages).toEqual(["plan", "apply", "drift", "report"]);
    for (const name of JOBS) {
      expect(ci[name].extends, name).toBe(".phctl");
      expect(ci.stages, name).toContain(ci[name].stage);
    }
    // phctl from the image, or the release tarball checked by SHA-256 (gitlab-jobs.test.ts)
    expect(ci[".phctl"].image).toEqual({ name: "$PHCTL_IMAGE", entrypoint: [""] });
    expect(ci.default).toBeUndefined();
    expect(ci.workflow.rules.map((r: { if: string }) => r.if)).toContain(MR);
  });

  it("plans merge requests with the read token, against the base commit, keeping the plan", () => {
    const job = ci["phctl-plan"];
    expect(job.rules).toEqual([{ if: MR }]);
    expect(job.variables.PHCTL_TOKEN).toBe("$PHCTL_READ_TOKEN");
    const script = job.script.join("\n");
    expect(script).toContain('git fetch --no-tags --depth=1 origin "$CI_MERGE_REQUEST_DIFF_BASE_SHA"'); // prettier-ignore
    // a worktree of this job's own (gitlab-jobs.test.ts runs the job again in one checkout)
    expect(script).toContain('git worktree add --detach "$PHCTL_BASE" "$CI_MERGE_REQUEST_DIFF_BASE_SHA"'); // prettier-ignore
    expect(script).toMatch(/phctl plan "\$PHCTL_CONFIG" --base "\$PHCTL_BASE\/\$PHCTL_CONFIG" --out phctl-plan\.json/); // prettier-ignore
    expect(script).toContain('phctl comment phctl-plan.json --key "$PHCTL_KEY"');
    expect(job.artifacts.paths).toEqual(["phctl-plan.json"]);
    expect(script).toContain(
      '--journal "$PHCTL_JOURNAL" ${PHCTL_APPLIED:+--applied "$PHCTL_APPLIED"}',
    );
  });

  it("plan and apply check out the last applied commit: the environment's last successful deployment", () => {
    const applied = ci["phctl-plan"].script.find((l: string) => l.includes("deployments?"));
    expect(ci["phctl-apply"].script).toContain(applied);
    expect(applied).toContain("deployments?environment=production&status=success&order_by=finished_at&sort=desc&per_page=1"); // prettier-ignore
    expect(ci["phctl-apply"].environment.name).toBe("production");
    const dir = mkdtempSync(join(tmpdir(), "phctl-gitlab-"));
    const sha = "a".repeat(40);
    writeFileSync(join(dir, "git"), `#!/bin/sh\necho "git $*" >>"${dir}/git.log"\n[ "$1" != cat-file ]\n`, { mode: 0o755 }); // prettier-ignore
    const run = (deployments: string) => {
      writeFileSync(join(dir, "curl"), `#!/bin/sh\necho '${deployments}'\n`, { mode: 0o755 });
      return execFileSync("bash", ["-ec", `${applied}\necho "applied=$PHCTL_APPLIED"`], {
        env: { PATH: `${dir}:${process.env.PATH}`, PHCTL_CONFIG: "config" },
        encoding: "utf8",
      });
    };
    // A worktree of this pipeline (phctl-base-*: the next plan job removes what is left).
    expect(run(`[{"sha":"${sha}"}]`)).toMatch(/applied=\/tmp\/phctl-base-applied-[^/\s]*\/config/);
    expect(readFileSync(join(dir, "git.log"), "utf8")).toMatch(new RegExp(`git worktree add --detach /tmp/phctl-base-applied-\\S+ ${sha}`)); // prettier-ignore
    const none = run("[]");
    expect(none).toContain("phctl: no record of the last applied commit");
    expect(none).toContain("applied=\n");
  });

  it("applies on the default branch, one at a time, in the environment, with the reviewed plan", () => {
    const job = ci["phctl-apply"];
    expect(job.rules[0].if).toContain("$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH");
    expect(job.resource_group).toBe("phctl-apply");
    expect(job.environment.name).toBe("production");
    expect(job.variables.PHCTL_TOKEN).toBe("$PHCTL_WRITE_TOKEN");
    expect(job.cache).toContainEqual(
      expect.objectContaining({
        key: "phctl-journal-$PHCTL_KEY",
        policy: "pull-push",
        when: "always",
      }),
    ); // paths: lock-never-cached.test.ts; its other cache, the installed dependencies: pack.test.ts
    const script = job.script.join("\n");
    expect(script).toContain("merge_requests/$iid/pipelines");
    expect(script).toContain('api "jobs/$job/artifacts/phctl-plan.json" >reviewed-plan.json');
    expect(script).toMatch(/phctl apply "\$PHCTL_CONFIG" --reviewed reviewed-plan\.json --auto-approve/); // prettier-ignore
    expect(script).toContain(
      '--commit "$CI_COMMIT_SHA" ${PHCTL_APPLIED:+--applied "$PHCTL_APPLIED"}',
    );
    expect(job.after_script.join("\n")).toMatch(/if \[ -f phctl-apply\.json \] && \[ "\$\{job:-\}" = "\$CI_JOB_ID" \]; then phctl comment reviewed-plan\.json .*--outcome phctl-apply\.json --follow-up/s); // prettier-ignore
  });

  it("reports drift on a schedule with the read token: the issue, the metrics, the webhook", () => {
    const job = ci["phctl-drift"];
    expect(job.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "schedule" && $PHCTL_SCHEDULE != "report"' }]); // prettier-ignore
    expect(job.variables.PHCTL_TOKEN).toBe("$PHCTL_READ_TOKEN");
    const script = job.script.join("\n");
    expect(script).toContain('set -- "$PHCTL_CONFIG" --report gitlab-issue --metrics-file phctl-drift.prom --journal "$PHCTL_JOURNAL"'); // prettier-ignore
    expect(script).toContain('set -- "$@" --notify "$PHCTL_NOTIFY_URL"');
    expect(script).toMatch(/phctl drift "\$@"\n?$/);
    expect(job.artifacts).toEqual({ when: "always", paths: ["phctl-drift.prom"] });
  });

  it("the drift script passes the flags it means (run with a stand-in phctl)", () => {
    const dir = mkdtempSync(join(tmpdir(), "phctl-gitlab-"));
    writeFileSync(join(dir, "phctl"), '#!/bin/sh\nprintf "%s\\n" "$@"\n', { mode: 0o755 });
    const run = (vars: Record<string, string>) =>
      execFileSync("sh", ["-ec", ci["phctl-drift"].script.join("\n")], {
        env: { PATH: `${dir}:${process.env.PATH}`, PHCTL_CONFIG: ".", PHCTL_KEY: "default", PHCTL_JOURNAL: ".phctl/default/journal.jsonl", ...vars }, // prettier-ignore
        encoding: "utf8",
      }).trim().split("\n"); // prettier-ignore
    const journal = ".phctl/default/journal.jsonl";
    expect(run({})).toEqual(["drift", ".", "--report", "gitlab-issue", "--metrics-file", "phctl-drift.prom", "--journal", journal]); // prettier-ignore
    expect(run({ PHCTL_KEY: "prod", PHCTL_NOTIFY_URL: "https://hooks.example/a b" }).slice(8)).toEqual(["--key", "prod", "--notify", "https://hooks.example/a b"]); // prettier-ignore
  });

  it("publishes the reports on the schedule whose PHCTL_SCHEDULE is report: each read once, then HTML, markdown and the month's issue", () => {
    const job = ci["phctl-report"];
    expect(job.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "schedule" && $PHCTL_SCHEDULE == "report"' }]); // prettier-ignore
    expect(job.variables.PHCTL_TOKEN).toBe("$PHCTL_READ_TOKEN");
    expect(job.artifacts).toEqual({ when: "always", paths: ["access-review.*", "delivery-metrics.*"] }); // prettier-ignore
    // run with a stand-in phctl that logs its arguments and writes what --out names
    const dir = mkdtempSync(join(tmpdir(), "phctl-gitlab-"));
    writeFileSync(join(dir, "phctl"), '#!/bin/sh\necho "$*" >>calls.log\nwhile [ $# -gt 0 ]; do if [ "$1" = --out ]; then echo "{}" >"$2"; fi; shift; done\n', { mode: 0o755 }); // prettier-ignore
    const work = mkdtempSync(join(tmpdir(), "phctl-gitlab-work-"));
    execFileSync("sh", ["-ec", job.script.join("\n")], {
      cwd: work,
      env: { PATH: `${dir}:${process.env.PATH}`, PHCTL_CONFIG: ".", PHCTL_KEY: "default" },
    });
    expect(readFileSync(join(work, "calls.log"), "utf8").trim().split("\n")).toEqual([
      "report access . --format json --out access-review.json",
      "report delivery . --format json --out delivery-metrics.json",
      "report publish access-review.json --format html --out access-review.html",
      "report publish access-review.json --format markdown --out access-review.md --issue gitlab-issue --key default", // prettier-ignore
      "report publish delivery-metrics.json --format html --out delivery-metrics.html",
      "report publish delivery-metrics.json --format markdown --out delivery-metrics.md",
    ]);
  });

  it("gives the service's write token to the apply job only", () => {
    const jobs = JOBS.filter((j) => JSON.stringify(ci[j]).includes("PHCTL_WRITE_TOKEN"));
    expect(jobs).toEqual(["phctl-apply"]);
  });

  it.each(JOBS)("%s: every script is a string and parses with bash -n", (name) => {
    const job = { ...ci[".phctl"], ...ci[name] };
    for (const part of ["before_script", "script", "after_script"]) {
      const lines: unknown[] = job[part] ?? [];
      expect(
        lines.every((l) => typeof l === "string"),
        `${name}.${part}`,
      ).toBe(true);
      expect(bashParses(lines as string[]), `${name}.${part}`).toBe("");
    }
  });
});
