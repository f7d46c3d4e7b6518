/**
 * The CI kit never installs or runs phctl by a bare package name (`phctl`, `phctl@0.1.0`):
 * on a public registry that name is not this project's, and whoever publishes it would run
 * in the job that holds the write token. Every script of the GitLab template (its variables
 * expanded), of action.yml, of the example workflows and every RUN of the Dockerfile is
 * scanned for npm / npx / yarn / pnpm commands naming it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
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

/**
 * Every `uses:` line of the kit: `owner/name[/path]@<40 hex> # vX.Y.Z` (a tag moves, a commit
 * does not), a local action (`./…`), or an image by digest (`docker://…@sha256:…`).
 */
export function unpinnedUses(text: string): string[] {
  const bad: string[] = [];
  for (const [i, line] of text.split("\n").entries()) {
    const m = /^\s*(?:-\s+)?uses:\s*(\S+)(.*)$/.exec(line);
    if (!m) continue;
    const [, ref, rest] = m;
    const pinned =
      (/^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/.test(ref) && /^\s+# v\d+(\.\d+){0,2}\b/.test(rest)) ||
      ref.startsWith("./") ||
      /^docker:\/\/\S+@sha256:[0-9a-f]{64}$/.test(ref);
    if (!pinned) bad.push(`${i + 1}: ${line.trim()}`);
  }
  return bad;
}

describe("every action the kit uses is pinned to a commit, its tag in a comment", () => {
  it("the check is live: tags, short SHAs and a SHA without its tag are found", () => {
    const text = [
      "      - uses: actions/checkout@v4",
      "      - uses: actions/checkout@11bd719 # v4.2.2",
      "      - uses: actions/cache/restore@0057852bfaa89a56745cba8c7296529d2fc39830",
      "      - uses: your-org/phctl@main # v0.1.0",
      "      - uses: actions/checkout@34e114876b0b11c390a56381ad16ebd13914f8d5 # v4.3.1",
      "    - uses: actions/cache/save@0057852bfaa89a56745cba8c7296529d2fc39830 # v4.3.0",
      "      - uses: ./local-action",
    ].join("\n");
    expect(unpinnedUses(text).map((l) => Number(l.split(":")[0]))).toEqual([1, 2, 3, 4]);
  });

  it("action.yml and the example workflows", () => {
    const files = ["action.yml", ...readdirSync(join(ROOT, "examples/.github/workflows")).map((f) => `examples/.github/workflows/${f}`)]; // prettier-ignore
    let count = 0;
    for (const f of files) {
      const text = read(f);
      count += (text.match(/^\s*(?:-\s+)?uses:/gm) ?? []).length;
      expect(unpinnedUses(text), f).toEqual([]);
    }
    expect(count).toBeGreaterThanOrEqual(16);
  });

  it("the README's workflow snippets", () => {
    const blocks = [...read("README.md").matchAll(/```ya?ml\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks.some((b) => /uses:/.test(b))).toBe(true);
    expect(blocks.flatMap(unpinnedUses)).toEqual([]);
  });
});

/**
 * npm commands of a script that build phctl or compile anything: a build (`npm run build`,
 * `npm rebuild`, tsc, the bundler), or an install without `--omit=dev --omit=optional
 * --ignore-scripts` (dev tools, better-sqlite3's compile, install scripts).
 */
export function buildsInCi(script: string): string[] {
  const found: string[] = [];
  for (const command of script.replace(/\\\n/g, " ").split(/&&|\|\||[;|&\n()]|\b(?:then|do)\b/)) {
    const words = command.trim().split(/\s+/);
    const [tool, sub] = words;
    const line = words.join(" ");
    if (tool === "npm" && /^(run|run-script|rebuild|rb|prepare)$/.test(sub ?? "")) found.push(line);
    else if (
      tool === "tsc" ||
      (tool === "npx" && sub === "tsc") ||
      /scripts\/bundle\.js/.test(line)
    )
      found.push(line); // prettier-ignore
    else if (tool === "npm" && /^(ci|install|i|add|in)$/.test(sub ?? "")) {
      for (const flag of ["--omit=dev", "--omit=optional", "--ignore-scripts"])
        if (!words.includes(flag)) found.push(`${line} (no ${flag})`);
    }
  }
  return found;
}

describe("CI builds nothing and compiles nothing: it installs production dependencies only, no script run", () => {
  it("the check is live: the action's old install from its checkout is found", () => {
    const old = "npm ci --ignore-scripts --no-audit --no-fund\nnpm rebuild esbuild\nnpm run build\nphctl --version"; // prettier-ignore
    expect(buildsInCi(old)).toEqual([
      "npm ci --ignore-scripts --no-audit --no-fund (no --omit=dev)",
      "npm ci --ignore-scripts --no-audit --no-fund (no --omit=optional)",
      "npm rebuild esbuild",
      "npm run build",
    ]);
    expect(buildsInCi("(cd p && npm ci --omit=dev --ignore-scripts)")).toEqual(["npm ci --omit=dev --ignore-scripts (no --omit=optional)"]); // prettier-ignore
    expect(buildsInCi("npx tsc -p . && node scripts/bundle.js")).toHaveLength(2);
    expect(buildsInCi("npm ci --omit=dev --omit=optional --ignore-scripts --no-audit")).toEqual([]); // prettier-ignore
  });

  it("action.yml and examples/.gitlab-ci.yml (variables expanded)", () => {
    const steps = parse(read("action.yml")).runs.steps as { run?: string }[];
    const scripts = gitlabScripts(read("examples/.gitlab-ci.yml"));
    for (const [file, all] of [
      ["action.yml", runs(steps)],
      ["examples/.gitlab-ci.yml", scripts],
    ] as const) {
      // prettier-ignore
      expect(all.join("\n"), file).toContain("npm ci");
      expect(all.flatMap(buildsInCi), file).toEqual([]);
    }
  });
});
