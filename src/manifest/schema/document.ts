/** The parts every manifest document has: apiVersion, kind, metadata (name, annotations). */
import { Type, type TProperties, type TSchema, type TString } from "@sinclair/typebox";
import { API_VERSION } from "./common.js";
import { about, Strict } from "./keywords.js";
import { LabelsSchema } from "./selector.js";

/** Annotations with `phctl/` keys are ours and checked; any other key is free text. */
const AnnotationsSchema = Type.Object(
  {
    "phctl/protect": Type.Optional(
      Type.Unsafe<"true" | "false" | boolean>({
        title: "phctl/protect",
        enum: ["true", "false", true, false],
        ...about(
          'Protect the object: "true" (or true) and phctl never plans the deletion of this object or of anything in it (a project\'s group, subgroups, repositories, mirrors and artifact repositories), whatever prune says.',
          "true",
        ),
      }),
    ),
  },
  {
    additionalProperties: false,
    patternProperties: { "^(?!phctl/)": { type: "string" } },
  },
);

/**
 * The metadata block: the name (`name` gives its pattern and messages), labels, annotations,
 * and what one kind adds (`extra`: a Project's owners).
 */
export function Metadata<E extends TProperties = Record<never, TSchema>>(
  name: TString,
  description: string,
  example: string,
  extra: E = {} as E,
) {
  return Strict(
    {
      name: Type.String({ ...name, ...about(description, example) }),
      labels: Type.Optional({ ...LabelsSchema, title: "labels" }),
      annotations: Type.Optional({
        ...AnnotationsSchema,
        ...about(
          "Free-form string annotations (key: text) for people and tools; keys that start with phctl/ are phctl's own and checked.",
          { "phctl/protect": "true" },
          { "owner.example.org/team": "firmware" },
        ),
      }),
      ...extra,
    },
    about("Identity of the object: its name, and optional annotations.", { name: example }),
  );
}

/** A whole document of one kind: apiVersion, kind, metadata, spec. */
export function DocumentSchema<K extends string, M extends TSchema, S extends TSchema>(
  kind: K,
  metadata: M,
  spec: S,
  description: string,
) {
  return Strict(
    {
      apiVersion: Type.Literal(
        API_VERSION,
        about(`Manifest format version: always ${API_VERSION}.`, API_VERSION),
      ),
      kind: Type.Literal(kind, about(`What the document declares: ${kind}.`, kind)),
      metadata,
      spec,
    },
    { title: `phctl ${kind}`, description },
  );
}
