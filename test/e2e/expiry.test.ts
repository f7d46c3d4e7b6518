/**
 * Access that expires, end to end with the built CLI (`npm run build` first) against the
 * reference server: a grant written `{ user: NAME, expires: DATE }` counts until its last day;
 * from the day after, plan removes it ("expired on DATE", at the grant's line), drift lists it
 * due for removal, apply removes it and the next plan is empty. validate warns 14 days ahead
 * (not 15); an impossible date is an error at file:line:col; a policy can require an expiry.
 * PHCTL_NOW fixes today.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { phctl } from "../helpers/cli.js";
import { copyExamples } from "../helpers/examples.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const tmp = mkdtempSync(join(tmpdir(), "phctl-expiry-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Replace text in a file of `dir`. */
function edit(dir: string, file: string, from: string, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, "utf8");
  if (!text.includes(from)) throw new Error(`${file}: nothing replaced`);
  writeFileSync(path, text.replace(from, to));
}

/** A copy of the examples where lchen's developer access and membership end on 2026-06-10. */
function expiring(name: string): string {
  const dir = join(tmp, name);
  copyExamples(dir);
  edit(
    dir,
    "projects/ci-tools.yaml",
    "developers: { users: [lchen] }",
    "developers: { users: [{ user: lchen, expires: 2026-06-10 }] }",
  );
  edit(
    dir,
    "teams.yaml",
    "members: [bwong, lchen]",
    "members: [bwong, { user: lchen, expires: 2026-06-10 }]",
  );
  return dir;
}

const GRANT = "project/ci-tools/access/developers/user/lchen";
const MEMBER = "team/ci-operators/member/lchen";

describe("validate: access that expires", () => {
  const dir = expiring("validate");

  it("warns 14 days before the last day, one warning per grant at its line", async () => {
    const r = await phctl(["validate", "."], { PHCTL_NOW: "2026-05-27" }, dir);
    expect(r.stdout).toContain(
      "projects/ci-tools.yaml:15:51 warning: Project ci-tools: lchen on the developers of project ci-tools expires on 2026-06-10 (in 14 days)",
    );
    expect(r.stdout).toContain(
      "teams.yaml:18:44 warning: Team ci-operators: lchen in team ci-operators expires on 2026-06-10 (in 14 days)",
    );
    expect(r.code).toBe(0);
  });

  it("says nothing 15 days before", async () => {
    const r = await phctl(["validate", "."], { PHCTL_NOW: "2026-05-26" }, dir);
    expect(r.stdout).not.toContain("expires on");
    expect(r.stdout).toMatch(/0 errors, 0 warnings/);
  });

  it("phctl.yaml's expiry.warnDays sets the window", async () => {
    const d = expiring("warn-days");
    writeFileSync(join(d, "phctl.yaml"), "organization: acme\nexpiry: { warnDays: 30 }\n");
    const r = await phctl(["validate", "."], { PHCTL_NOW: "2026-05-15" }, d);
    expect(r.stdout).toContain("lchen in team ci-operators expires on 2026-06-10 (in 26 days)");
  });

  it("an impossible date is an error at file:line:col", async () => {
    const d = expiring("bad-date");
    edit(d, "teams.yaml", "expires: 2026-06-10", "expires: 2026-02-30");
    const r = await phctl(["validate", "."], { PHCTL_NOW: "2026-01-01" }, d);
    expect(r.stdout).toContain(
      "teams.yaml:18:44 Team ci-operators: expires: 2026-02-30 is not a date (lchen in team ci-operators) (write YYYY-MM-DD, a day that exists)",
    );
    expect(r.code).toBe(1);
    const shape = expiring("bad-shape");
    edit(shape, "teams.yaml", "expires: 2026-06-10", "expires: 10/06/2026");
    const s = await phctl(["validate", "."], { PHCTL_NOW: "2026-01-01" }, shape);
    expect(s.stdout).toContain(
      "teams.yaml:18:44 Team ci-operators: spec.members[1].expires must be a date, YYYY-MM-DD",
    );
    expect(s.code).toBe(1);
  });
});

describe("plan, drift and apply: a grant expiring yesterday is removed", () => {
  let t: TestServer;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await startServer();
    dir = expiring("apply");
    env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret, PHCTL_NOW: "2026-06-01" };
    const r = await phctl(["apply", ".", "--auto-approve"], env, dir);
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(async () => t.close());

  it("on its last day the grant still counts: no changes", async () => {
    const r = await phctl(
      ["plan", ".", "--detailed-exitcode"],
      { ...env, PHCTL_NOW: "2026-06-10" },
      dir,
    );
    expect(r.stdout).toContain("No changes. Live state matches the manifests.");
    expect(r.stdout).toContain("lchen in team ci-operators expires on 2026-06-10 (today)");
    expect(r.code).toBe(0);
  });

  it("the day after, drift lists it as expired and due for removal", async () => {
    const r = await phctl(
      ["drift", ".", "--format", "json"],
      { ...env, PHCTL_NOW: "2026-06-11" },
      dir,
    );
    expect(r.code).toBe(2);
    const plan = JSON.parse(r.stdout) as {
      entries: { key: string; action: string; reason: string }[];
      expiring: { key: string; status: string; due: boolean; expires: string }[];
    };
    expect(plan.entries.find((e) => e.key === GRANT)).toMatchObject({
      action: "delete",
      reason: "expired on 2026-06-10",
    });
    expect(plan.expiring).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          key: GRANT,
          status: "expired",
          due: true,
          expires: "2026-06-10",
        }),
        expect.objectContaining({ key: MEMBER, status: "expired", due: true }),
      ]),
    );
  });

  it("drift --adopt does not grant it again: it lists it as not adopted", async () => {
    const before = readFileSync(join(dir, "projects/ci-tools.yaml"), "utf8");
    const r = await phctl(["drift", ".", "--adopt"], { ...env, PHCTL_NOW: "2026-06-11" }, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "expired on 2026-06-10 (projects/ci-tools.yaml:15): apply removes it; to keep it, write a later expires",
    );
    expect(readFileSync(join(dir, "projects/ci-tools.yaml"), "utf8")).toBe(before);
  });

  it("plan removes it at the grant's line; apply removes it; then plan is empty", async () => {
    const day = { ...env, PHCTL_NOW: "2026-06-11" };
    const plan = await phctl(["plan", "."], day, dir);
    expect(plan.stdout).toContain(`- ${GRANT} (ProjectAccess) will be DELETED`);
    expect(plan.stdout).toContain(
      `- ${GRANT} (ProjectAccess) will be DELETED\n    projects/ci-tools.yaml:15\n      # expired on 2026-06-10`,
    );
    expect(plan.stdout).toContain(`- ${MEMBER} (TeamMember) will be DELETED`);
    expect(plan.stdout).toMatch(/Plan: 0 to create, 0 to update, 2 to delete/);
    const apply = await phctl(["apply", ".", "--auto-approve"], day, dir);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/Apply complete: 2 done, 0 failed/);
    const after = await phctl(["plan", ".", "--detailed-exitcode", "--format", "json"], day, dir);
    expect(after.code).toBe(0);
    const json = JSON.parse(after.stdout) as {
      entries: unknown[];
      expiring: { key: string; due: boolean }[];
    };
    expect(json.entries).toEqual([]);
    // Gone live: only the manifest entry is left, and the plan says so.
    expect(json.expiring.find((g) => g.key === GRANT)).toMatchObject({ due: false });
  });
});

const PARTNER_POLICY = `apiVersion: phctl/v1
kind: Policy
metadata: { name: partner-access-expires }
spec:
  select: { kind: Project, names: [ci-tools] }
  rules:
    - name: partners-expire-within-180-days
      expression: >-
        object.spec.access.developers.users.all(u,
          !(u in users) || users[u].spec.organization != "linaro-partner" ||
          (u in object.spec.access.developers.expires &&
           timestamp(object.spec.access.developers.expires[u] + "T00:00:00Z")
             - timestamp(today + "T00:00:00Z") <= duration("4320h")))
      messageExpression: '"a partner developer without an expiry within 180 days"'
`;

describe("a policy can require an expiry", () => {
  it("denies a partner's grant without one, and passes it with one within 180 days", async () => {
    const dir = join(tmp, "policy");
    copyExamples(dir);
    writeFileSync(join(dir, "policies/partner-expiry.yaml"), PARTNER_POLICY);
    const none = await phctl(["validate", "."], { PHCTL_NOW: "2026-06-01" }, dir);
    expect(none.stdout).toContain(
      "denied: Project project/ci-tools: policy partner-access-expires, rule partners-expire-within-180-days: a partner developer without an expiry within 180 days",
    );
    expect(none.code).toBe(1);
    edit(
      dir,
      "projects/ci-tools.yaml",
      "developers: { users: [lchen] }",
      "developers: { users: [{ user: lchen, expires: 2026-11-27 }] }",
    );
    const within = await phctl(["validate", "."], { PHCTL_NOW: "2026-06-01" }, dir);
    expect(within.stdout).not.toContain("denied");
    expect(within.code).toBe(0);
    edit(dir, "projects/ci-tools.yaml", "expires: 2026-11-27", "expires: 2026-11-29");
    const beyond = await phctl(["validate", "."], { PHCTL_NOW: "2026-06-01" }, dir);
    expect(beyond.stdout).toContain("rule partners-expire-within-180-days");
    expect(beyond.code).toBe(1);
  });
});
