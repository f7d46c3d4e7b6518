/**
 * Schema of `kind: Defaults` documents: a selector, a priority, and the values every selected
 * object gets under its own. `values` is typed by `select.kind` (if/then), so an editor
 * completes a Project layer's values with a project's fields and a Repository layer's with a
 * repository's.
 */
import { Type, type Static, type TObject, type TSchema } from "@sinclair/typebox";
import { about, Strict } from "./keywords.js";
import { DocumentSchema, Metadata } from "./document.js";
import { OwnersSchema, type OwnersInput } from "./owners.js";
import { ProjectSpec } from "./project.js";
import { RepositorySpec } from "./repository.js";
import { SELECT_KINDS, SelectorSchema, type SelectKind } from "./selector.js";
import { TeamSpec } from "./team.js";
import { UserSpec } from "./user.js";

/** An object schema with every property optional and `inherit` dropped (a layer cannot stop layers). */
function partial(s: TObject, example: Record<string, unknown>, drop: readonly string[] = []) {
  const properties = Object.fromEntries(
    Object.entries(s.properties).filter(([k]) => k !== "inherit" && !drop.includes(k)),
  );
  const rest: Record<string, unknown> = { ...(s as unknown as Record<string, unknown>) };
  delete rest.required;
  return { ...rest, properties, examples: [example] } as unknown as TSchema;
}

/** What `values` may hold for each selectable kind. */
export const VALUES: Record<SelectKind, TSchema> = {
  Project: partial(ProjectSpec, {
    access: { reporters: { organizationTeams: ["acme/security"] } },
  }),
  Repository: partial(RepositorySpec, { requiresDCO: true, enableForking: false }, [
    "name",
    "subgroup",
  ]),
  User: partial(UserSpec, { services: { git: { status: "active" } } }),
  Team: partial(TeamSpec, { services: { gitservice: true } }),
};

const DESCRIPTION = "Values for every object the selector chooses.";
const EXAMPLE = { priority: 10, select: { kind: "Repository" }, values: { enableForking: false } };
const common = {
  description: Type.Optional(
    Type.String({ ...about("What this layer is for, for people.", "Repository baseline") }),
  ),
  priority: Type.Optional(
    Type.Integer({
      default: 0,
      ...about(
        "Between layers that set the same field of the same object, the higher priority wins; equal priorities that disagree are an error. The object's own manifest wins over every layer.",
        10,
      ),
    }),
  ),
  select: SelectorSchema,
};
/** A Project layer's owners: added to the owners of every project it selects. */
const LayerOwners = Type.Optional(
  OwnersSchema(
    "Owners added to every selected project's (its own metadata.owners, and those of other layers): a project given owners no longer defaults to its admins.",
  ),
);
const VALUES_ABOUT =
  "merged under each selected object's own manifest: scalars override, mappings merge, keyed lists merge by key, other lists replace";

/**
 * The spec of one selected kind, whole: the dispatch below picks it by `select.kind`, so an
 * editor completes `values` with that kind's fields and rejects the others'.
 */
const specOf = (k: SelectKind) =>
  Strict(
    {
      ...common,
      ...(k === "Project" ? { owners: LayerOwners } : {}),
      values: {
        ...VALUES[k],
        title: "values",
        description: `Values every selected ${k === "Repository" ? "repository" : k.toLowerCase()} gets, ${VALUES_ABOUT}.`,
      },
    },
    about(DESCRIPTION, EXAMPLE),
  );

export const DefaultsSpec = Type.Unsafe<{
  priority?: number;
  owners?: OwnersInput;
  description?: string;
  select: Static<typeof SelectorSchema>;
  values: Record<string, unknown>;
}>({
  ...Strict(
    {
      ...common,
      owners: LayerOwners,
      values: Type.Unsafe<Record<string, unknown>>(
        about(`The values every selected object gets, ${VALUES_ABOUT}.`, {
          enableForking: false,
        }),
      ),
    },
    about(DESCRIPTION, EXAMPLE),
  ),
  required: ["select", "values"],
  allOf: SELECT_KINDS.map((k) => ({
    if: {
      type: "object",
      properties: {
        select: { type: "object", properties: { kind: { const: k } }, required: ["kind"] },
      },
      required: ["select"],
    },
    then: specOf(k),
  })),
});

export const DefaultsDocument = DocumentSchema(
  "Defaults",
  Metadata(
    Type.String({
      pattern: "^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$",
      patternErrorMessage: "must be a name: lower-case letters, digits, '-', '.' (at most 63)",
    }),
    "The layer's name, unique among Defaults.",
    "repository-baseline",
  ),
  DefaultsSpec,
  "values given to every object a selector chooses (a layer); the objects' own manifests win",
);
export type DefaultsDocument = Static<typeof DefaultsDocument>;
