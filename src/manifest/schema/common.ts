/**
 * Building blocks of the manifest schemas: enums reused from the API schemas (one source of
 * values), name patterns, names, and the defaults; the keywords they are written with are
 * in keywords.ts (re-exported here), the parts of every document in document.ts.
 */
import { Type, type TSchema, type TString } from "@sinclair/typebox";
import {
  CreateEmailAccountBody,
  CreateOrganizationBody,
  CreateProjectBody,
  CreateRepoBody,
  CreateSubgroupsBody,
  CreateTeamBody,
  CreateUserBody,
} from "../../api/schemas.js";
import { enumValues } from "./keywords.js";

export * from "./keywords.js";

export const API_VERSION = "phctl/v1";
export const SCHEMA_BASE = "https://phctl.example/schemas/v1/";

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
  examples: ["jdoe"],
  patternErrorMessage: "must be a username: lower-case letters, digits, '.', '_', '-' (at most 63)",
});
export const OrganizationName = Type.String({
  pattern: Patterns.organization,
  examples: ["acme-partner"],
  patternErrorMessage: "must be an organization name: lower-case letters, digits, '-' (at most 63)",
});
export const Email = Type.String({
  format: "email",
  errorMessage: "must be an e-mail address",
  examples: ["jane.doe@example.org"],
});

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
    expiryWarnDays: 14,
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
