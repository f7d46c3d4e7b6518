/** Project kind: desired/live normalisation, diff outcomes, ticket text, properties. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffObject } from "../../src/engine/diff.js";
import type { LiveProject } from "../../src/engine/readers.js";
import type { DesiredObject, LiveObject } from "../../src/kinds/kind.js";
import {
  liveProjectFields,
  patchBody,
  projectKind,
  unreachableStatus,
  type ProjectFields,
} from "../../src/kinds/project.js";
import { load, projectDoc } from "../helpers/kinds.js";
import { diffContext } from "./project-fixtures.js";

const TFA = projectDoc(
  "tf-a",
  `
title: Trusted Firmware-A
description: Secure world
visibility: public
externalContribution: true
restrictionLevel: read-only
eccn: EAR99
access: { admins: [jdoe] }
`,
);

const state = load(TFA);
const desired = projectKind.desired(state)[0];
const ctx = diffContext(state);

function liveDetail(over: Partial<LiveProject> = {}): LiveProject {
  return {
    id: 7,
    projectSlug: "tf-a",
    name: "Trusted Firmware-A",
    description: "Secure world",
    visibility: "public",
    status: "active",
    restrictionLevel: "read-only",
    externalContribution: true,
    eccn: "EAR99",
    parentOrganization: "acme",
    organization: "acme",
    roles: {
      admins: ["jdoe"],
      controllers: [],
      editors: [],
      maintainers: [],
      developers: [],
      reporters: [],
      organizationTeams: { maintainers: [], developers: [], reporters: [] },
    },
    licenses: [],
    links: { gitGroup: null, sshGroup: null },
    created: "2026-01-01T00:00:00.000Z",
    ...over,
  };
}

const liveOf = (d: DesiredObject, over: Partial<LiveProject> = {}): LiveObject => ({
  key: d.key,
  fields: liveProjectFields(liveDetail(over), d.fields as ProjectFields),
  ids: { id: 7 },
});

describe("Project: desired and live fields", () => {
  it("maps the manifest to the managed fields, organization from phctl.yaml", () => {
    expect(desired.key).toBe("project/tf-a");
    expect(desired.fields).toEqual({
      title: "Trusted Firmware-A",
      description: "Secure world",
      organization: "acme",
      visibility: "public",
      status: "active",
      externalContribution: true,
      restrictionLevel: "read-only",
      eccn: "EAR99",
    });
    expect(desired.source).toMatchObject({ file: "projects/p.yaml", line: 1 });
  });

  it("leaves restrictionLevel, eccn and organization unmanaged when nothing declares them", () => {
    const s = load(projectDoc("small", "title: Small\naccess: { admins: [jdoe] }"), "{}\n");
    const d = projectKind.desired(s)[0];
    expect(Object.keys(d.fields).sort()).toEqual(
      ["description", "externalContribution", "status", "title", "visibility"].sort(),
    );
    // The live side keeps exactly the declared fields, so an object in sync is equal.
    const l = liveProjectFields(
      liveDetail({
        projectSlug: "small",
        name: "Small",
        description: "",
        externalContribution: false,
      }),
      d.fields as ProjectFields,
    );
    expect(l).toEqual(d.fields);
  });

  it("depends on the organization when a manifest declares it", () => {
    const s = load(
      `apiVersion: phctl/v1\nkind: Organization\nmetadata: { name: acme-partner }\n---\n${projectDoc(
        "p1",
        "title: P1\norganization: acme-partner\naccess: { admins: [jdoe] }",
      )}`,
    );
    expect(projectKind.desired(s).find((d) => d.key === "project/p1")?.dependsOn).toEqual([
      "organization/acme-partner",
    ]);
    expect(desired.dependsOn).toEqual([]);
  });

  it("reads back equal fields for a project in sync", () => {
    expect(liveOf(desired).fields).toEqual(desired.fields);
    expect(diffObject(projectKind, desired, liveOf(desired), ctx)).toEqual([]);
  });
});

describe("Project: diff outcomes", () => {
  it("plans a create when absent live", () => {
    const [e] = diffObject(projectKind, desired, undefined, ctx);
    expect(e).toMatchObject({ action: "create", key: "project/tf-a", after: desired.fields });
  });

  it("updates exactly the changed mutable fields", () => {
    const entries = diffObject(
      projectKind,
      desired,
      liveOf(desired, { name: "Old", restrictionLevel: "" }),
      ctx,
    );
    expect(entries).toHaveLength(1);
    expect(entries[0].action).toBe("update");
    expect(entries[0].changes.map((c) => c.field)).toEqual(["title", "restrictionLevel"]);
    expect(entries[0].after).toEqual({
      title: "Trusted Firmware-A",
      restrictionLevel: "read-only",
    });
  });

  it("makes a visibility change a ticket with a support request", () => {
    const entries = diffObject(
      projectKind,
      desired,
      liveOf(desired, { visibility: "private" }),
      ctx,
    );
    expect(entries.map((e) => e.action)).toEqual(["ticket"]);
    const e = entries[0];
    expect(e.reason).toBe("the visibility of a project cannot be changed through the API");
    expect(e.ticket?.subject).toBe("Change the visibility of project tf-a to public");
    expect(e.ticket?.body).toContain("from private to public");
    expect(e.ticket?.body).toContain("Requested by: projects/p.yaml:1");
    expect(e.ticket?.body).toContain("cannot be changed through the API");
  });

  it("makes organization and eccn changes tickets, beside an update of mutable fields", () => {
    const entries = diffObject(
      projectKind,
      desired,
      liveOf(desired, { organization: "other", eccn: "", description: "x" }),
      ctx,
    );
    expect(entries.map((e) => `${e.action}:${e.changes.map((c) => c.field).join(",")}`)).toEqual([
      "update:description",
      "ticket:organization",
      "ticket:eccn",
    ]);
    expect(entries[1].ticket?.subject).toBe("Move project tf-a to organization acme");
    expect(entries[2].ticket?.body).toContain("(currently not set)");
  });

  it("archives and restores through update; inactive is blocked", () => {
    const archived = load(
      TFA.replace("visibility: public", "visibility: public\n  status: archived"),
    );
    const dArchived = projectKind.desired(archived)[0];
    expect(diffObject(projectKind, dArchived, liveOf(dArchived), ctx)[0]).toMatchObject({
      action: "update",
      changes: [{ field: "status", before: "active", after: "archived" }],
    });
    expect(
      diffObject(projectKind, desired, liveOf(desired, { status: "archived" }), ctx)[0],
    ).toMatchObject({
      action: "update",
      changes: [{ field: "status", before: "archived", after: "active" }],
    });
    const blocked = diffObject(
      projectKind,
      desired,
      liveOf(desired, { status: "inactive", name: "Old" }),
      ctx,
    );
    expect(blocked).toHaveLength(1);
    expect(blocked[0]).toMatchObject({ action: "blocked", blocked: { field: "status" } });
    expect(blocked[0].reason).toContain("cannot be reactivated");
    expect(blocked[0].reason).toContain("title");
  });

  it("knows which status moves the API has", () => {
    expect(unreachableStatus("archived", "active")).toBeUndefined();
    expect(unreachableStatus("archived", "inactive")).toBeUndefined();
    expect(unreachableStatus("active", "archived")).toBeUndefined();
    expect(unreachableStatus("inactive", "active")).toMatch(/cannot be made inactive/);
    expect(unreachableStatus("active", "inactive")).toMatch(/cannot be reactivated/);
  });

  it("creates a project declared inactive with a warning", () => {
    const s = load(TFA.replace("visibility: public", "visibility: public\n  status: inactive"));
    const [e] = diffObject(projectKind, projectKind.desired(s)[0], undefined, ctx);
    expect(e?.action).toBe("create");
    expect(e?.warnings?.[0]).toMatch(/inactive cannot be set/);
  });

  it("patches only what differs", () => {
    const want = desired.fields as ProjectFields;
    expect(patchBody(want, want)).toBeUndefined();
    expect(patchBody(want, { ...want, description: "y", externalContribution: false })).toEqual({
      description: "Secure world",
      externalContribution: true,
    });
  });
});

describe("Project: properties", () => {
  const arbFields = fc.record({
    title: fc.string({ minLength: 1, maxLength: 8 }),
    description: fc.string({ maxLength: 8 }),
    organization: fc.constantFrom("acme", "acme-partner"),
    visibility: fc.constantFrom("public" as const, "private" as const),
    status: fc.constantFrom("active" as const, "archived" as const),
    externalContribution: fc.boolean(),
    restrictionLevel: fc.constantFrom("", "read-only"),
    eccn: fc.constantFrom("", "EAR99", "5D002"),
  });
  const obj = (fields: ProjectFields): DesiredObject => ({
    key: "project/x",
    fields,
    source: null,
    dependsOn: [],
  });

  it("diff of an object with itself is empty", () => {
    fc.assert(
      fc.property(arbFields, (f) => {
        const d = obj(f);
        expect(diffObject(projectKind, d, { key: d.key, fields: { ...f }, ids: {} }, ctx)).toEqual(
          [],
        );
      }),
    );
  });

  it("a mutation is reported as exactly the mutated fields (update or ticket by field)", () => {
    fc.assert(
      fc.property(arbFields, arbFields, fc.subarray(Object.keys(desired.fields)), (a, b, pick) => {
        const live: Record<string, unknown> = { ...a };
        for (const k of pick) live[k] = (b as Record<string, unknown>)[k];
        const changed = pick.filter((k) => live[k] !== (a as Record<string, unknown>)[k]);
        const entries = diffObject(
          projectKind,
          obj(a),
          { key: "project/x", fields: live, ids: {} },
          ctx,
        );
        const reported = entries.flatMap((e) => e.changes.map((c) => c.field)).sort();
        expect(reported).toEqual([...changed].sort());
        for (const e of entries) {
          const immutable = e.changes.every((c) =>
            ["visibility", "organization", "eccn"].includes(c.field),
          );
          expect(e.action).toBe(immutable ? "ticket" : "update");
        }
      }),
    );
  });
});
