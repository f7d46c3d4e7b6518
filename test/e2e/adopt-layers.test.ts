/**
 * `phctl drift --adopt` with Defaults layers, end to end (the built CLI against the reference
 * server on loopback): a drifted value a layer gave goes into that layer when it selects
 * nothing but the drifted repository, and into the project's own document as an override —
 * said on stderr, with the layer and how many other repositories it gives the value to — when
 * it selects more; the other repositories keep the layer's value, and a plan after shows no
 * changes.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let t: TestServer;
let dir: string;
let env: Record<string, string>;

const project = (slug: string) => `apiVersion: phctl/v1
kind: Project
metadata: { name: ${slug} }
spec:
  title: ${slug.toUpperCase()}
  access:
    admins: [jdoe]
    maintainers: [jdoe]
  git:
    repositories:
      - name: main
      - name: docs
      - name: tools
`;

const DEFAULTS = `apiVersion: phctl/v1
kind: Defaults
metadata: { name: repo-baseline }
spec:
  select: { kind: Repository }
  values:
    enableForking: false
---
apiVersion: phctl/v1
kind: Defaults
metadata: { name: tfa-docs }
spec:
  select: { kind: Repository, names: [tf-a], repositories: [docs] }
  values:
    requiresDCO: true
`;

beforeAll(async () => {
  t = await startServer();
  dir = mkdtempSync(join(tmpdir(), "phctl-adopt-layers-"));
  const config = join(dir, "config");
  mkdirSync(join(config, "projects"), { recursive: true });
  writeFileSync(join(config, "phctl.yaml"), "organization: acme\n");
  writeFileSync(
    join(config, "users.yaml"),
    "apiVersion: phctl/v1\nkind: User\nmetadata: { name: jdoe }\nspec:\n  firstName: Jane\n  lastName: Doe\n  externalEmail: jane@example.org\n",
  );
  writeFileSync(join(config, "projects", "tf-a.yaml"), project("tf-a"));
  writeFileSync(join(config, "projects", "tf-b.yaml"), project("tf-b"));
  writeFileSync(join(config, "defaults.yaml"), DEFAULTS);
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
  const r = await phctl(["apply", "config", "--auto-approve"], env, dir);
  if (r.code !== 0) throw new Error(r.stderr);
});
afterAll(() => t.close());

async function patchRepo(slug: string, name: string, body: Record<string, unknown>) {
  const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  try {
    const repos = await api.listAll("git.repos.list", { params: { projectSlug: slug } });
    const repoID = repos.find((r) => r.name === name)!.gitRepoID;
    await api.call("git.repos.patch", { params: { projectSlug: slug, repoID }, body });
  } finally {
    await api.close();
  }
}

describe("phctl drift --adopt with Defaults layers", () => {
  it("into the layer that selects only the drifted repository; an override where the layer selects more", async () => {
    await patchRepo("tf-a", "docs", { requiresDCO: false });
    await patchRepo("tf-a", "main", { enableForking: true });
    const defaultsBefore = readFileSync(join(dir, "config", "defaults.yaml"), "utf8");

    const r = await phctl(["drift", "config", "--adopt"], env, dir);
    expect(r.code).toBe(2);
    const lines = r.stderr.split("\n").filter((l) => l.startsWith("phctl: adopt: "));
    expect(lines).toContain(
      "phctl: adopt: project/tf-a/repo/docs: requiresDCO written into Defaults tfa-docs (config/defaults.yaml), which selects nothing else",
    );
    expect(lines).toContain(
      "phctl: adopt: project/tf-a/repo/main: override written to config/projects/tf-a.yaml: Defaults repo-baseline gives enableForking to 5 other repositories",
    );

    // The layer that selects only tf-a/docs now says what live has; repo-baseline is as it was.
    const defaults = readFileSync(join(dir, "config", "defaults.yaml"), "utf8");
    expect(defaults).toBe(defaultsBefore.replace("requiresDCO: true", "requiresDCO: false"));
    const tfa = readFileSync(join(dir, "config", "projects", "tf-a.yaml"), "utf8");
    expect(tfa).toMatch(/- name: main\n {8}enableForking: true\n/);
    expect(readFileSync(join(dir, "config", "projects", "tf-b.yaml"), "utf8")).toBe(
      project("tf-b"),
    );

    const p = await phctl(["plan", "config", "--detailed-exitcode"], env, dir);
    expect(p.stdout).toContain("No changes. Live state matches the manifests.");
    expect(p.code).toBe(0);
  });

  it("a value back at its default is written out as an override (removing the key would bring the layer's value back)", async () => {
    await patchRepo("tf-b", "tools", { enableForking: true });
    const r = await phctl(["drift", "config", "--adopt", "--format", "json"], env, dir);
    expect(r.code).toBe(2);
    const line = r.stdout.trim().split("\n").at(-1)!;
    const adopt = (JSON.parse(line) as { adopt: { layers: unknown[] } }).adopt;
    expect(adopt.layers).toEqual([
      expect.objectContaining({
        key: "project/tf-b/repo/tools",
        field: "enableForking",
        layer: "repo-baseline",
        written: "override",
        file: "config/projects/tf-b.yaml",
        others: 5,
      }),
    ]);
    const tfb = readFileSync(join(dir, "config", "projects", "tf-b.yaml"), "utf8");
    expect(tfb).toMatch(/- name: tools\n {8}enableForking: true\n/);
    const p = await phctl(["plan", "config", "--detailed-exitcode"], env, dir);
    expect(p.code).toBe(0);
  });

  it("a layer that selects only the drifted project today, by labels: an override, never the layer", async () => {
    const config = join(dir, "config");
    const gold = `apiVersion: phctl/v1
kind: Defaults
metadata: { name: gold-tier }
spec:
  select: { kind: Project, matchLabels: { tier: gold } }
  values:
    externalContribution: true
`;
    writeFileSync(join(config, "gold.yaml"), gold);
    const tfb = join(config, "projects", "tf-b.yaml");
    writeFileSync(
      tfb,
      readFileSync(tfb, "utf8").replace(
        "metadata: { name: tf-b }",
        "metadata: { name: tf-b, labels: { tier: gold } }",
      ),
    );
    const applied = await phctl(["apply", "config", "--auto-approve"], env, dir);
    expect(applied.code, applied.stderr).toBe(0);
    const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
    await api.call("projects.patch", {
      params: { projectSlug: "tf-b" },
      body: { externalContribution: false },
    });
    await api.close();

    const r = await phctl(["drift", "config", "--adopt"], env, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "phctl: adopt: project/tf-b: override written to config/projects/tf-b.yaml: Defaults gold-tier gives externalContribution to every project its selector chooses (by labels, globs or organization: none other today)",
    );
    // The rule stays as it was for every project labelled tier: gold from now on.
    expect(readFileSync(join(config, "gold.yaml"), "utf8")).toBe(gold);
    expect(readFileSync(tfb, "utf8")).toMatch(/externalContribution: false\n/);
    const p = await phctl(["plan", "config", "--detailed-exitcode"], env, dir);
    expect(p.code, p.stdout).toBe(0);
  });
});
