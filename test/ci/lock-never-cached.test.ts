/**
 * The CI kits keep the apply journal between runs and never the lock beside it: a lock
 * restored on another runner — the cache of a job killed by OOM or a runner restart, saved
 * `when: always` — would name a holder that is gone and block every later apply. Checked on
 * the parsed files: each cache path of examples/.gitlab-ci.yml (as GitLab matches them: a
 * directory takes all below it, `*` one path segment, `**` any) and of action.yml's
 * actions/cache steps, against the files phctl writes in `.phctl/<key>/`.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const ROOT = resolve(import.meta.dirname, "../..");
const read = (file: string) => parse(readFileSync(resolve(ROOT, file), "utf8"));

const JOURNAL = ".phctl/default/journal.jsonl";
const APPLIED = ".phctl/default/applied.json";
const LOCK = ".phctl/default/journal.jsonl.lock";
// What a takeover or an unlock may leave for a moment (lock.ts renames the lock aside).
const ASIDE = ".phctl/default/journal.jsonl.lock.123.8a1f.stale";

/** Does the cache path `pattern` take `file` (both relative to the checkout)? */
function takes(pattern: string, file: string): boolean {
  const p = pattern.replace(/^\.\//, "").replace(/\/+$/, "");
  if (file === p || file.startsWith(`${p}/`)) return true;
  const re = p
    .split(/(\*\*|\*|\?)/)
    .map((part) =>
      part === "**"
        ? ".*"
        : part === "*"
          ? "[^/]*"
          : part === "?"
            ? "[^/]"
            : part.replace(/[.+^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  return new RegExp(`^${re}(/.*)?$`).test(file);
}

describe("the CI kits never cache the apply lock", () => {
  it("the matcher itself: a directory takes its files, a glob only what it names", () => {
    expect(takes(".phctl/", LOCK)).toBe(true);
    expect(takes(".phctl/**", LOCK)).toBe(true);
    expect(takes(".phctl/*/journal.jsonl*", LOCK)).toBe(true);
    expect(takes(".phctl/*/journal.jsonl", LOCK)).toBe(false);
    expect(takes(".phctl/*/journal.jsonl", JOURNAL)).toBe(true);
  });

  it("examples/.gitlab-ci.yml: every job keeps the journal and applied record, never the lock", () => {
    const ci = read("examples/.gitlab-ci.yml");
    const jobs = Object.keys(ci).filter((k) => ci[k]?.extends === ".phctl");
    expect(jobs).toEqual(["phctl-plan", "phctl-apply", "phctl-drift", "phctl-report"]);
    for (const name of [".phctl", ...jobs]) {
      const cache = ci[name].cache ?? ci[".phctl"].cache;
      // Each cache of .phctl/ (the other keeps the installed dependencies, outside it).
      const kept = [cache].flat().filter((c) => c.paths.some((p: string) => p.startsWith(".phctl/"))); // prettier-ignore
      expect(kept, name).toHaveLength(1);
      for (const c of kept) {
        const paths: string[] = c.paths;
        expect(c.untracked ?? false, name).toBe(false);
        for (const file of [LOCK, ASIDE])
          expect(
            paths.filter((p) => takes(p, file)),
            `${name} caches ${file}`,
          ).toEqual([]);
        expect(
          paths.some((p) => takes(p, JOURNAL)),
          `${name} keeps the journal`,
        ).toBe(true);
        expect(
          paths.some((p) => takes(p, APPLIED)),
          `${name} keeps applied.json`,
        ).toBe(true);
      }
    }
    // The journal of a failed or killed apply is still kept.
    expect(ci["phctl-apply"].cache).toContainEqual(expect.objectContaining({ key: "phctl-journal-$PHCTL_KEY", policy: "pull-push", when: "always" })); // prettier-ignore
  });

  it("action.yml: what actions/cache saves and restores of .phctl is the journal and applied record", () => {
    const action = read("action.yml");
    const steps = (action.runs.steps as { uses?: string; with?: { path?: string } }[]).filter(
      (s) => s.uses?.startsWith("actions/cache") && s.with?.path?.includes(".phctl"),
    );
    expect(steps.map((s) => s.uses!.replace(/@.*/, "")).sort()).toEqual([
      "actions/cache/restore",
      "actions/cache/save",
    ]);
    for (const s of steps) {
      const paths = s
        .with!.path!.split("\n")
        .map((l) => l.trim().replace(/\$\{\{\s*inputs\.key\s*\}\}/g, "default"))
        .filter((l) => l !== "");
      for (const file of [LOCK, ASIDE]) expect(paths.filter((p) => takes(p, file))).toEqual([]);
      expect(paths.some((p) => takes(p, JOURNAL))).toBe(true);
    }
  });
});
