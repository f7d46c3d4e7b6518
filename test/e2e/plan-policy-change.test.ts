/**
 * A pull request that only changes policies (issue 35, defect 1): its plan must judge the
 * objects the policy selects, show their denials and exit 1, and say which policy change
 * caused them — as `validate` on the same commit does. The built CLI against the reference
 * server on loopback, the examples applied; `plan HEAD --base BASE`.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import type { Plan } from "../../src/engine/plan.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { phctl } from "../helpers/cli.js";
import { populate } from "../helpers/populate.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { copyExamples } from "../helpers/examples.js";

let t: TestServer;
let dir: string;
let env: Record<string, string>;

/** A deny policy every example project breaks (no title starts with "Project "). */
const TITLES = (exceptions = "") => `apiVersion: phctl/v1
kind: Policy
metadata: { name: project-titles }
spec:
  select: { kind: Project }
  enforcement: deny
  rules:
    - name: prefixed
      expression: 'object.spec.title.startsWith("Project ")'
      message: a project's title starts with "Project "
${exceptions}`;

const EXCEPTION = `  exceptions:
    - key: project/ci-tools
      reason: renamed next quarter
      expires: "2027-06-30"
      approvedBy: ospo
`;

beforeAll(async () => {
  t = await startServer();
  dir = mkdtempSync(join(tmpdir(), "phctl-policy-pr-"));
  copyExamples(join(dir, "base"));
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret, PHCTL_NOW: "2026-11-28" };
  const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  await populate(api, (await loadManifests([join(dir, "base")])).state!);
  await api.close();
});
afterAll(() => t.close());

/** A head copy of the base with `files` written into it. */
function head(name: string, files: Record<string, string>, base = "base"): string {
  const d = join(dir, name);
  cpSync(join(dir, base), d, { recursive: true });
  for (const [f, text] of Object.entries(files)) writeFileSync(join(d, f), text);
  return d;
}

const plan = (h: string, base: string, format = "json") =>
  phctl(["plan", h, "--base", join(dir, base), "--format", format], env);

describe("plan --base of a pull request that changes policies", () => {
  it("a deny policy added: its objects are judged, the plan lists the denials and exits 1", async () => {
    const h = head("added", { "policies/titles.yaml": TITLES() });
    const validate = await phctl(["validate", h], env);
    expect(validate.code).toBe(1);
    const r = await plan(h, "base");
    expect(r.code, r.stderr).toBe(1);
    const p = JSON.parse(r.stdout) as Plan;
    const denied = p.violations.filter((v) => v.policy === "project-titles");
    expect(denied.map((v) => v.key).sort()).toEqual([
      "project/ci-tools",
      "project/mbed-tls",
      "project/trusted-firmware-a",
    ]);
    expect(denied.every((v) => v.enforcement === "deny")).toBe(true);
    expect(p.policyChanges).toEqual([
      {
        name: "project-titles",
        source: {
          file: expect.stringMatching(/policies\/titles\.yaml$/) as string,
          line: 1,
          column: 1,
        },
        change: "added",
        scope: "object",
        objects: 3,
      },
    ]);
    expect(r.stderr).toContain("planning the 3 objects the change touches");

    const md = await plan(h, "base", "markdown");
    expect(md.stdout).toContain("**This pull request changes 1 policy**");
    expect(md.stdout).toMatch(
      /- `project-titles` added \(object rules; judges 3 objects, planned here\)/,
    );
    expect(md.stdout).toMatch(/\*\*deny\*\* `project\/ci-tools`/);
  });

  it("an exception removed: the violation it covered is back", async () => {
    const base = head("with-exception", { "policies/titles.yaml": TITLES(EXCEPTION) });
    // The base already denies two projects; the change removes ci-tools' exception.
    const h = head("without-exception", { "policies/titles.yaml": TITLES() }, "with-exception");
    const before = JSON.parse((await plan(base, "with-exception")).stdout) as Plan;
    expect(before.violations).toEqual([]);
    const r = await plan(h, "with-exception");
    expect(r.code).toBe(1);
    const p = JSON.parse(r.stdout) as Plan;
    const ci = p.violations.find(
      (v) => v.key === "project/ci-tools" && v.policy === "project-titles",
    );
    expect(ci?.enforcement).toBe("deny");
    expect(ci?.exception).toBeUndefined();
    expect(p.policyChanges?.map((c) => `${c.name} ${c.change}`)).toEqual([
      "project-titles changed",
    ]);
  });

  it("an unchanged policy set and unchanged manifests: nothing planned, no policy change", async () => {
    const h = head("same", {});
    const r = await plan(h, "base");
    expect(r.code).toBe(0);
    const p = JSON.parse(r.stdout) as Plan;
    expect(p.policyChanges).toBeUndefined();
    expect(p.scope).toEqual([]);
    expect(readFileSync(join(h, "policies/projects.yaml"), "utf8")).toContain("public-projects");
  });
});
