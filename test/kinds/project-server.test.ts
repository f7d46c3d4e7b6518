/**
 * The project kinds against the reference server: reads of seeded state (objects and call
 * counts), apply → read → no changes, drift of access lists, and ticket/blocked entries that
 * are never sent.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JobFailedError } from "../../src/api/errors.js";
import { ReadContext } from "../../src/engine/read-context.js";
import { projectKind } from "../../src/kinds/project.js";
import { seed, type SeedDocument } from "../../src/server/seed.js";
import { startClient, type ClientFixture } from "../api/helpers.js";
import { lines, load, projectDoc } from "../helpers/kinds.js";
import { PROJECT_KINDS, applyAndReplan, execute, planFor } from "./project-fixtures.js";

const person = (username: string, wiki = false) => ({
  username,
  firstName: username,
  lastName: "Test",
  externalEmail: `${username}@example.org`,
  ...(wiki ? { services: { wiki: { status: "active" } } } : {}),
});

const BASE: SeedDocument = {
  parentOrganization: "acme",
  orgTeams: [
    { organization: "acme", name: "Firmware leads", path: "acme/firmware-leads" },
    { organization: "acme", name: "Release team", path: "acme/release-team" },
  ],
  users: [
    person("jdoe", true),
    person("asmith"),
    person("pkumar"),
    person("bwong"),
    person("nowiki"),
  ],
};

const TFA_SPEC = `
title: Trusted Firmware-A
description: Secure world
visibility: public
externalContribution: true
restrictionLevel: read-only
licenses: [BSD-3-Clause]
access:
  admins: [jdoe]
  maintainers: { users: [jdoe, asmith], organizationTeams: [acme/firmware-leads] }
  developers: [pkumar]
`;

const TFA_SEED = {
  slug: "tf-a",
  name: "Trusted Firmware-A",
  description: "Secure world",
  externalContribution: true,
  restrictionLevel: "read-only",
  licenses: ["BSD-3-Clause"],
  access: { admins: ["jdoe"], maintainers: ["asmith", "jdoe"], developers: ["pkumar"] },
  orgTeams: { maintainers: ["acme/firmware-leads"] },
};

let t: ClientFixture;
beforeEach(async () => {
  t = await startClient({ queueDelayMs: 20 });
  seed(t.server.ctx, BASE);
});
afterEach(async () => t.stop());

const requestsAfter = (seq: number) => t.server.requestLog.filter((r) => r.seq > seq);
const lastSeq = () => t.server.requestLog.at(-1)?.seq ?? 0;

describe("read", () => {
  it("reads declared projects with 1 list call + 1 detail per declared live project", async () => {
    seed(t.server.ctx, {
      projects: [TFA_SEED, { slug: "legacy", name: "Legacy" }, { slug: "other", name: "Other" }],
    });
    const state = load(
      `${projectDoc("tf-a", TFA_SPEC)}---\n${projectDoc("not-yet", "title: New\naccess: { admins: [jdoe] }")}`,
    );
    const ctx = new ReadContext(t.client);
    const before = t.client.metrics.snapshot().calls;
    const [projects, licenses, access, teams] = await Promise.all(
      PROJECT_KINDS.map((k) => k.read(ctx, state)),
    );
    expect(t.client.metrics.snapshot().calls - before).toBe(2);
    expect(t.client.metrics.snapshot().byOperation["projects.get"]?.calls).toBe(1);

    const tfa = projects.find((p) => p.key === "project/tf-a")!;
    expect(tfa.fields).toEqual(
      projectKind.desired(state).find((d) => d.key === "project/tf-a")!.fields,
    );
    expect(projects.map((p) => p.key).sort()).toEqual([
      "project/legacy",
      "project/other",
      "project/tf-a",
    ]);
    expect(licenses.map((l) => l.key)).toEqual(["project/tf-a/license/BSD-3-Clause"]);
    expect(access.map((a) => a.key).sort()).toEqual([
      "project/tf-a/access/admins/user/jdoe",
      "project/tf-a/access/developers/user/pkumar",
      "project/tf-a/access/maintainers/user/asmith",
      "project/tf-a/access/maintainers/user/jdoe",
    ]);
    expect(teams.map((a) => a.key)).toEqual([
      "project/tf-a/access/maintainers/team/acme/firmware-leads",
    ]);
  });

  it("a project in sync plans nothing; undeclared projects are listed as not managed", async () => {
    seed(t.server.ctx, { projects: [TFA_SEED, { slug: "legacy", name: "Legacy" }] });
    const { plan } = await planFor(t.client, load(projectDoc("tf-a", TFA_SPEC)));
    expect(plan.entries).toEqual([]);
    expect(plan.unmanaged).toEqual([
      { key: "project/legacy", kind: "Project", note: "no manifest declares it; never touched" },
    ]);
  });
});

describe("apply", () => {
  it("creates a project with licenses, every access level and a team; then nothing differs", async () => {
    const state = load(
      projectDoc(
        "fresh",
        `
title: Fresh
description: Brand new
visibility: private
restrictionLevel: read-only
eccn: EAR99
licenses: [Apache-2.0, MIT]
access:
  admins: [jdoe]
  controllers: [bwong]
  editors: [jdoe]
  maintainers: { users: [asmith], organizationTeams: [acme/firmware-leads] }
  developers: { users: [pkumar], organizationTeams: [acme/release-team] }
  reporters: [bwong]
`,
      ),
    );
    const first = await planFor(t.client, state);
    expect(first.plan.summary).toMatchObject({
      create: 11,
      update: 0,
      delete: 0,
      ticket: 0,
      blocked: 0,
    });
    const again = await applyAndReplan(t.client, state);
    expect(again.plan.entries).toEqual([]);
    // Read back: every kind's live fields equal the desired ones.
    for (const kind of PROJECT_KINDS) {
      const live = new Map(again.live.get(kind.kind)!.map((l) => [l.key, l.fields]));
      for (const d of kind.desired(state)) expect(live.get(d.key)).toEqual(d.fields);
    }
    // Queued levels were waited for: the entitlement and organization-team queues were polled.
    const ops = t.client.metrics.snapshot().byOperation;
    expect(ops["users.entitlementStatus"]?.calls).toBeGreaterThanOrEqual(3);
    expect(ops["orgTeams.queueStatus"]?.calls).toBeGreaterThanOrEqual(2);
  });

  it("creates an archived project, restores it, and updates its mutable fields", async () => {
    const archived = load(
      projectDoc("arch", "title: Arch\nstatus: archived\naccess: { admins: [jdoe] }"),
    );
    expect((await applyAndReplan(t.client, archived)).plan.entries).toEqual([]);
    expect(t.client.metrics.snapshot().byOperation["projects.archive"]?.calls).toBe(1);

    const restored = load(
      projectDoc(
        "arch",
        "title: Renamed\ndescription: now active\nrestrictionLevel: read-only\naccess: { admins: [jdoe] }",
      ),
    );
    const planned = await planFor(t.client, restored);
    expect(planned.plan.entries).toHaveLength(1);
    expect(planned.plan.entries[0].changes.map((c) => c.field)).toEqual([
      "title",
      "description",
      "status",
      "restrictionLevel",
    ]);
    await execute(t.client, planned);
    expect((await planFor(t.client, restored)).plan.entries).toEqual([]);
    const live = (await t.call("GET", "/v1/projects/arch")).body.data;
    expect(live).toMatchObject({
      name: "Renamed",
      status: "active",
      restrictionLevel: "read-only",
    });
  });
});

describe("drift of access lists", () => {
  it("plans removal of an extra developer and creation of a removed maintainer; apply repairs both", async () => {
    seed(t.server.ctx, { projects: [TFA_SEED] });
    const state = load(projectDoc("tf-a", TFA_SPEC));
    await t.call("DELETE", "/v1/projects/tf-a/maintainers/users/asmith");
    const added = await t.call("POST", "/v1/projects/tf-a/developers/users/bwong");
    await t.waitJob(`/v1/users/service/entitlement/queue/${added.body.queueid}/status`);
    await t.call("POST", "/v1/projects/tf-a/developers/organization/teams/acme%2Frelease-team");
    await new Promise((r) => setTimeout(r, 60));

    const drift = await planFor(t.client, state);
    expect(lines(drift.plan)).toEqual([
      "create project/tf-a/access/maintainers/user/asmith",
      "delete project/tf-a/access/developers/team/acme/release-team",
      "delete project/tf-a/access/developers/user/bwong",
    ]);
    expect(
      drift.plan.entries.filter((e) => e.action === "delete").every((e) => e.destructive),
    ).toBe(true);
    expect((await applyAndReplan(t.client, state)).plan.entries).toEqual([]);
    const roles = (await t.call("GET", "/v1/projects/tf-a")).body.data.roles;
    expect(roles.developers).toEqual(["pkumar"]);
    expect(roles.maintainers).toEqual(["asmith", "jdoe"]);
    expect(roles.organizationTeams.developers).toEqual([]);
  });

  it("removes a license no manifest lists", async () => {
    seed(t.server.ctx, { projects: [{ ...TFA_SEED, licenses: ["BSD-3-Clause", "MIT"] }] });
    const state = load(projectDoc("tf-a", TFA_SPEC));
    expect(lines((await planFor(t.client, state)).plan)).toEqual([
      "delete project/tf-a/license/MIT",
    ]);
    expect((await applyAndReplan(t.client, state)).plan.entries).toEqual([]);
  });
});

describe("tickets and blocked entries are never sent", () => {
  it("a visibility change is a ticket; apply sends no project update", async () => {
    seed(t.server.ctx, { projects: [{ ...TFA_SEED, visibility: "private" }] });
    const state = load(projectDoc("tf-a", TFA_SPEC));
    const planned = await planFor(t.client, state);
    expect(planned.plan.entries).toHaveLength(1);
    const e = planned.plan.entries[0];
    expect(e).toMatchObject({ action: "ticket", key: "project/tf-a" });
    expect(e.ticket?.body).toContain(
      'Please change the visibility of project "tf-a" from private to public.',
    );
    const seq = lastSeq();
    await execute(t.client, planned);
    expect(requestsAfter(seq)).toEqual([]);
    expect((await t.call("GET", "/v1/projects/tf-a")).body.data.visibility).toBe("private");
  });

  it("an unknown license is a ticket and is never posted", async () => {
    seed(t.server.ctx, { projects: [TFA_SEED] });
    const state = load(
      projectDoc("tf-a", TFA_SPEC.replace("[BSD-3-Clause]", "[BSD-3-Clause, Made-Up-1.0]")),
    );
    const planned = await planFor(t.client, state);
    expect(planned.plan.entries.map((e) => `${e.action} ${e.key}`)).toEqual([
      "ticket project/tf-a/license/Made-Up-1.0",
    ]);
    expect(planned.plan.entries[0].ticket?.body).toContain(
      "a new license is requested by support ticket",
    );
    const seq = lastSeq();
    await execute(t.client, planned);
    expect(requestsAfter(seq)).toEqual([]);
  });

  it("an editor without a wiki account is blocked and never posted", async () => {
    seed(t.server.ctx, { projects: [TFA_SEED] });
    const state = load(projectDoc("tf-a", `${TFA_SPEC}  editors: [nowiki]\n`));
    const planned = await planFor(t.client, state);
    expect(planned.plan.entries).toHaveLength(1);
    expect(planned.plan.entries[0]).toMatchObject({
      action: "blocked",
      key: "project/tf-a/access/editors/user/nowiki",
      reason: "editors need an active wiki account: user nowiki has none",
    });
    const seq = lastSeq();
    await execute(t.client, planned);
    expect(requestsAfter(seq)).toEqual([]);
  });
});

describe("an unreliable network", () => {
  const POSTS = [
    "projects.create",
    "access.addUser",
    "access.addOrgTeam",
    "projects.licenses.add",
  ] as const;

  it("answers lost after project, access and team POSTs are re-read, never re-sent", async () => {
    for (const operation of POSTS)
      t.server.faults.add({ kind: "dropAfter", method: "POST", operation });
    const state = load(
      projectDoc(
        "shaky",
        "title: Shaky\nlicenses: [MIT]\naccess:\n  developers: { users: [pkumar], organizationTeams: [acme/release-team] }",
      ),
    );
    const seq = lastSeq();
    expect((await applyAndReplan(t.client, state)).plan.entries).toEqual([]);
    const posts = requestsAfter(seq).filter((r) => r.method === "POST");
    const byOp = (op: string) => posts.filter((r) => r.operation === op);
    // Each answer was lost once, and each object was found by the re-read: one POST each,
    // including the queued developer add whose effect shows only once its job completes.
    for (const op of POSTS) {
      expect(byOp(op), op).toHaveLength(1);
      expect(byOp(op)[0]?.fault, op).toBe("dropAfter");
    }
  });

  it("a failed entitlement job fails the access create with the job's message", async () => {
    seed(t.server.ctx, { projects: [TFA_SEED] });
    const state = load(
      projectDoc("tf-a", TFA_SPEC.replace("developers: [pkumar]", "developers: [pkumar, bwong]")),
    );
    t.server.ctx.queue.failNext({ queue: "entitlement", message: "git host unavailable" });
    const planned = await planFor(t.client, state);
    expect(lines(planned.plan)).toEqual(["create project/tf-a/access/developers/user/bwong"]);
    const e = await execute(t.client, planned).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(JobFailedError);
    expect(String((e as Error).message)).toContain("git host unavailable");
    // Running again converges.
    expect((await applyAndReplan(t.client, state)).plan.entries).toEqual([]);
  });
});
