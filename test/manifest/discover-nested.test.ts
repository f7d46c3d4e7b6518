/**
 * A checkout of phctl inside a config repository (the action checked out beside the config,
 * `actions/checkout` with `path: phctl`, a git submodule, an unpacked npm tarball) is phctl's
 * own source, not config: its examples, fixtures and profiles are never read, and its
 * examples/phctl.yaml is no "nested config" warning. Any other nested directory is walked.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../src/manifest/diagnostics.js";
import { loadManifests } from "../../src/pipeline/load.js";

const tmp = mkdtempSync(join(tmpdir(), "phctl-nested-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const org = (name: string) =>
  `apiVersion: phctl/v1\nkind: Organization\nmetadata: { name: ${name} }\n`;

let n = 0;
function tree(files: Record<string, string>): string {
  const base = join(tmp, `t${++n}`);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(base, path, ".."), { recursive: true });
    writeFileSync(join(base, path), content);
  }
  return base;
}

const names = (orgs: { name: string }[] | undefined) => (orgs ?? []).map((o) => o.name).sort();

async function load(base: string) {
  const r = await loadManifests(["."], { cwd: base });
  return {
    organizations: names(r.state?.organizations),
    diagnostics: r.diagnostics.map(formatDiagnostic),
  };
}

/** What a checkout of phctl holds that looks like config. */
const phctlCheckout = (dir: string, pkg = '{ "name": "phctl", "version": "0.1.0" }') => ({
  [`${dir}/package.json`]: pkg,
  [`${dir}/action.yml`]: "name: phctl\nruns: { using: composite, steps: [] }\n",
  [`${dir}/examples/phctl.yaml`]: "organization: acme\n",
  [`${dir}/examples/organizations.yaml`]: org("acme"),
  [`${dir}/test/fixtures/bad.yaml`]: "kind: Nonsense\n",
});

describe("a nested checkout of phctl", () => {
  it("is skipped: none of its YAML is read and its phctl.yaml is no warning", async () => {
    const base = tree({ "phctl.yaml": "concurrency: 4\n", "orgs.yaml": org("acme"), ...phctlCheckout("phctl-src") }); // prettier-ignore
    const r = await load(base);
    expect(r.diagnostics).toEqual([]);
    expect(r.organizations).toEqual(["acme"]);
  });

  it("is skipped at any depth, under any name", async () => {
    const base = tree({ "orgs.yaml": org("acme"), ...phctlCheckout("tools/ci/kit") });
    const r = await load(base);
    expect(r.diagnostics).toEqual([]);
    expect(r.organizations).toEqual(["acme"]);
  });

  it("a directory with a package.json of another name is config like any other", async () => {
    const base = tree({
      "orgs.yaml": org("acme"),
      "team/package.json": '{ "name": "acme-tools" }',
      "team/more.yaml": org("beta"),
      "broken/package.json": "{ not json",
      "broken/third.yaml": org("gamma"),
    });
    const r = await load(base);
    expect(r.diagnostics).toEqual([]);
    expect(r.organizations).toEqual(["acme", "beta", "gamma"]);
  });

  it("the directory given is read even when it is phctl's own checkout", async () => {
    const base = tree({ ...phctlCheckout("."), "orgs.yaml": org("acme") });
    const r = await loadManifests(["examples"], { cwd: base });
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([]);
    expect(names(r.state?.organizations)).toEqual(["acme"]);
  });
});
