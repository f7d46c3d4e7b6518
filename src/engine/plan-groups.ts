/**
 * The `groups` section of a plan's JSON form: identical changes counted together (same
 * action, kind, field, before → after and source document) and policy violations counted per
 * rule, so that a bot reads an organization-wide change as one line, as people do. Derived
 * from `entries` and `violations` when the plan is written (src/render/change-groups.ts);
 * additive: readers that ignore it lose nothing, and apply never decides on it.
 */
import { Type, type Static } from "@sinclair/typebox";
import { StringEnum } from "../api/schemas.js";

/** The plan's actions (src/engine/plan.ts re-exports them). */
export const ACTIONS = ["create", "update", "delete", "ticket", "blocked"] as const;
/** What apply will do with an entry; `ticket` and `blocked` are never sent to the API. */
export type Action = (typeof ACTIONS)[number];

export const GroupSource = Type.Object(
  {
    layer: Type.Optional(
      Type.String({ description: "the Defaults document (metadata.name) giving the value" }),
    ),
    file: Type.Optional(Type.String({ description: "the manifest file the change comes from" })),
    line: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: "the line, when every change of the group is on it",
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "the document the changes come from: a Defaults layer, or the objects' own manifest file (empty: none, as for a delete)",
  },
);
export type GroupSource = Static<typeof GroupSource>;

export const ChangeGroup = Type.Object(
  {
    action: StringEnum(ACTIONS),
    kind: Type.String(),
    field: Type.Optional(
      Type.String({ description: "the changed field; absent for a whole object (create, delete)" }),
    ),
    before: Type.Optional(Type.Unknown()),
    after: Type.Optional(Type.Unknown()),
    source: GroupSource,
    count: Type.Integer({ minimum: 1, description: "how many changes (objects) the group holds" }),
    projects: Type.Integer({ minimum: 0, description: "how many projects those objects are in" }),
    keys: Type.Array(Type.String(), { description: "the objects' keys, in people's order" }),
  },
  { additionalProperties: false, description: "identical changes on several objects" },
);
export type ChangeGroup = Static<typeof ChangeGroup>;

export const ViolationGroup = Type.Object(
  {
    policy: Type.String(),
    rule: Type.String(),
    verdict: StringEnum(["deny", "warn", "excepted", "debt"] as const),
    kind: Type.String({ description: 'the kind of the objects ("" when several kinds)' }),
    message: Type.Optional(Type.String({ description: "when every violation says the same" })),
    ruleSource: Type.Optional(
      Type.Object(
        {
          file: Type.String(),
          line: Type.Integer({ minimum: 1 }),
          column: Type.Optional(Type.Integer({ minimum: 1 })),
        },
        { additionalProperties: false, description: "the rule's expression in the policy file" },
      ),
    ),
    count: Type.Integer({ minimum: 1 }),
    projects: Type.Integer({ minimum: 0 }),
    keys: Type.Array(Type.String()),
  },
  { additionalProperties: false, description: "the violations of one rule with one verdict" },
);
export type ViolationGroup = Static<typeof ViolationGroup>;

export const PlanGroups = Type.Object(
  {
    changes: Type.Array(ChangeGroup, {
      description:
        "every change in exactly one group (an update's fields each in their own), largest first",
    }),
    violations: Type.Array(ViolationGroup, {
      description: "every violation in exactly one group, denials first, largest first",
    }),
  },
  {
    additionalProperties: false,
    description:
      "identical changes and violations counted together (derived from entries and violations when the plan is written; informative)",
  },
);
export type PlanGroups = Static<typeof PlanGroups>;
