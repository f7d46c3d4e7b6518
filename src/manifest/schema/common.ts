/**
 * Building blocks of the manifest schemas: enums reused from the API schemas (one source of
 * values), name patterns, the metadata block and the defaults. Annotations understood by
 * editors (yaml-language-server / vscode-json-languageservice): `patternErrorMessage`,
 * `errorMessage`, `deprecationMessage`, `doNotSuggest`; the loader reads them too.
 */
import {
  Type,
  type SchemaOptions,
  type Static,
  type TObject,
  type TProperties,
  type TSchema,
  type TString,
  type TUnsafe,
} from "@sinclair/typebox";
import {
  CreateEmailAccountBody,
  CreateOrganizationBody,
  CreateProjectBody,
  CreateRepoBody,
  CreateSubgroupsBody,
  CreateTeamBody,
  CreateUserBody,
  StringEnum,
} from "../../api/schemas.js";

export const API_VERSION = "phctl/v1";
export const SCHEMA_BASE = "https://phctl.example/schemas/v1/";

/** Extra annotation keywords (editor conventions) that ajv must accept. */
export const ANNOTATION_KEYWORDS = [
  "patternErrorMessage",
  "errorMessage",
  "deprecationMessage",
  "doNotSuggest",
] as const;

interface Annotations extends SchemaOptions {
  patternErrorMessage?: string;
  errorMessage?: string;
  deprecationMessage?: string;
  doNotSuggest?: boolean;
}

export { StringEnum };

/** The values of an API enum (`enum`, or a union of string literals). */
export function enumValues(s: TSchema): string[] {
  const e = (s as { enum?: unknown }).enum;
  if (Array.isArray(e)) return e.map(String);
  const anyOf = (s as { anyOf?: { const?: unknown }[] }).anyOf;
  if (Array.isArray(anyOf)) return anyOf.map((b) => String(b.const));
  throw new Error("not an enum schema");
}

/** An API enum from src/api/schemas.ts reused in a manifest, with its own annotations. */
export function enumFrom<T extends TSchema>(s: T, opts: Annotations = {}): TUnsafe<Static<T>> {
  return Type.Unsafe<Static<T>>({ ...opts, type: "string", enum: enumValues(s) });
}

/** An object that rejects unknown keys — every object of every manifest. */
export function Strict<T extends TProperties>(props: T, opts: Annotations = {}): TObject<T> {
  return Type.Object(props, { ...opts, additionalProperties: false });
}

function patternOf(s: TSchema): string {
  const p = (s as TString).pattern;
  if (typeof p !== "string") throw new Error("schema has no pattern");
  return p;
}

/** Name patterns, as the API's request bodies define them. */
export const Patterns = {
  username: patternOf(CreateUserBody.properties.username),
  projectSlug: patternOf(CreateProjectBody.properties.projectSlug),
  organization: patternOf(CreateOrganizationBody.properties.organization),
  team: patternOf(CreateTeamBody.properties.name),
  repository: patternOf(CreateRepoBody.properties.name),
  subgroupPath: patternOf(CreateSubgroupsBody.properties.subGroups),
  groupPath: "^[A-Za-z0-9][A-Za-z0-9._-]*$",
  artifactRepository: "^[a-z0-9][a-z0-9._-]*$",
  organizationTeamPath: "^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)*$",
  /** SPDX license id: letters, digits, `.`, `-`, `+` (no expressions). */
  license: "^[A-Za-z0-9][A-Za-z0-9.+-]*$",
  /** A clone URL: https/http or ssh (URL or scp-like form). */
  cloneUrl: "^((https?|ssh)://[^\\s/]+/\\S+|[A-Za-z0-9._-]+@[^\\s:/]+:\\S+)$",
  sshUrl: "^(ssh://[^\\s/]+/\\S+|[A-Za-z0-9._-]+@[^\\s:/]+:\\S+)$",
  httpUrl: "^https?://\\S+$",
  duration: "^([0-9]+(ms|s|m|h))+$",
  percent: "^(100|[0-9]{1,2})(\\.[0-9]+)?%$",
  isoDate:
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$",
} as const;

export const Username = Type.String({
  pattern: Patterns.username,
  patternErrorMessage: "must be a username: lower-case letters, digits, '.', '_', '-' (at most 63)",
});
export const OrganizationName = Type.String({
  pattern: Patterns.organization,
  patternErrorMessage: "must be an organization name: lower-case letters, digits, '-' (at most 63)",
});
export const Email = Type.String({ format: "email" });

/** Common SPDX ids offered to editors and used for "did you mean" on malformed ids. */
export const COMMON_LICENSES = [
  "0BSD",
  "AGPL-3.0",
  "Apache-2.0",
  "BSD-2-Clause",
  "BSD-3-Clause",
  "BSL-1.0",
  "CC-BY-4.0",
  "CC0-1.0",
  "EPL-2.0",
  "GPL-2.0",
  "GPL-3.0",
  "ISC",
  "LGPL-2.1",
  "LGPL-3.0",
  "MIT",
  "MPL-2.0",
  "Unlicense",
  "Zlib",
] as const;

export const MailPlans = enumValues(CreateEmailAccountBody.properties.mailplan) as readonly (
  "retention" | "non-retention"
)[];
/** The spec types a bundle's frequency as a string; these values are our assumption. */
export const BundleFrequencies = ["daily", "weekly", "monthly"] as const;

/** Default values: written into the schemas (`default`, for editors) and used by normalise. */
export const DEFAULTS = {
  config: {
    concurrency: 8,
    queueTimeout: "10m",
    outageTimeout: "2m",
    maxRemovals: "25%",
    prune: false,
  },
  user: { role: "member", status: "active", sendWelcome: false },
  service: { status: "active", mailplan: "non-retention" },
  team: { service: false },
  project: {
    description: "",
    visibility: "public",
    status: "active",
    externalContribution: false,
  },
  group: { requestAccessEnabled: false, enableCi: false },
  repository: {
    subgroup: "",
    issueTracking: "disabled",
    mergeRequests: "disabled",
    requiresDCO: false,
    enableLFS: false,
    enableForking: true,
    status: "active",
    persistentStorage: false,
  },
  mirror: { excludeTags: false, enabled: true },
  artifactRepository: { type: "generic" },
} as const;

/** Annotations with `phctl/` keys are ours and checked; any other key is free text. */
const AnnotationsSchema = Type.Object(
  {
    "phctl/protect": Type.Optional(
      Type.Unsafe<"true" | "false" | boolean>({
        enum: ["true", "false", true, false],
        description: "never plan deletion of this object or its children",
      }),
    ),
  },
  {
    additionalProperties: false,
    patternProperties: { "^(?!phctl/)": { type: "string" } },
    description: "free-form string annotations; keys starting with phctl/ are phctl's own",
  },
);

export function Metadata(name: TString, description: string) {
  return Strict(
    { name: Type.String({ ...name, description }), annotations: Type.Optional(AnnotationsSchema) },
    { description: "identity of the object" },
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
      apiVersion: Type.Literal(API_VERSION, { description: "manifest format version" }),
      kind: Type.Literal(kind),
      metadata,
      spec,
    },
    { title: `phctl ${kind}`, description },
  );
}
