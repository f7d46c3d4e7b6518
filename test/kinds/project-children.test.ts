/** ProjectLicense, ProjectAccess and ProjectTeamAccess: desired objects, checks, ownership. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffObject } from "../../src/engine/diff.js";
import { buildPlan } from "../../src/engine/planner.js";
import type { LiveObject, ResourceKind } from "../../src/kinds/kind.js";
import { projectAccessKind } from "../../src/kinds/project-access.js";
import { projectLicenseKind } from "../../src/kinds/project-license.js";
import { projectTeamAccessKind } from "../../src/kinds/project-team-access.js";
import { lines, load, projectDoc } from "../helpers/kinds.js";
import { PROJECT_KINDS, desiredByKey, diffContext } from "./project-fixtures.js";

const USERS = `apiVersion: phctl/v1
kind: User
metadata: { name: jdoe }
spec:
  firstName: Jane
  lastName: Doe
  externalEmail: jane@example.org
  services: { wiki: { status: active } }
---
apiVersion: phctl/v1
kind: User
metadata: { name: asmith }
spec: { firstName: Al, lastName: Smith, externalEmail: al@example.org }
---
`;

const state = load(
  USERS +
    projectDoc(
      "tf-a",
      `
title: TF-A
licenses: [MIT, BSD-3-Clause]
access:
  admins: [jdoe]
  editors: [jdoe]
  maintainers: { users: [asmith], organizationTeams: [acme/firmware-leads] }
  developers: { users: [pkumar], organizationTeams: [acme/ghosts] }
`,
    ),
);
const ctx = diffContext(state, { liveUsers: new Set(["pkumar"]), wikiUsers: new Set(["jdoe"]) });

describe("ProjectLicense", () => {
  const d = desiredByKey(projectLicenseKind, state);

  it("declares one object per license, after its project, with its own source line", () => {
    expect([...d.keys()]).toEqual([
      "project/tf-a/license/BSD-3-Clause",
      "project/tf-a/license/MIT",
    ]);
    const mit = d.get("project/tf-a/license/MIT")!;
    expect(mit.fields).toEqual({ project: "tf-a", license: "MIT" });
    expect(mit.dependsOn).toEqual(["project/tf-a"]);
    expect(mit.source?.line).toBe(state.sources.get("project/tf-a/license/MIT")!.line);
    expect(mit.source!.line).toBeGreaterThan(state.projects[0].source.line);
  });

  it("creates a catalogue license, and asks for a ticket for one that is not", () => {
    const mit = d.get("project/tf-a/license/MIT")!;
    expect(diffObject(projectLicenseKind, mit, undefined, ctx)[0]?.action).toBe("create");
    const [e] = diffObject(
      projectLicenseKind,
      mit,
      undefined,
      diffContext(state, { licenses: new Set() }),
    );
    expect(e?.action).toBe("ticket");
    expect(e?.reason).toContain("a new license is requested by support ticket");
    expect(e?.ticket?.subject).toBe("Add license MIT to the license catalogue for project tf-a");
    expect(e?.ticket?.body).toMatch(/Requested by: projects\/p\.yaml:\d+, which lists MIT/);
  });

  it("leaves an assigned license alone, even if the catalogue no longer has it", () => {
    const mit = d.get("project/tf-a/license/MIT")!;
    const live: LiveObject = { key: mit.key, fields: { ...mit.fields }, ids: {} };
    expect(
      diffObject(projectLicenseKind, mit, live, diffContext(state, { licenses: new Set() })),
    ).toEqual([]);
  });
});

describe("ProjectAccess", () => {
  const d = desiredByKey(projectAccessKind, state);

  it("declares one object per user and level, depending on project, user and wiki account", () => {
    expect([...d.keys()].sort()).toEqual([
      "project/tf-a/access/admins/user/jdoe",
      "project/tf-a/access/developers/user/pkumar",
      "project/tf-a/access/editors/user/jdoe",
      "project/tf-a/access/maintainers/user/asmith",
    ]);
    expect(d.get("project/tf-a/access/editors/user/jdoe")!.dependsOn).toEqual([
      "project/tf-a",
      "user/jdoe",
      "user/jdoe/service/wiki",
    ]);
    expect(d.get("project/tf-a/access/admins/user/jdoe")!.dependsOn).toEqual([
      "project/tf-a",
      "user/jdoe",
    ]);
    // pkumar is not declared: only the project.
    expect(d.get("project/tf-a/access/developers/user/pkumar")!.dependsOn).toEqual([
      "project/tf-a",
    ]);
  });

  it("creates access for declared and live users", () => {
    for (const key of [
      "project/tf-a/access/developers/user/pkumar",
      "project/tf-a/access/editors/user/jdoe",
    ])
      expect(diffObject(projectAccessKind, d.get(key)!, undefined, ctx)[0]?.action).toBe("create");
  });

  it("blocks a user that is neither declared nor live", () => {
    const dev = d.get("project/tf-a/access/developers/user/pkumar")!;
    const [e] = diffObject(projectAccessKind, dev, undefined, diffContext(state));
    expect(e).toMatchObject({
      action: "blocked",
      blocked: { field: "username", reason: expect.stringContaining("user pkumar does not exist") },
    });
  });

  it("blocks an editor without an active wiki account", () => {
    const ed = d.get("project/tf-a/access/editors/user/jdoe")!;
    const [e] = diffObject(
      projectAccessKind,
      ed,
      undefined,
      diffContext(state, { liveUsers: new Set() }),
    );
    expect(e?.action).toBe("blocked");
    expect(e?.reason).toBe("editors need an active wiki account: user jdoe has none");
  });
});

describe("ProjectTeamAccess", () => {
  const d = desiredByKey(projectTeamAccessKind, state);

  it("declares organization teams by path (a path may hold a slash)", () => {
    expect([...d.keys()].sort()).toEqual([
      "project/tf-a/access/developers/team/acme/ghosts",
      "project/tf-a/access/maintainers/team/acme/firmware-leads",
    ]);
    expect(d.get("project/tf-a/access/maintainers/team/acme/firmware-leads")!.fields).toEqual({
      project: "tf-a",
      level: "maintainers",
      team: "acme/firmware-leads",
    });
  });

  it("creates an existing team's access and blocks an unknown team", () => {
    const leads = d.get("project/tf-a/access/maintainers/team/acme/firmware-leads")!;
    expect(diffObject(projectTeamAccessKind, leads, undefined, ctx)[0]?.action).toBe("create");
    const [e] = diffObject(
      projectTeamAccessKind,
      d.get("project/tf-a/access/developers/team/acme/ghosts")!,
      undefined,
      ctx,
    );
    expect(e?.action).toBe("blocked");
    expect(e?.reason).toContain("organization teams cannot be created through the API");
    expect(e?.blocked?.field).toBe("team");
  });
});

describe("ownership under a declared project", () => {
  const live = (
    kind: ResourceKind,
    key: string,
    fields: Record<string, unknown>,
  ): [string, LiveObject[]] => [kind.kind, [{ key, fields, ids: {} }]];

  it("plans removal of undeclared access, teams and licenses, and nothing under other projects", () => {
    const plan = buildPlan({
      state,
      kinds: PROJECT_KINDS,
      live: new Map([
        live(projectAccessKind, "project/tf-a/access/developers/user/intruder", {
          project: "tf-a",
          level: "developers",
          username: "intruder",
        }),
        live(projectTeamAccessKind, "project/tf-a/access/reporters/team/acme/all", {
          project: "tf-a",
          level: "reporters",
          team: "acme/all",
        }),
        live(projectLicenseKind, "project/other/license/MIT", { project: "other", license: "MIT" }),
      ]),
      ctx,
      apiUrl: "test",
      organization: "acme",
      stats: { objectsRead: 0, apiCalls: 0, durationMs: 0 },
    });
    const deletes = plan.entries.filter((e) => e.action === "delete");
    expect(deletes.map((e) => e.key).sort()).toEqual([
      "project/tf-a/access/developers/user/intruder",
      "project/tf-a/access/reporters/team/acme/all",
    ]);
    expect(deletes.every((e) => e.destructive)).toBe(true);
    expect(deletes[0].source?.file).toBe("projects/p.yaml");
    expect(lines(plan)).toContain("create project/tf-a");
  });
});

describe("identity-only kinds: properties", () => {
  it("diff of any access object with itself is empty", () => {
    const arb = fc.record({
      project: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/),
      level: fc.constantFrom(
        "admins",
        "controllers",
        "editors",
        "maintainers",
        "developers",
        "reporters",
      ),
      username: fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/),
    });
    fc.assert(
      fc.property(arb, (f) => {
        const key = `project/${f.project}/access/${f.level}/user/${f.username}`;
        const d = { key, fields: f, source: null, dependsOn: [] };
        expect(
          diffObject(projectAccessKind, d, { key, fields: { ...f }, ids: {} }, diffContext(state)),
        ).toEqual([]);
      }),
    );
  });

  it("diff of any license or team object with itself is empty", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9.-]{1,12}$/),
        fc.constantFrom("maintainers", "developers", "reporters"),
        (id, level) => {
          const lic = {
            key: `project/p/license/${id}`,
            fields: { project: "p", license: id },
            source: null,
            dependsOn: [],
          };
          expect(
            diffObject(projectLicenseKind, lic, { ...lic, ids: {} }, diffContext(state)),
          ).toEqual([]);
          const team = {
            key: `project/p/access/${level}/team/org/${id}`,
            fields: { project: "p", level, team: `org/${id}` },
            source: null,
            dependsOn: [],
          };
          expect(
            diffObject(projectTeamAccessKind, team, { ...team, ids: {} }, diffContext(state)),
          ).toEqual([]);
        },
      ),
    );
  });
});
