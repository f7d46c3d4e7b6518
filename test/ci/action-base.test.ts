/**
 * The action's "Check out the base commit" step on a self-hosted runner, which keeps the
 * checkout between jobs and empties RUNNER_TEMP: the base worktree the last job registered
 * there is gone but still registered, and the next job checks the base out again.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";

const ROOT = resolve(import.meta.dirname, "../..");
const step = parse(readFileSync(join(ROOT, "action.yml"), "utf8")).runs.steps.find(
  (s: { name?: string }) => s.name === "Check out the base commit",
);
const tmp = mkdtempSync(join(tmpdir(), "phctl-action-base-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "dev", GIT_AUTHOR_EMAIL: "d@example.org", GIT_COMMITTER_NAME: "dev", GIT_COMMITTER_EMAIL: "d@example.org" } }).trim(); // prettier-ignore

describe("the base worktree on a reused checkout", () => {
  it("is checked out again after RUNNER_TEMP was emptied", () => {
    const work = join(tmp, "work");
    mkdirSync(work);
    writeFileSync(join(work, "phctl.yaml"), "concurrency: 4\n");
    git(work, "init", "-q", "-b", "main");
    git(work, "add", "-A");
    git(work, "commit", "-qm", "base");
    const temp = join(tmp, "temp");
    const run = () => {
      rmSync(temp, { recursive: true, force: true }); // the runner empties it before each job
      mkdirSync(temp);
      const output = join(temp, "output");
      writeFileSync(output, "");
      const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run], {
        cwd: work,
        encoding: "utf8",
        env: { PATH: process.env.PATH, BASE_REF: "HEAD", CONFIG: ".", KEY: "default", RUNNER_TEMP: temp, GITHUB_OUTPUT: output }, // prettier-ignore
      });
      return { code: r.status, out: r.stdout + r.stderr, output: readFileSync(output, "utf8") };
    };
    expect(run().code).toBe(0);
    const again = run();
    expect(again.out).not.toContain("already registered");
    expect(again.code).toBe(0);
    expect(again.output).toBe(`dir=${join(temp, "phctl-base-default")}/.\n`);
  });
});
