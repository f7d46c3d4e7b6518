/**
 * `phctl comment` outside CI (issue 36, item 8): its help promises that without a token that
 * can comment the plan goes to stdout and phctl exits 0 — on a laptop, with no CI variables
 * at all, too (it exited 1 with "not in GitHub Actions or GitLab CI"). The built CLI.
 */
import { describe, expect, it } from "vitest";
import { samplePlan } from "../fixtures/sample-plan.js";
import { phctl } from "../helpers/cli.js";
import { tempDir, writeJson } from "./helpers.js";

describe("phctl comment outside CI", () => {
  it("writes the comment to stdout, says so on stderr, and exits 0", async () => {
    const dir = tempDir();
    const plan = writeJson(dir, "plan.json", samplePlan());
    const r = await phctl(["comment", "plan.json"], {}, dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.startsWith("<!-- phctl:plan key=default -->")).toBe(true);
    expect(r.stdout).toMatch(/^### phctl plan: /m);
    expect(r.stderr).toBe(
      "phctl: no token to comment with (not in GitHub Actions or GitLab CI): the plan is on stdout\n",
    );
    expect(plan).toContain("plan.json");
  });

  it("still refuses half a CI context: GITHUB_REPOSITORY that is not owner/name", async () => {
    const dir = tempDir();
    writeJson(dir, "plan.json", samplePlan());
    const r = await phctl(["comment", "plan.json"], { GITHUB_REPOSITORY: "nope" }, dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('GITHUB_REPOSITORY must be "owner/name"');
  });
});
