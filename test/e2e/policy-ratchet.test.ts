/**
 * Rolling a rule out with `enforcement: ratchet` (issue 35, item 14): the violations already
 * there are debt — counted, never blocking — while a change that adds a violation, or makes
 * one worse, is denied by plan --base, refused by apply, and drift reports the debt and its
 * metric. The built CLI against the reference server on loopback, the examples applied with
 * a ratchet policy that every example project (3) breaks.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import type { Plan } from "../../src/engine/plan.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { phctl } from "../helpers/cli.js";
import { copyExamples } from "../helpers/examples.js";
import { populate } from "../helpers/populate.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let t: TestServer;
let dir: string;
let env: Record<string, string>;

/** No example project's title starts with "Project ": 3 violations already there. */
const TITLES = (enforcement = "ratchet") => `apiVersion: phctl/v1
kind: Policy
metadata: { name: project-titles }
spec:
  select: { kind: Project }
  enforcement: ${enforcement}
  rules:
    - name: prefixed
      expression: 'object.spec.title.startsWith("Project ")'
      messageExpression: '"title " + object.spec.title + " does not start with Project "'
`;

const P4 = `apiVersion: phctl/v1
kind: Project
metadata: { name: p4 }
spec:
  title: Fourth
  licenses: [MIT]
  access: { admins: [jdoe, asmith] }
`;

beforeAll(async () => {
  t = await startServer();
  dir = mkdtempSync(join(tmpdir(), "phctl-ratchet-"));
  copyExamples(join(dir, "base"));
  writeFileSync(join(dir, "base/policies/titles.yaml"), TITLES());
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret, PHCTL_NOW: "2026-11-28" };
  const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  await populate(api, (await loadManifests([join(dir, "base")])).state!);
  await api.close();
});
afterAll(() => t.close());

/** A copy of the base with `files` written into it, and `edit` applied to files' text. */
function head(
  name: string,
  files: Record<string, string>,
  edit: Record<string, [string, string]> = {},
) {
  const d = join(dir, name);
  cpSync(join(dir, "base"), d, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(d, f), text);
  for (const [f, [from, to]] of Object.entries(edit)) {
    const text = readFileSync(join(d, f), "utf8");
    expect(text).toContain(from);
    writeFileSync(join(d, f), text.replace(from, to));
  }
  return d;
}

const titles = (p: Plan) => p.violations.filter((v) => v.policy === "project-titles");

describe("enforcement: ratchet", () => {
  it("a full plan with 3 violations already live: exit 0, debt: 3", async () => {
    const r = await phctl(["plan", join(dir, "base")], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("No changes.");
    expect(r.stdout).toContain("Policy violations (0 denied, 0 warnings, 3 debt):");
    expect(r.stdout).toContain(
      "Policy debt: 3 violations already there, not blocking (project-titles 3)",
    );
    // The debt is counted, not listed: no denial line.
    expect(r.stdout).not.toMatch(/^\s+deny\s/m);
    const j = await phctl(["plan", join(dir, "base"), "--format", "json"], env);
    expect(j.code).toBe(0);
    const p = JSON.parse(j.stdout) as Plan;
    expect(titles(p).map((v) => [v.key, v.enforcement, v.ratchet])).toEqual([
      ["project/ci-tools", "ratchet", "existing"],
      ["project/mbed-tls", "ratchet", "existing"],
      ["project/trusted-firmware-a", "ratchet", "existing"],
    ]);
    const md = await phctl(["plan", join(dir, "base"), "--format", "markdown"], env);
    expect(md.stdout).toContain("policy: 0 denied, 0 warnings, 3 debt");
    expect(md.stdout).toContain("Policy debt: 3 violations already there");
  });

  it("a pull request adding a 4th violating project: plan --base denies it alone, exit 1", async () => {
    const h = head("p4", { "projects/p4.yaml": P4 });
    const r = await phctl(["plan", h, "--base", join(dir, "base"), "--format", "json"], env);
    expect(r.code, r.stderr).toBe(1);
    const p = JSON.parse(r.stdout) as Plan;
    expect(titles(p).map((v) => [v.key, v.ratchet])).toEqual([["project/p4", "new"]]);
    expect(r.stderr).toContain(
      "1 policy violation denies this plan (project-titles/prefixed on project/p4)",
    );
    const text = await phctl(["plan", h, "--base", join(dir, "base")], env);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/deny {2}project\/p4/);
    expect(text.stdout).toContain("new under ratchet");
    // The full plan of the same head: the 3 are debt, the 4th (absent live) is new.
    const full = await phctl(["plan", h, "--format", "json"], env);
    expect(full.code).toBe(1);
    expect(titles(JSON.parse(full.stdout) as Plan).map((v) => `${v.key} ${v.ratchet}`)).toEqual([
      "project/ci-tools existing",
      "project/mbed-tls existing",
      "project/p4 new",
      "project/trusted-firmware-a existing",
    ]);
  });

  it("a violating project changed elsewhere stays debt; made worse, it is denied", async () => {
    const base = join(dir, "base");
    const elsewhere = head(
      "described",
      {},
      {
        "projects/ci-tools.yaml": ["Shared continuous-integration tooling", "CI tooling, shared"],
      },
    );
    // The full plan judges against the live object (the update undone): the same violation.
    for (const args of [
      ["plan", elsewhere],
      ["plan", elsewhere, "--base", base],
    ]) {
      const r = await phctl([...args, "--format", "json"], env);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
      const ci = titles(JSON.parse(r.stdout) as Plan).find((v) => v.key === "project/ci-tools");
      expect(ci?.ratchet).toBe("existing");
    }
    const worse = head(
      "retitled",
      {},
      { "projects/ci-tools.yaml": ["title: CI tools", "title: Tools"] },
    );
    for (const args of [
      ["plan", worse],
      ["plan", worse, "--base", base],
    ]) {
      const r = await phctl([...args, "--format", "json"], env);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(1);
      const ci = titles(JSON.parse(r.stdout) as Plan).find((v) => v.key === "project/ci-tools");
      expect(ci).toMatchObject({
        ratchet: "worsened",
        message: "title Tools does not start with Project ",
        was: "title CI tools does not start with Project ",
      });
    }
  });

  it("apply refuses only what the ratchet blocks: nothing is sent", async () => {
    const h = head("apply-p4", { "projects/p4.yaml": P4 });
    const r = await phctl(["apply", h, "--auto-approve"], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "1 policy violation denies this plan (project-titles/prefixed on project/p4): nothing was applied",
    );
    const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
    const slugs = (await api.listAll("projects.list", {})).map((x) => x.projectSlug);
    await api.close();
    expect(slugs).not.toContain("p4");
    // Debt alone does not stop an apply: the description change goes through.
    const ok = head(
      "apply-described",
      {},
      {
        "projects/ci-tools.yaml": ["Shared continuous-integration tooling", "CI tooling, shared"],
      },
    );
    const a = await phctl(["apply", ok, "--auto-approve"], env);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toContain("Policy debt: 3 violations already there");
  });

  it("drift reports the debt, and phctl_policy_debt in the metrics file", async () => {
    const d = head(
      "drift",
      {},
      {
        "projects/ci-tools.yaml": ["Shared continuous-integration tooling", "CI tooling, shared"],
      },
    );
    const prom = join(dir, "drift.prom");
    const r = await phctl(["drift", d, "--metrics-file", prom], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      "Policy debt: 3 violations already there, not blocking (project-titles 3)",
    );
    const metrics = readFileSync(prom, "utf8");
    expect(metrics).toMatch(/^phctl_policy_debt\{key="default",policy="project-titles"\} 3$/m);
    expect(metrics).toMatch(
      /^phctl_drift_policy_violations\{key="default",enforcement="deny"\} 0$/m,
    );
  });

  it("moved to deny with one field: the same 3 deny", async () => {
    const h = head("deny", { "policies/titles.yaml": TITLES("deny") });
    const r = await phctl(["plan", h, "--format", "json"], env);
    expect(r.code).toBe(1);
    expect(titles(JSON.parse(r.stdout) as Plan).map((v) => v.enforcement)).toEqual([
      "deny",
      "deny",
      "deny",
    ]);
  });
});
