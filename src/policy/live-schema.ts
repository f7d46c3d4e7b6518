/**
 * What a `scope: live` rule sees as `object`: one live object of the selected kind, as drift
 * reads it from the service — its fields, not the manifest's document. Published as a schema
 * (`phctl schema live`, schemas/live.schema.json) and used to type-check live rules at load,
 * so that `object.descripton` is an error at the rule's line instead of a denial of every
 * live object at drift time. Required fields are there on every live object of the kind;
 * the others only on some (a declared project's managed fields): guard them with `has()`.
 */
import { Type, type TObject } from "@sinclair/typebox";
import type { SelectKind } from "../layers/selector.js";

const nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

const LiveProject = Type.Object(
  {
    title: Type.String({ description: "the project's name (API field name)" }),
    description: Type.String(),
    visibility: Type.String({ description: "public or private" }),
    status: Type.String({ description: "active or archived" }),
    organization: Type.Optional(Type.String({ description: "the owning organization" })),
    externalContribution: Type.Optional(
      Type.Boolean({ description: "on projects the manifests declare" }),
    ),
    restrictionLevel: Type.Optional(
      Type.String({ description: "on declared projects whose manifest sets it" }),
    ),
    eccn: Type.Optional(
      Type.String({ description: "on declared projects whose manifest sets it" }),
    ),
  },
  { additionalProperties: false, title: "Project", description: "a live project" },
);

const Tristate = Type.String({ description: "enabled, private or disabled" });

const LiveRepository = Type.Object(
  {
    name: Type.String(),
    subgroup: Type.String({ description: 'the subgroup path ("" for the project group)' }),
    issueTracking: Tristate,
    mergeRequests: Tristate,
    requiresDCO: Type.Boolean(),
    enableLFS: Type.Boolean(),
    enableForking: Type.Boolean(),
    status: Type.String({ description: "active or archived" }),
    fork: nullable("the fork source's clone URL, or null"),
    commitBlocker: Type.Union(
      [
        Type.Object({
          author: Type.Array(Type.String()),
          committer: Type.Array(Type.String()),
          since: Type.Union([Type.String(), Type.Null()]),
        }),
        Type.Null(),
      ],
      { description: "allowed author and committer domains, or null when none is set" },
    ),
    persistentStorage: Type.Boolean(),
    bundle: Type.Optional(nullable("the bundle frequency, on repositories read with bundles")),
  },
  { additionalProperties: false, title: "Repository", description: "a live repository" },
);

const LiveUser = Type.Object(
  {
    firstName: Type.String(),
    lastName: Type.String(),
    displayName: Type.String(),
    externalEmail: Type.String(),
    organization: Type.String(),
    role: Type.String({ description: "member, users-admin, projects-admin or system-admin" }),
    status: Type.String(),
  },
  { additionalProperties: false, title: "User", description: "a live user" },
);

const LiveTeam = Type.Object(
  {
    gitservice: Type.Boolean(),
    artifactservice: Type.Boolean(),
    wiki: Type.Boolean(),
  },
  { additionalProperties: false, title: "Team", description: "a live user team's service flags" },
);

/** The live object's schema per selectable kind. */
export const LIVE_SCHEMAS: Record<SelectKind, TObject> = {
  Project: LiveProject,
  Repository: LiveRepository,
  User: LiveUser,
  Team: LiveTeam,
};

/** The published schema: the four kinds' live objects as definitions. */
export function renderLiveSchema(): string {
  const schema = {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "phctl live objects",
    description:
      "What a policy rule with scope: live sees as `object`, per selected kind (definitions). Fields not required are on some live objects only: guard them with has().",
    definitions: LIVE_SCHEMAS,
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}
