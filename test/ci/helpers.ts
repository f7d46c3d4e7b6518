/**
 * Shared by the `phctl comment` tests: plan files (the sample plan, a plan of thousands of
 * entries), GitHub event files, and a CLI runner that remembers every output so a test can
 * check that no token was ever printed.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { summarize, type Plan, type PlanEntry } from "../../src/engine/plan.js";
import { samplePlan } from "../fixtures/sample-plan.js";
import { phctl, type Run } from "../helpers/cli.js";

export const tempDir = (): string => mkdtempSync(join(tmpdir(), "phctl-comment-"));

export function writeJson(dir: string, name: string, data: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(data, null, 2));
  return file;
}

/** A plan of `deletes` access removals and `updates` description changes over 200 projects. */
export function bigPlan(deletes: number, updates: number): Plan {
  const entries: PlanEntry[] = [];
  for (let i = 0; i < deletes; i++)
    entries.push({
      key: `project/p${String(i % 200).padStart(3, "0")}/access/developers/user/u${String(i).padStart(4, "0")}`,
      kind: "ProjectAccess",
      action: "delete",
      before: { level: "developers", username: `u${i}` },
      after: null,
      changes: [],
      reason: "access lists are authoritative: not listed",
      source: { file: `projects/p${i % 200}.yaml`, line: 10 },
      dependsOn: [],
      destructive: true,
    });
  for (let i = 0; i < updates; i++)
    entries.push({
      key: `project/p${String(i % 200).padStart(3, "0")}/repo/r${String(i).padStart(4, "0")}`,
      kind: "Repository",
      action: "update",
      before: { description: `old text ${i}` },
      after: { description: `a much longer new description of repository ${i}` },
      changes: [
        {
          field: "description",
          before: `old text ${i}`,
          after: `a much longer new description of repository ${i}`,
        },
      ],
      reason: "description differs",
      source: { file: `projects/p${i % 200}.yaml`, line: 20 + (i % 50) },
      dependsOn: [],
      destructive: false,
    });
  return { ...samplePlan(), entries, summary: summarize(entries, 0), warnings: [], unmanaged: [] };
}

/** A pull_request event as GitHub writes it to GITHUB_EVENT_PATH. */
export function prEvent(number: number, opts: { head?: string; base?: string } = {}): object {
  return {
    action: "synchronize",
    number,
    pull_request: {
      number,
      base: { sha: "1".repeat(40), repo: { full_name: opts.base ?? "acme/config" } },
      head: { sha: "2".repeat(40), repo: { full_name: opts.head ?? "acme/config" } },
    },
  };
}

/** Runs the CLI and keeps every output, to search them all for secrets at the end. */
export function recorder(): { run: typeof phctl; outputs: () => string } {
  const runs: Run[] = [];
  return {
    run: async (args, env, cwd) => {
      const r = await phctl(args, env, cwd);
      runs.push(r);
      return r;
    },
    outputs: () => runs.map((r) => `${r.stdout}\n${r.stderr}`).join("\n"),
  };
}
