/**
 * `phctl drift --adopt` end to end: the built CLI against the reference server on loopback,
 * with the examples applied. Live changes → drift --adopt rewrites the manifests in place
 * (exit 2: there was drift) → plan shows no changes; what cannot be adopted is named with
 * the export command that writes it, and that command does. Export declares the customer
 * organizations, so that nothing export could write stays "not managed".
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comments, readTree, workdir, client } from "../adopt/fixture.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

let t: TestServer;
let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  t = await startServer();
  dir = workdir();
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
  const r = await phctl(["apply", "examples", "--auto-approve"], env, dir);
  if (r.code !== 0) throw new Error(r.stderr);
});
afterAll(() => t.close());

describe("phctl drift --adopt", () => {
  it("writes the live values into the manifests; then plan shows no changes and every comment is kept", async () => {
    const before = readTree(join(dir, "examples"));
    const api = client(t);
    await api.call("projects.patch", {
      params: { projectSlug: "ci-tools" },
      body: { name: "CI tooling" },
    });
    await api.call("access.removeUser", {
      params: { projectSlug: "trusted-firmware-a", level: "reporters", username: "bwong" },
    });
    await api.call("teams.addUser", {
      params: { teamname: "ci-operators", username: "asmith" },
      query: { parentOrganization: "acme" },
    });
    await api.call("projects.create", {
      body: {
        name: "Legacy",
        projectSlug: "old-tools",
        description: "",
        visibility: "public",
        externalContribution: false,
      },
    });
    await api.close();

    const r = await phctl(["drift", "examples", "--adopt"], env, dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain("project/ci-tools");
    const lines = r.stderr.split("\n").filter((l) => l.startsWith("phctl: adopt: "));
    expect(lines).toEqual([
      "phctl: adopt: team/ci-operators/member/asmith: added, live has it (examples/teams.yaml)",
      "phctl: adopt: project/ci-tools: title as live has it (examples/projects/ci-tools.yaml)",
      "phctl: adopt: project/trusted-firmware-a/access/reporters/user/bwong: removed, gone live (examples/projects/trusted-firmware-a.yaml)",
      "phctl: adopt: not adopted: project/old-tools (Project): no manifest declares it; export writes its Project document — phctl export --organization acme --only project/old-tools --out phctl-export",
      "phctl: adopt: adopted as drift without --applied: a change merged and not applied yet would read as drift too (check the diff before it is merged, or pass --applied DIR)",
      "phctl: adopt: 3 entries adopted in 3 files: a plan of the adopted manifests shows no changes for them; 1 not adopted (above)",
    ]);
    const after = readTree(join(dir, "examples"));
    expect(after.get("projects/ci-tools.yaml")).toBe(
      before.get("projects/ci-tools.yaml")!.replace("title: CI tools", "title: CI tooling"),
    );
    expect(after.get("projects/trusted-firmware-a.yaml")).toBe(
      before.get("projects/trusted-firmware-a.yaml")!.replace("    reporters: [bwong]\n", ""),
    );
    expect(after.get("teams.yaml")).toBe(
      before
        .get("teams.yaml")!
        .replace("members: [bwong, lchen]", "members: [bwong, lchen, asmith]"),
    );
    for (const [f, text] of before) expect(comments(after.get(f)!)).toEqual(comments(text));

    const plan = await phctl(["plan", "examples", "--detailed-exitcode"], env, dir);
    expect(plan.stdout).toContain("No changes. Live state matches the manifests.");
    expect(plan.code).toBe(0);
    const again = await phctl(["drift", "examples", "--adopt"], env, dir);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain("adopt:");

    // The command it named writes the declaration of what it could not adopt.
    const exported = await phctl(
      ["export", "--organization", "acme", "--only", "project/old-tools", "--out", "phctl-export"],
      env,
      dir,
    );
    expect(exported.code).toBe(0);
    expect(readFileSync(join(dir, "phctl-export/projects/old-tools.yaml"), "utf8")).toContain(
      "  name: old-tools\nspec:\n  title: Legacy\n",
    );
    expect(existsSync(join(dir, "phctl-export/users.yaml"))).toBe(false);
  });

  it("--format json: the plan, then one line saying what was adopted", async () => {
    const api = client(t);
    await api.call("projects.patch", {
      params: { projectSlug: "mbed-tls" },
      body: { description: "Changed live" },
    });
    await api.close();
    const r = await phctl(["drift", "examples", "--adopt", "--format", "json"], env, dir);
    expect(r.code).toBe(2);
    const last = r.stdout.trimEnd().split("\n").at(-1)!;
    expect(JSON.parse(last)).toEqual({
      adopt: {
        adopted: ["project/mbed-tls"],
        files: ["examples/projects/mbed-tls.yaml"],
        deleted: [],
        notAdoptable: [
          {
            key: "project/old-tools",
            kind: "Project",
            why: "no manifest declares it; export writes its Project document",
            command: "phctl export --organization acme --only project/old-tools --out phctl-export",
          },
        ],
        note: "adopted as drift without --applied: a change merged and not applied yet would read as drift too (check the diff before it is merged, or pass --applied DIR)",
      },
    });
    expect(readFileSync(join(dir, "examples/projects/mbed-tls.yaml"), "utf8")).toContain(
      "  description: Changed live\n",
    );
  });
});

describe("phctl export of the applied examples", () => {
  it("declares the customer organization: its plan leaves nothing export could write not managed", async () => {
    const r = await phctl(["export", "--organization", "acme", "--out", "exported"], env, dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\(1 organization, \d+ files, \d+ API calls\)/);
    expect(readFileSync(join(dir, "exported/organizations.yaml"), "utf8")).toContain(
      "kind: Organization\nmetadata:\n  name: linaro-partner\n",
    );
    const plan = await phctl(["plan", "exported", "--detailed-exitcode", "--verbose"], env, dir);
    expect(plan.code).toBe(0);
    expect(plan.stdout).not.toMatch(/not managed/);
  });
});
