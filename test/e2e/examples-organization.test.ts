/**
 * The examples fit any organization (issue 36, item 7): they name their parent organization,
 * acme, in a few files (selectors, policy tests, fork and mirror URLs: the manifests have no
 * variables), and the top of examples/phctl.yaml lists exactly which. Renamed as it says,
 * for another parent organization (globex), the examples apply to a fresh reference server
 * with that organization's token, and plan to no changes after. The built CLI on loopback.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { phctl } from "../helpers/cli.js";
import { copyExamples, EXAMPLES_DIR } from "../helpers/examples.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const ORG = TOKENS.other.parentOrganization; // globex
let t: TestServer;
let config: string;
let env: Record<string, string>;

/** The files the header of examples/phctl.yaml says to rename acme in. */
function documented(): string[] {
  const header = readFileSync(join(EXAMPLES_DIR, "phctl.yaml"), "utf8").split("\n");
  return header.flatMap((l) => /^#\s+- (\S+\.ya?ml): /.exec(l)?.[1] ?? []);
}

/** Every YAML file of a config directory but its schemas and dot-directories, relative to it. */
function yamlFiles(dir: string, rel = ""): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory())
      return e.name.startsWith(".") || e.name === "schemas"
        ? []
        : yamlFiles(dir, `${rel}${e.name}/`);
    return /\.ya?ml$/.test(e.name) ? [`${rel}${e.name}`] : [];
  });
}

beforeAll(async () => {
  t = await startServer();
  config = join(mkdtempSync(join(tmpdir(), "phctl-examples-org-")), "config");
  copyExamples(config);
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.other.secret };
});
afterAll(async () => t.close());

describe("the examples in another organization", () => {
  it("name acme only in the files phctl.yaml lists, with the command it gives", () => {
    const files = documented();
    expect(files[0]).toBe("phctl.yaml");
    expect(files).toHaveLength(7);
    const header = readFileSync(join(EXAMPLES_DIR, "phctl.yaml"), "utf8");
    const command = /^#\s+perl -pi -e 's\/\\bacme\\b\/globex\/g' ([^\n]*\\\n#\s+[^\n]*)$/m.exec(header); // prettier-ignore
    expect(command, header).not.toBeNull();
    expect(command![1].replace(/\\\n#\s+/, "").split(/\s+/)).toEqual(files);
    // No other file names acme outside its comments.
    const naming = yamlFiles(config).filter((f) =>
      readFileSync(join(config, f), "utf8")
        .split("\n")
        .some((l) => /\bacme\b/.test(l.replace(/(^|\s)#.*$/, ""))),
    );
    expect(naming.sort()).toEqual([...files].sort());
  });

  it("renamed as phctl.yaml says, apply to a fresh service of that organization and plan to no changes", async () => {
    for (const f of documented()) {
      const file = join(config, f);
      writeFileSync(file, readFileSync(file, "utf8").replace(/\bacme\b/g, ORG));
    }
    const tests = await phctl(["policy", "test", "policies"], env, config);
    expect(tests.code, tests.stdout + tests.stderr).toBe(0);
    const apply = await phctl(["apply", ".", "--auto-approve"], env, config);
    expect(apply.code, apply.stderr).toBe(0);
    // The fork and the mirror were made in globex's group of trusted-firmware-a.
    const repos = (await t.call("GET", "/v1/projects/ci-tools/git/repo", { as: "other" })).body.data; // prettier-ignore
    expect(repos.map((r: { name: string }) => r.name)).toContain("tf-a-staging");
    const plan = await phctl(["plan", "."], env, config);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain("No changes. Live state matches the manifests.");
  });
});
