/**
 * The manifest schemas as JSON Schema draft 2020-12 documents: one per kind, one for
 * phctl.yaml, and manifest.schema.json that dispatches on `kind` (for editors). The loader
 * validates with exactly these objects, and `npm run gen` writes them to schemas/.
 */
import type { TSchema } from "@sinclair/typebox";
import { API_VERSION, SCHEMA_BASE } from "./common.js";
import { ConfigDocument } from "./config.js";
import { DefaultsDocument } from "./defaults.js";
import { OrganizationDocument } from "./organization.js";
import { PolicyDocument } from "./policy.js";
import { ProjectDocument } from "./project.js";
import { TeamDocument } from "./team.js";
import { UserDocument } from "./user.js";

/**
 * Manifest kinds: the objects in dependency order, then the layers that give them values, then
 * the policies that check them.
 */
export const KINDS = ["Organization", "User", "Team", "Project", "Defaults", "Policy"] as const;
export type Kind = (typeof KINDS)[number];

const kindSchemas: Record<Kind, TSchema> = {
  Organization: OrganizationDocument,
  User: UserDocument,
  Team: TeamDocument,
  Project: ProjectDocument,
  Defaults: DefaultsDocument,
  Policy: PolicyDocument,
};

export type JsonSchema = Record<string, unknown>;

const DRAFT = "https://json-schema.org/draft/2020-12/schema";

/** A plain JSON copy (TypeBox's symbol keys dropped). */
const plain = (s: TSchema): JsonSchema => JSON.parse(JSON.stringify(s)) as JsonSchema;

/** Schema file names under schemas/, by what they describe. */
export const SCHEMA_FILES = {
  manifest: "manifest.schema.json",
  config: "config.schema.json",
  organization: "organization.schema.json",
  user: "user.schema.json",
  team: "team.schema.json",
  project: "project.schema.json",
  defaults: "defaults.schema.json",
  policy: "policy.schema.json",
} as const;
export type SchemaName = keyof typeof SCHEMA_FILES;

function withId(name: SchemaName, s: JsonSchema): JsonSchema {
  return { $schema: DRAFT, $id: `${SCHEMA_BASE}${SCHEMA_FILES[name]}`, ...s };
}

/** The document schema of one kind (standalone, with $id). */
export function kindSchema(kind: Kind): JsonSchema {
  return withId(kind.toLowerCase() as SchemaName, plain(kindSchemas[kind]));
}

export function configSchema(): JsonSchema {
  return withId("config", plain(ConfigDocument));
}

/**
 * Any manifest document. `if kind = X then $ref #/$defs/X` gives editors completion per kind
 * and keeps errors to the one kind that applies (oneOf would report every branch). The
 * top-level properties have a title and a description but leave examples to each kind's own
 * (an editor's hover lists the examples of every schema that matches: they would show twice).
 */
export function manifestSchema(): JsonSchema {
  return withId("manifest", {
    title: "phctl manifest",
    description: "one phctl manifest document (apiVersion, kind, metadata, spec)",
    type: "object",
    required: ["apiVersion", "kind", "metadata"],
    properties: {
      apiVersion: {
        title: "apiVersion",
        const: API_VERSION,
        description: `Manifest format version: always ${API_VERSION}.`,
      },
      kind: {
        title: "kind",
        type: "string",
        enum: [...KINDS],
        description: `What the document declares: ${KINDS.join(", ")}.`,
      },
      metadata: {
        title: "metadata",
        type: "object",
        description: "Identity of the object: its name, and optional annotations.",
      },
      spec: {
        title: "spec",
        description: "The object's settings; what they are depends on the kind.",
      },
    },
    additionalProperties: false,
    allOf: KINDS.map((k) => ({
      if: { properties: { kind: { const: k } }, required: ["kind"] },
      then: { $ref: `#/$defs/${k}` },
    })),
    $defs: Object.fromEntries(KINDS.map((k) => [k, plain(kindSchemas[k])])),
  });
}

/** Every schema by name, as written to schemas/. */
export function allSchemas(): Record<SchemaName, JsonSchema> {
  return {
    manifest: manifestSchema(),
    config: configSchema(),
    organization: kindSchema("Organization"),
    user: kindSchema("User"),
    team: kindSchema("Team"),
    project: kindSchema("Project"),
    defaults: kindSchema("Defaults"),
    policy: kindSchema("Policy"),
  };
}

export const renderSchema = (name: SchemaName): string =>
  `${JSON.stringify(allSchemas()[name], null, 2)}\n`;
