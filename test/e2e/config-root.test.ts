/**
 * Where phctl finds the config and keeps its own files, as a user sees it (the built CLI on
 * the embedded server; `npm run build` first):
 *
 * - `phctl validate` with no path validates the config directory (the one holding
 *   phctl.yaml: here, above or one level below), never a whole repository, and says which;
 *   with none found it says so and what to pass;
 * - `.phctl/` (embedded database, journal and its lock) lives beside phctl.yaml, whatever
 *   the working directory: a plan from inside the config sees what an apply from the
 *   repository root did, and the first line about the embedded server says where it is.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readJournal } from "../../src/engine/journal.js";
import { phctl } from "../helpers/cli.js";
import { copyExamples } from "../helpers/examples.js";

const tmp = mkdtempSync(join(tmpdir(), "phctl-config-root-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A repository: the examples in config/, and YAML that is no manifest at its root. */
function repository(name: string): string {
  const root = join(tmp, name);
  mkdirSync(root);
  copyExamples(join(root, "config"));
  writeFileSync(join(root, "action.yml"), "name: not a manifest\nruns: { using: composite }\n");
  return root;
}

const embedded = { PHCTL_API_URL: undefined, PHCTL_TOKEN: undefined };

describe("phctl validate with no path", () => {
  const root = repository("validate");

  it("from the repository root: the config directory below it, named on stderr", async () => {
    const r = await phctl(["validate"], {}, root);
    expect(r.stdout).toBe("0 errors, 0 warnings in 13 files\n");
    expect(r.stderr).toBe("phctl: validating config (it holds phctl.yaml)\n");
    expect(r.code).toBe(0);
  });

  it("from inside the config: the directory above that holds phctl.yaml", async () => {
    const r = await phctl(["validate", "--format", "json"], {}, join(root, "config/projects"));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("phctl: validating .. (it holds phctl.yaml)\n");
    expect(JSON.parse(r.stdout)).toMatchObject({ summary: { errors: 0, files: 13 } });
  });

  it("with no phctl.yaml near: one line saying so and what to pass, exit 1", async () => {
    const bare = join(tmp, "bare");
    mkdirSync(join(bare, ".git"), { recursive: true });
    writeFileSync(join(bare, "action.yml"), "name: x\n");
    const r = await phctl(["validate"], {}, bare);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      "phctl: no phctl.yaml here, in a directory above (up to the top of the checkout) or in one below: pass the config directory or the manifest files (phctl validate DIR)\n",
    );
  });
});

describe(".phctl/ beside phctl.yaml", () => {
  it("apply from the repository root, plan from inside the config: the same embedded server and journal", async () => {
    const root = repository("state");
    const config = join(root, "config");
    const apply = await phctl(["apply", "config", "--auto-approve"], embedded, root);
    expect(apply.code).toBe(0);
    expect(apply.stderr.split("\n")[0]).toBe(
      "phctl: no API URL configured (--api-url or PHCTL_API_URL): using the embedded reference server on config/.phctl/embedded.sqlite",
    );
    expect(existsSync(join(root, ".phctl"))).toBe(false);
    expect(readJournal(join(config, ".phctl/journal.jsonl"))?.status).toBe("finished");

    const plan = await phctl(["plan", ".", "--detailed-exitcode"], embedded, config);
    expect(plan.stderr.split("\n")[0]).toMatch(
      /embedded reference server on \.phctl\/embedded\.sqlite$/,
    );
    expect(plan.stdout).toMatch(/^No changes\./);
    expect(plan.code).toBe(0);
    expect(existsSync(join(config, ".phctl/.phctl"))).toBe(false);
  }, 60_000);

  it("--journal still wins, relative to the working directory", async () => {
    const root = repository("journal-flag");
    const r = await phctl(
      ["apply", "config", "--auto-approve", "--journal", "ci/journal.jsonl"],
      embedded,
      root,
    );
    expect(r.code).toBe(0);
    expect(readJournal(join(root, "ci/journal.jsonl"))?.status).toBe("finished");
    expect(existsSync(join(root, "config/.phctl/journal.jsonl"))).toBe(false);
  }, 60_000);
});
