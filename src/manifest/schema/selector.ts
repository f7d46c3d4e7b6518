/**
 * The selector and labels schemas: which objects a Defaults document (or a Policy) applies
 * to, and the labels objects carry. Matching is src/layers/selector.ts.
 */
import { Type, type Static } from "@sinclair/typebox";
import { about, oneOfMessage, StringEnum, Strict } from "./keywords.js";

/** The kinds a selector can name. A Repository is each repository of the selected projects. */
export const SELECT_KINDS = ["Project", "Repository", "User", "Team"] as const;
export type SelectKind = (typeof SELECT_KINDS)[number];

export const LABEL_OPERATORS = ["In", "NotIn", "Exists", "DoesNotExist"] as const;
export type LabelOperator = (typeof LABEL_OPERATORS)[number];

/** Kubernetes' label key: an optional DNS-subdomain prefix and `/`, then a name of ≤ 63. */
export const LABEL_KEY =
  "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$";
/** Kubernetes' label value: empty, or ≤ 63 of letters, digits, `-_.` starting and ending alphanumeric. */
export const LABEL_VALUE = "^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$";

const labelKeyMessage =
  "must be a label key: an optional prefix such as example.org/ then letters, digits, '-', '_', '.' (at most 63)";
const labelValueMessage =
  "must be a label value: empty, or at most 63 letters, digits, '-', '_', '.' starting and ending with a letter or digit";

/** `metadata.labels`: string → string, the keys and values Kubernetes allows. */
export const LabelsSchema = Type.Unsafe<Record<string, string>>({
  type: "object",
  propertyNames: { pattern: LABEL_KEY, patternErrorMessage: labelKeyMessage },
  // Every key the names allow: the names say what is wrong with a key, and no other is open.
  // `additionalProperties` as a schema, not `patternProperties: {"": …}`: Python's jsonschema
  // (check-jsonschema) skips an empty pattern and then rejects every label as additional.
  additionalProperties: {
    type: "string",
    maxLength: 63,
    pattern: LABEL_VALUE,
    patternErrorMessage: labelValueMessage,
  },
  ...about(
    "Labels (key: value) that Defaults and Policy selectors choose objects by; keys and values follow Kubernetes' rules.",
    { tier: "critical", "acme.example/owner": "firmware" },
  ),
});

const globs = (what: string, example: string[]) =>
  Type.Optional(
    Type.Array(
      Type.String({
        minLength: 0,
        ...about(`A ${what} glob: * within a path segment, ** across.`, example[0]),
      }),
      {
        minItems: 1,
        ...about(`${what[0].toUpperCase()}${what.slice(1)} globs; any of them matches.`, example),
      },
    ),
  );

export const LabelExpression = Strict(
  {
    key: Type.String({
      pattern: LABEL_KEY,
      patternErrorMessage: labelKeyMessage,
      ...about("The label key.", "tier"),
    }),
    operator: StringEnum(LABEL_OPERATORS, {
      ...oneOfMessage(LABEL_OPERATORS),
      ...about("In, NotIn (with values), Exists or DoesNotExist (without).", "In"),
    }),
    values: Type.Optional(
      Type.Array(Type.String({ ...about("A label value.", "critical") }), {
        ...about("The values In and NotIn compare with.", ["critical", "high"]),
      }),
    ),
  },
  about("A label condition.", { key: "tier", operator: "In", values: ["critical"] }),
);

export const SelectorSchema = Strict(
  {
    kind: StringEnum(SELECT_KINDS, {
      ...oneOfMessage(SELECT_KINDS),
      ...about(
        "What is selected: Project, Repository (each repository of the selected projects), User or Team.",
        "Project",
      ),
    }),
    organization: Type.Optional(
      Type.String({
        minLength: 1,
        ...about(
          "Only objects of this organization (a glob); an object without one is phctl.yaml's organization's.",
          "acme",
        ),
      }),
    ),
    names: globs("name", ["tf-*"]),
    matchLabels: Type.Optional(
      Type.Unsafe<Record<string, string>>({
        ...LabelsSchema,
        ...about("Labels the object must have, with these values.", { tier: "critical" }),
      }),
    ),
    matchExpressions: Type.Optional(
      Type.Array(LabelExpression, {
        ...about("Label conditions that must all hold.", [
          { key: "tier", operator: "NotIn", values: ["sandbox"] },
        ]),
      }),
    ),
    repositories: globs("repository name", ["*-docs"]),
    subgroups: globs('subgroup path ("" is the project group)', ["tools/**"]),
  },
  about("Which objects this applies to: a kind, narrowed by organization, names and labels.", {
    kind: "Project",
    matchLabels: { tier: "critical" },
  }),
);
export type Selector = Static<typeof SelectorSchema>;
