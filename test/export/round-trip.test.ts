/**
 * Export in process against the reference server: the written manifests validate, plan to
 * no changes, cost no more calls than that plan, and read as an administrator would want.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { entryLines, richOrganization, roundTrip } from "./fixtures.js";

let t: TestServer;
beforeAll(async () => {
  t = await startServer({ requestLog: true });
  seed(t.server.ctx, richOrganization());
});
afterAll(() => t.close());

describe("export of a rich organization", () => {
  it("round-trips: no diagnostics errors, a no-change plan, no more calls than that plan", async () => {
    const r = await roundTrip(t, { organization: "acme" });
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(entryLines(r.plan)).toEqual([]);
    expect(r.result.warnings).toEqual([]);
    console.log(
      `export: ${r.result.apiCalls} calls; no-change plan of the export: ${r.planCalls} calls`,
    );
    expect(r.result.apiCalls).toBeLessThanOrEqual(r.planCalls);
  });

  it("per-kind split and a --projects glob round-trip too", async () => {
    const r = await roundTrip(t, { organization: "acme", split: "per-kind", projects: "ci-*" });
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(entryLines(r.plan)).toEqual([]);
    expect(r.result.files.map((f) => f.path)).toEqual([
      "organizations.yaml",
      "phctl.yaml",
      "projects.yaml",
      "schemas/config.schema.json",
      "schemas/manifest.schema.json",
      "teams.yaml",
      "users.yaml",
    ]);
  });

  it("writes tidy manifests with the schema line and explanatory comments", async () => {
    const r = await roundTrip(t, { organization: "acme" });
    const text = (p: string) => r.result.files.find((f) => f.path === p)?.text ?? "";
    const tfa = text("projects/trusted-firmware-a.yaml");
    expect(
      tfa.startsWith("# yaml-language-server: $schema=../schemas/manifest.schema.json\n"),
    ).toBe(true);
    expect(
      text("users.yaml").startsWith(
        "# yaml-language-server: $schema=schemas/manifest.schema.json\n",
      ),
    ).toBe(true);
    expect(text("phctl.yaml")).toContain("$schema=schemas/config.schema.json");
    expect(text("phctl.yaml")).toMatch(/organization: acme/);
    for (const k of ["groups", "subgroups", "repositories", "mirrors", "artifactRepositories"])
      expect(text("phctl.yaml")).toContain(`  ${k}: false`);
    // Defaults are omitted; declared names have no <org>-<id>- prefix.
    expect(tfa).not.toMatch(/issueTracking: disabled|enableLFS: false|status: active$/m);
    expect(tfa).toMatch(/- name: releases\n/);
    expect(tfa).toMatch(/- name: images\n\s+type: docker/);
    expect(tfa).toMatch(
      /# source, ref spaces and notification e-mails are fixed at creation\n\s+- from:/,
    );
    expect(tfa).toMatch(/subgroups: \[docs, tools\/ci\/nightly\]/);
    expect(tfa).toMatch(/eccn: EAR99 # set at creation; a change is a support ticket/);
    expect(tfa).toMatch(/status: archived # archived/);
    expect(tfa).toMatch(/# organization teams are referenced, not declared/);
    expect(tfa).toMatch(/organizationTeams: \[acme\/firmware-leads\]/);
    expect(tfa).toMatch(/enabled: false/);
    const ci = text("projects/ci-tools.yaml");
    expect(ci).toContain("forkFrom: https://git.example.org/acme/tf-a/trusted-firmware-a.git");
    expect(ci).toContain("forkFrom: https://git.example.org/acme/tf-a/docs/guide.git");
    expect(text("projects/secret-sauce.yaml")).toMatch(
      /visibility: private # changing visibility is a support ticket/,
    );
    const users = text("users.yaml");
    expect(users).toMatch(/# deprecated: the wiki service is deprecated/);
    expect(users).toMatch(/displayName: Al Smith/);
    expect(users).not.toMatch(/displayName: Jane Doe/);
    expect(users).toMatch(/organization: acme-partner/);
  });

  it("an organization of the parent exports only its own users and projects", async () => {
    const r = await roundTrip(t, { organization: "acme-partner" });
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(entryLines(r.plan)).toEqual([]);
    expect(r.result.counts).toMatchObject({ users: 1, projects: 1 });
  });

  it("writes the customer organizations: none is left not managed", async () => {
    const r = await roundTrip(t, { organization: "acme" });
    const orgs = r.result.files.find((f) => f.path === "organizations.yaml");
    expect(orgs?.holds).toBe("Organization");
    expect(orgs?.names).toEqual(["acme-partner"]);
    expect(orgs?.text).toContain("kind: Organization\nmetadata:\n  name: acme-partner\n");
    expect(r.result.counts.organizations).toBe(1);
    expect(r.plan?.unmanaged.filter((u) => u.key.startsWith("organization/"))).toEqual([]);
    // A child organization's export declares that organization (its users and projects name it).
    const child = await roundTrip(t, { organization: "acme-partner" });
    expect(child.result.files.find((f) => f.holds === "Organization")?.names).toEqual([
      "acme-partner",
    ]);
  });

  it("--only exports just the objects named (keys or globs)", async () => {
    const r = await roundTrip(t, {
      organization: "acme",
      only: ["project/ci-*", "user/jdoe", "organization/*"],
    });
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(r.result.counts).toEqual({
      organizations: 1,
      users: 1,
      teams: 0,
      projects: 1,
      defaults: 0,
    });
    expect(r.result.files.filter((f) => f.names.length > 0).map((f) => [f.path, f.names])).toEqual([
      ["organizations.yaml", ["acme-partner"]],
      ["projects/ci-tools.yaml", ["ci-tools"]],
      ["users.yaml", ["jdoe"]],
    ]);
  });

  it("an unknown organization is a one-line user error", async () => {
    await expect(roundTrip(t, { organization: "nope" })).rejects.toThrow(
      /organization nope is not visible to this token/,
    );
  });
});
