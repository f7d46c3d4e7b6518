/**
 * The CI kit never installs or runs phctl by a bare package name (`phctl`, `phctl@0.1.0`):
 * on a public registry that name is not this project's, and whoever publishes it would run
 * in the job that holds the write token. Every script of the GitLab template (its variables
 * expanded), of action.yml, of the example workflows and every RUN of the Dockerfile is
 * scanned for npm / npx / yarn / pnpm commands naming it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const ROOT = resolve(import.meta.dirname, "../..");
const read = (f: string) => readFileSync(join(ROOT, f), "utf8");

/** Package arguments of install-or-run commands that name phctl from a registry. */
function bareInstalls(script: string): string[] {
  const bare = (w: string) => /^(npm:)?phctl(@[^/]*)?$/.test(w.replace(/^--package=/, ""));
  const found: string[] = [];
  // One command at a time: its words, quotes taken off.
  for (const command of script.replace(/\\\n/g, " ").split(/&&|\|\||[;|&\n()]|\b(?:then|do)\b/)) {
    const words = command
      .trim()
      .split(/\s+/)
      .map((w) => w.replace(/^["']|["']$/g, ""));
    const [tool, sub] = words;
    const args =
      (tool === "npm" && /^(install|i|add|in|isntall|exec|x)$/.test(sub ?? "")) ||
      ((tool === "yarn" || tool === "pnpm") && /^(add|dlx|exec)$/.test(sub ?? ""))
        ? words.slice(2)
        : tool === "npx" || tool === "pnpx"
          ? words.slice(1, words.findIndex((w, i) => i > 0 && !w.startsWith("-")) + 1 || undefined) // options and the command run
          : [];
    for (const arg of args) if (bare(arg)) found.push(`${tool} … ${arg}`);
  }
  return found;
}

/** `$NAME` / `${NAME}` replaced by the values GitLab would give them. */
const expand = (text: string, vars: Record<string, unknown>) =>
  text.replace(/\$\{?([A-Z_][A-Z0-9_]*)\}?/g, (m, name: string) => (name in vars ? String(vars[name]) : m)); // prettier-ignore

function gitlabScripts(text: string): string[] {
  const ci = parse(text);
  const out: string[] = [];
  for (const [name, job] of Object.entries<Record<string, unknown>>(ci)) {
    if (typeof job !== "object" || job === null || Array.isArray(job) || name === "variables") continue; // prettier-ignore
    const template = typeof job.extends === "string" ? ci[job.extends] : {};
    const vars = { ...ci.variables, ...template?.variables, ...(job.variables as object) };
    for (const part of ["before_script", "script", "after_script"])
      for (const line of (job[part] ?? []) as string[]) out.push(expand(line, vars));
  }
  return out;
}

const runs = (steps: { run?: string }[]) => steps.flatMap((s) => (s.run ? [s.run] : []));

describe("phctl is never installed by a bare registry name", () => {
  it("the detector is live: the template's old install, npx and npm i forms are found", () => {
    const old = `variables:\n  PHCTL_PACKAGE: phctl@0.1.0\n.phctl:\n  before_script:\n    - npm install --global --no-audit --no-fund "$PHCTL_PACKAGE"\n`;
    expect(gitlabScripts(old).flatMap(bareInstalls)).toEqual(["npm … phctl@0.1.0"]);
    expect(bareInstalls("npx phctl validate .")).toEqual(["npx … phctl"]);
    expect(bareInstalls("npx --yes phctl@latest plan")).toEqual(["npx … phctl@latest"]);
    expect(bareInstalls("npm i -g phctl && phctl plan")).toEqual(["npm … phctl"]);
    expect(bareInstalls("npx --package=phctl@0.1.0 phctl plan")).toEqual(["npx … --package=phctl@0.1.0", "npx … phctl"]); // prettier-ignore
    expect(bareInstalls("pnpm add npm:phctl@1")).toEqual(["pnpm … npm:phctl@1"]);
    // files, URLs and commands that install nothing by name are fine
    expect(bareInstalls('npm install --global --prefix "$P" --ignore-scripts "$tgz"')).toEqual([]); // prettier-ignore
    expect(bareInstalls("npm install ./phctl-0.1.0.tgz && npm ci && npx tsc && phctl plan")).toEqual([]); // prettier-ignore
  });

  it("examples/.gitlab-ci.yml (variables expanded)", () => {
    const scripts = gitlabScripts(read("examples/.gitlab-ci.yml"));
    expect(scripts.length).toBeGreaterThan(5);
    expect(scripts.flatMap(bareInstalls)).toEqual([]);
  });

  it("action.yml and the example workflows", () => {
    const files = ["action.yml", ...["plan", "apply", "drift", "report"].map((m) => `examples/.github/workflows/phctl-${m}.yml`)]; // prettier-ignore
    for (const f of files) {
      const doc = parse(read(f));
      const steps = doc.runs?.steps ?? Object.values<{ steps: object[] }>(doc.jobs).flatMap((j) => j.steps); // prettier-ignore
      expect(runs(steps).flatMap(bareInstalls), f).toEqual([]);
    }
  });

  it("the Dockerfile", () => {
    expect(existsSync(join(ROOT, "Dockerfile"))).toBe(true);
    const runLines = read("Dockerfile").replace(/\\\n/g, " ").split("\n").filter((l) => /^\s*RUN\b/.test(l)); // prettier-ignore
    expect(runLines.length).toBeGreaterThan(0);
    expect(runLines.flatMap(bareInstalls)).toEqual([]);
  });
});
