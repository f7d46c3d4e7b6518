/**
 * JSON Schemas (TypeBox) of the administration API's request bodies and response records,
 * as the project reads `API-SPEC.md`. One source: the route table, the reference server's
 * validation, the client's types and `schemas/openapi.yaml` all come from these.
 * Where the spec says "not shown", the shape here is our assumption (see src/server/SPEC.md).
 */
import { Type, type SchemaOptions, type TSchema } from "@sinclair/typebox";
import { MAX_PATH_PARAM } from "./route-def.js";

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/** A string enum as JSON Schema `enum` (clearer validation messages than anyOf of consts). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
) {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

export const Timestamp = Type.String({
  description: "ISO 8601, yyyy-MM-dd'T'HH:mm:ss.SSSZ",
});

export const UserRole = StringEnum(
  ["member", "projects-admin", "users-admin", "system-admin"] as const,
  { description: "exactly one role per user or client" },
);
export const ActiveInactive = StringEnum(["active", "inactive"] as const);
export const Visibility = StringEnum(["public", "private"] as const);
export const ProjectStatus = StringEnum(["active", "inactive", "archived"] as const);
export const Tristate = StringEnum(["enabled", "private", "disabled"] as const);
export const RepoStatus = StringEnum(["active", "archived"] as const);
export const MirrorFrequencies = ["once", "daily", "weekly"] as const;
export const MirrorFrequency = StringEnum(MirrorFrequencies);
export const MirrorStatuses = [
  "pending",
  "inactive",
  "mirrored",
  "in-progress",
  "failed",
  "deleted",
] as const;
export const MirrorStatus = StringEnum(MirrorStatuses);
export const ArtifactRepoTypes = [
  "alpine",
  "bower",
  "cargo",
  "chef",
  "cocoapods",
  "composer",
  "conan",
  "cran",
  "debian",
  "docker",
  "gems",
  "generic",
  "gitlfs",
  "go",
  "gradle",
  "helm",
  "ivy",
  "maven",
  "npm",
  "nuget",
  "opkg",
  "puppet",
  "pypi",
  "rpm",
  "sbt",
  "vagrant",
  "yum",
] as const;
export const ArtifactRepoType = StringEnum(ArtifactRepoTypes);
export const AccessLevels = [
  "admins",
  "controllers",
  "editors",
  "maintainers",
  "developers",
  "reporters",
] as const;
export type AccessLevel = (typeof AccessLevels)[number];
export const AccessLevel = StringEnum(AccessLevels);
export const TeamLevels = ["maintainers", "developers", "reporters"] as const;
export type TeamLevel = (typeof TeamLevels)[number];
export const TeamLevel = StringEnum(TeamLevels);
export const UserServices = [
  "git",
  "artifactservice",
  "servicedesk",
  "email",
  "irc",
  "wiki",
] as const;
export type UserService = (typeof UserServices)[number];
export const TeamServiceName = StringEnum(["artifactservice", "gitservice", "wiki"] as const);

// ---------------------------------------------------------------- envelopes

export const Status = Type.Object(
  { code: Type.Integer(), message: Type.String() },
  { $id: "Status", description: "status object of every envelope (assumed shape)" },
);
export const Pagination = Type.Object(
  {
    page: Type.Integer(),
    limit: Type.Integer(),
    total: Type.Integer(),
    totalPages: Type.Integer(),
  },
  { description: "assumed shape" },
);
export const FieldError = Type.Object({ field: Type.String(), message: Type.String() });
export const ErrorBody = Type.Object({
  status: Status,
  errors: Type.Optional(Type.Array(FieldError)),
});
export const StatusOnly = Type.Object({ status: Status });
export const DataEnvelope = <T extends TSchema>(t: T) => Type.Object({ status: Status, data: t });
export const Paged = <T extends TSchema>(t: T) =>
  Type.Object({ pagination: Pagination, data: Type.Array(t) });
export const QueueAccepted = Type.Object({
  code: Type.Integer(),
  description: Type.String(),
  queueid: Type.String(),
});
/** The organization rename answers `queuid`, as the spec spells it. */
export const RenameAccepted = Type.Object({
  code: Type.Integer(),
  description: Type.String(),
  queuid: Type.String(),
});

// ---------------------------------------------------------------- records

export const Organization = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  parentOrganization: Nullable(Type.String()),
  allowPersonalProjects: Type.Boolean(),
  maxPersonalProjects: Type.Integer(),
  allowExternalContribution: Type.Boolean(),
  created: Timestamp,
});

export const OrgTeam = Type.Object({
  id: Type.String(),
  org_name: Type.String(),
  name: Type.String(),
  path: Type.String(),
  created_date: Timestamp,
});

export const User = Type.Object({
  username: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  displayName: Type.String(),
  email: Type.String(),
  externalEmail: Type.String(),
  parentOrganization: Type.String(),
  organization: Type.String(),
  role: UserRole,
  active: Type.String({ description: '"true" or "false" (the spec types it string)' }),
  status: ActiveInactive,
  dateCreated: Timestamp,
  dateLastAccessed: Nullable(Timestamp),
  picture: Type.String(),
});

export const ServiceAccount = Type.Object(
  {
    username: Type.String(),
    service: Type.String(),
    status: Type.String(),
    created: Timestamp,
    personalProjectLimit: Type.Optional(Type.Integer()),
    name: Type.Optional(Type.String()),
    displayName: Type.Optional(Type.String()),
    mailplan: Type.Optional(Type.String()),
    link: Type.Optional(Type.String()),
    externalEmail: Type.Optional(Type.String()),
    organization: Type.Optional(Type.String()),
  },
  { description: "a user's account on one service (git, artifactservice, servicedesk, …)" },
);

export const UserServicesRecord = Type.Object({
  git: Nullable(ServiceAccount),
  artifactservice: Nullable(ServiceAccount),
  servicedesk: Nullable(ServiceAccount),
  email: Nullable(ServiceAccount),
  irc: Nullable(ServiceAccount),
  wiki: Nullable(ServiceAccount),
});

export const TeamServices = Type.Object({
  gitservice: Type.Boolean(),
  artifactservice: Type.Boolean(),
  wiki: Type.Boolean(),
});

export const Team = Type.Object({
  name: Type.String(),
  parentOrganization: Type.String(),
  services: TeamServices,
  userNames: Type.Array(Type.String()),
  projects: Type.Array(Type.String()),
});

export const ProjectListItem = Type.Object({
  id: Type.Integer(),
  projectSlug: Type.String(),
  name: Type.String(),
  description: Type.String(),
  visibility: Visibility,
  status: ProjectStatus,
  organization: Type.String(),
});

export const Roles = Type.Object({
  admins: Type.Array(Type.String()),
  controllers: Type.Array(Type.String()),
  editors: Type.Array(Type.String()),
  maintainers: Type.Array(Type.String()),
  developers: Type.Array(Type.String()),
  reporters: Type.Array(Type.String()),
  organizationTeams: Type.Object({
    maintainers: Type.Array(Type.String()),
    developers: Type.Array(Type.String()),
    reporters: Type.Array(Type.String()),
  }),
});

export const Project = Type.Object({
  id: Type.Integer(),
  projectSlug: Type.String(),
  name: Type.String(),
  description: Type.String(),
  visibility: Visibility,
  status: ProjectStatus,
  restrictionLevel: Type.String(),
  externalContribution: Type.Boolean(),
  eccn: Type.String(),
  parentOrganization: Type.String(),
  organization: Type.String(),
  roles: Roles,
  licenses: Type.Array(Type.String()),
  links: Type.Object({ gitGroup: Nullable(Type.String()), sshGroup: Nullable(Type.String()) }),
  created: Timestamp,
});

export const AccessEntry = Type.Object({
  type: StringEnum(["user", "team"] as const),
  name: Type.String({ description: "username, or the organization team's path" }),
  displayName: Type.String(),
});

export const GitGroup = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  path: Type.String(),
  fullPath: Type.String(),
  request_access_enabled: Type.Boolean(),
  enable_ci: Type.Boolean(),
  webUrl: Type.String(),
  created: Timestamp,
});

export const Subgroup = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  path: Type.String({ description: "relative to the project group, e.g. a/b/c" }),
  fullPath: Type.String(),
  parentId: Nullable(
    Type.Integer({ description: "the parent subgroup's id; null under the project group" }),
  ),
  request_access_enabled: Type.Boolean(),
  created: Timestamp,
});

export const Repository = Type.Object({
  name: Type.String(),
  repoSlug: Type.String(),
  gitRepoID: Type.Integer(),
  status: Type.String(),
  issueTracking: Tristate,
  mergeRequests: Tristate,
  requiresDCO: Type.Boolean(),
  enableLFS: Type.Boolean(),
  enableForking: Type.Boolean(),
  sshURI: Type.String(),
  httpURI: Type.String(),
  subgroups: Type.String({ description: 'subgroup path, "" for the project group' }),
  created: Timestamp,
  gitSourceRepoID: Type.Integer(),
  lastPush: Nullable(Timestamp),
  lastPull: Nullable(Timestamp),
  repoSizeBytes: Type.Number(),
  commitBlocker: Nullable(
    Type.Object({
      author: Type.Array(Type.String()),
      committer: Type.Array(Type.String()),
      since: Nullable(Type.String()),
    }),
  ),
  persistentStorage: Nullable(Type.Object({ filesystemId: Type.Integer(), status: Type.String() })),
});

export const Commit = Type.Object({
  id: Type.String(),
  shortId: Type.String(),
  title: Type.String(),
  message: Type.String(),
  authorName: Type.String(),
  authorEmail: Type.String(),
  committerName: Type.String(),
  committerEmail: Type.String(),
  createdAt: Timestamp,
  parentIds: Type.Array(Type.String()),
});

export const EmailCheckItem = Type.Object(
  {
    type: StringEnum(["author", "committer"] as const),
    domain: Type.String({ minLength: 1 }),
    since: Type.Optional(Nullable(Type.String())),
  },
  { additionalProperties: false, description: "item field names are not shown; assumed" },
);

export const Mirror = Type.Object({
  mirrorID: Type.String(),
  repoURLFrom: Type.String(),
  repoURLTo: Type.String(),
  refSpaceFrom: Type.String(),
  refSpaceTo: Type.String(),
  frequency: MirrorFrequency,
  excludeTags: Type.Boolean(),
  notificationEmails: Type.Array(Type.String()),
  status: MirrorStatus,
  enabled: Type.Boolean(),
  notes: Type.String(),
  statusCode: Nullable(Type.Integer()),
  created: Timestamp,
  lastRun: Nullable(Timestamp),
});

export const ArtifactRepo = Type.Object({
  id: Type.Integer(),
  name: Type.String({ description: "<org>-<project_id>-<name>" }),
  repoType: Type.String(),
  url: Type.String(),
  created: Timestamp,
});

export const ArtifactFileItem = Type.Object({
  uri: Type.String({ description: "relative to the repository path" }),
  folder: Type.Boolean(),
  status: Type.String(),
  size: Type.String(),
});

export const ArtifactFile = Type.Object({
  uri: Type.String(),
  created: Timestamp,
  lastModified: Timestamp,
  lastUpdated: Timestamp,
  size: Type.String(),
  mimeType: Type.String(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  checkSum: Nullable(Type.String()),
  status: Type.String(),
  status_note: Type.Array(Type.String()),
  downloadCount: Type.Integer(),
  lastDownloaded: Nullable(Timestamp),
});

export const License = Type.Object({
  name: Type.String({ description: "SPDX identifier" }),
  title: Type.String(),
  url: Type.String(),
});

export const Pipeline = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  ref: Type.String(),
  sha: Type.String(),
  createdAt: Timestamp,
  finishedAt: Nullable(Timestamp),
  duration: Type.Integer(),
  bundleId: Nullable(Type.Integer()),
});

export const PipelineJob = Type.Object({
  id: Type.Integer(),
  pipelineId: Type.Integer(),
  name: Type.String(),
  stage: Type.String(),
  status: Type.String(),
  duration: Type.Integer(),
  createdAt: Timestamp,
});

export const Bundle = Type.Object({
  id: Type.Integer(),
  projectSlug: Type.String(),
  repoId: Nullable(Type.Integer()),
  frequency: Type.String(),
  created: Timestamp,
});

export const ExternalArchive = Type.Object({
  id: Type.Integer(),
  repoGitURL: Type.String(),
  refSpace: Type.String(),
  format: Type.String(),
  archiveFilename: Type.String(),
  prefix: Type.String(),
  notification: Type.String(),
  status: Type.String(),
  created: Timestamp,
});

export const ArchivedProject = Type.Object({
  projectSlug: Type.String(),
  name: Type.String(),
  organization: Type.String(),
  archivedAt: Timestamp,
});

export const Wiki = Type.Object({
  projectSlug: Type.String(),
  spaceKey: Type.String(),
  url: Type.String(),
  created: Timestamp,
});

export const WikiToken = Type.Object({ token: Type.String(), expiresAt: Timestamp });

export const EntitlementQueueItem = Type.Object({
  id: Type.String(),
  action: Type.String(),
  username: Type.String(),
  service: Type.String(),
  status: StringEnum(["open", "completed", "failed"] as const),
  message: Nullable(Type.String()),
});
export const OrgTeamQueueItem = Type.Object({
  status: StringEnum(["open", "completed", "error"] as const),
  message: Nullable(Type.String()),
});
export const TransferQueueItem = Type.Object({
  id: Type.String(),
  action: Type.String(),
  username: Type.String(),
  org_id: Type.Integer(),
  status: StringEnum(["open", "completed", "failed"] as const),
  message: Nullable(Type.String()),
});
export const RenameQueueItem = Type.Object({
  id: Type.String(),
  action: Type.String(),
  old_name: Type.String(),
  new_name: Type.String(),
  status: StringEnum(["open", "inprogress", "completed", "failed"] as const),
  message: Nullable(Type.String()),
});

export const MetricCount = Type.Object({
  data: Type.Object({ organization: Type.String(), count: Type.Integer() }),
});

export const PipelineCounts = Type.Object({
  totalDuration: Type.Integer(),
  successful: Type.Integer(),
  failed: Type.Integer(),
  total: Type.Integer(),
});

export const DoraPoint = Type.Object({ date: Type.String(), value: Type.Number() });

// ---------------------------------------------------------------- request bodies

/**
 * The one e-mail rule of every body (single addresses and comma-separated lists alike): the
 * `email` format of ajv-formats (RFC 5321 dot-atom local part, a dotted host name), written
 * as a pattern so that any validator — the server's, the document's readers' — reads the
 * same rule.
 */
const EMAIL_ADDRESS =
  "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?";
export const EMAIL_PATTERN = `^${EMAIL_ADDRESS}$`;
export const EMAIL_LIST_PATTERN = `^\\s*${EMAIL_ADDRESS}\\s*(,\\s*${EMAIL_ADDRESS}\\s*)*$`;
const Email = Type.String({ pattern: EMAIL_PATTERN, description: "an e-mail address" });
const strict = { additionalProperties: false } as const;

export const CreateUserBody = Type.Object(
  {
    username: Type.Optional(Type.String({ pattern: "^[a-z0-9][a-z0-9._-]{0,62}$" })),
    firstName: Type.String({ minLength: 1 }),
    lastName: Type.String({ minLength: 1 }),
    displayName: Type.Optional(Type.String()),
    externalEmail: Email,
    organization: Type.Optional(Type.String({ minLength: 1 })),
    role: Type.Optional(UserRole),
  },
  strict,
);
export const ReplaceUserBody = Type.Object(
  {
    firstName: Type.String({ minLength: 1 }),
    lastName: Type.String({ minLength: 1 }),
    displayName: Type.Optional(Type.String()),
    status: Type.Optional(ActiveInactive),
    role: Type.Optional(UserRole),
  },
  strict,
);
export const PatchUserBody = Type.Partial(ReplaceUserBody, strict);
export const TransferUserBody = Type.Object({ org_id: Type.Integer() }, strict);

export const CreateTeamBody = Type.Object(
  {
    name: Type.String({
      pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$",
      maxLength: MAX_PATH_PARAM,
      description: "becomes the {teamname} path parameter, so at most 100 characters",
    }),
    parentOrganization: Type.Optional(Type.String()),
    gitservice: Type.Boolean(),
    artifactservice: Type.Boolean(),
    wiki: Type.Boolean(),
    userNames: Type.Array(Type.String()),
  },
  strict,
);
export const EnableTeamServiceBody = Type.Object(
  { parentOrganization: Type.String(), service: TeamServiceName },
  strict,
);
export const UpdateOrgTeamBody = Type.Object({ name: Type.String({ minLength: 1 }) }, strict);

export const StatusBody = Type.Object({ status: ActiveInactive }, strict);
export const FreeStatusBody = Type.Object({ status: Type.String({ minLength: 1 }) }, strict);
export const CreateGitAccountBody = Type.Object(
  {
    name: Type.Optional(Type.String()),
    personalProjectLimit: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  strict,
);
export const UpdateGitAccountBody = Type.Object(
  { status: ActiveInactive, personalProjectLimit: Type.Optional(Type.Integer({ minimum: 0 })) },
  strict,
);
export const CreateEmailAccountBody = Type.Object(
  {
    mailplan: Type.Optional(
      StringEnum(["retention", "non-retention"] as const, {
        default: "non-retention",
      }),
    ),
  },
  strict,
);
export const CreateIrcAccountBody = Type.Object(
  { displayName: Type.Optional(Type.String()) },
  strict,
);
export const EmptyBody = Type.Object({}, strict);

export const CreateProjectBody = Type.Object(
  {
    name: Type.String({ minLength: 1 }),
    description: Type.String(),
    projectSlug: Type.Optional(Type.String({ pattern: "^[a-z0-9][a-z0-9-]{0,62}$" })),
    eccn: Type.Optional(Type.String()),
    visibility: Type.Optional(Visibility),
    externalContribution: Type.Optional(Type.Boolean()),
    organization: Type.Optional(Type.String({ minLength: 1 })),
  },
  strict,
);
export const UpdateProjectBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1 })),
    description: Type.Optional(Type.String()),
    restrictionLevel: Type.Optional(Type.String()),
    externalContribution: Type.Optional(Type.Boolean()),
  },
  strict,
);

export const CreateGroupBody = Type.Object(
  {
    path: Type.Optional(Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$" })),
    request_access_enabled: Type.Optional(Type.Boolean()),
    enable_ci: Type.Optional(Type.Boolean()),
  },
  strict,
);
export const UpdateGroupBody = Type.Object(
  {
    request_access_enabled: Type.Optional(Type.Boolean()),
    enable_ci: Type.Optional(Type.Boolean()),
  },
  strict,
);
export const CreateSubgroupsBody = Type.Object(
  {
    subGroups: Type.String({
      pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)*$",
      description: "slash-separated path such as a/b/c, created recursively",
    }),
  },
  strict,
);
export const UpdateSubgroupBody = Type.Object({ request_access_enabled: Type.Boolean() }, strict);

const repoSettings = {
  issueTracking: Type.Optional(Tristate),
  mergeRequests: Type.Optional(Tristate),
  requiresDCO: Type.Optional(Type.Boolean()),
  enableLFS: Type.Optional(Type.Boolean()),
  enableForking: Type.Optional(Type.Boolean()),
};
export const CreateRepoBody = Type.Object(
  {
    name: Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$" }),
    repoSlug: Type.Optional(Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$" })),
    repoPathNew: Type.Optional(Nullable(Type.String())),
    ...repoSettings,
  },
  strict,
);
export const UpdateRepoBody = Type.Object(
  {
    name: Type.Optional(Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$" })),
    status: Type.Optional(RepoStatus),
    ...repoSettings,
  },
  strict,
);
export const EmailCheckBody = Type.Object(
  { emailCheck: Type.Array(EmailCheckItem, { minItems: 1 }) },
  strict,
);
export const CommitsBody = Type.Object({ shas: Type.Array(Type.Array(Type.String())) }, strict);
export const ForkBody = Type.Object(
  {
    repoPathFrom: Type.String({ minLength: 1 }),
    repoPathNew: Type.Optional(Nullable(Type.String())),
    name: Type.Optional(Type.String({ pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$" })),
  },
  strict,
);
export const ExternalArchiveBody = Type.Object(
  {
    repoGitURL: Type.String({ minLength: 1 }),
    refSpace: Type.String({ minLength: 1 }),
    format: Type.Literal("tar"),
    archiveFilename: Type.String({ minLength: 1 }),
    prefix: Type.String(),
    notification: Email,
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  strict,
);

export const CreateMirrorBody = Type.Object(
  {
    repoURLFrom: Type.String({ minLength: 1 }),
    repoURLTo: Type.String({ minLength: 1 }),
    refSpaceFrom: Type.String({ minLength: 1 }),
    refSpaceTo: Type.String({ minLength: 1 }),
    frequency: MirrorFrequency,
    excludeTags: Type.Optional(Type.Boolean()),
    notificationEmails: Type.Optional(Type.Array(Email)),
  },
  strict,
);
export const UpdateMirrorBody = Type.Object(
  {
    frequency: Type.Optional(MirrorFrequency),
    status: Type.Optional(StringEnum(["pending", "inactive"] as const)),
    excludeTags: Type.Optional(Type.Boolean()),
  },
  strict,
);
export const SelectedMirrorsBody = Type.Object(
  { mirrorIds: Type.Array(Type.Integer(), { minItems: 1 }), notes: Type.String({ minLength: 1 }) },
  strict,
);
export const AllMirrorsBody = Type.Object({ notes: Type.String({ minLength: 1 }) }, strict);

export const CreateArtifactRepoBody = Type.Object(
  {
    name: Type.Optional(Type.String({ pattern: "^[a-z0-9][a-z0-9._-]*$" })),
    repoType: Type.Optional(ArtifactRepoType),
  },
  strict,
);
/**
 * Metadata of an artifact upload or update. The spec names only the optional boolean
 * `legacy` ("the other metadata attributes are not required"); the other attributes are not
 * shown, so any other key is accepted and stored as given.
 */
export const ArtifactMetadata = Type.Object(
  { legacy: Type.Optional(Type.Boolean()) },
  { additionalProperties: true, description: "legacy (boolean) plus any attributes (not shown)" },
);
export const UploadArtifactBody = Type.Object(
  {
    sourceFilePath: Type.String({ minLength: 1 }),
    destinationFilePath: Type.String({ minLength: 1 }),
    metadata: Type.Optional(ArtifactMetadata),
    checkSum: Type.Optional(
      Type.String({ pattern: "^([0-9a-fA-F]{32}|[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$" }),
    ),
    notification_email: Type.Optional(
      Type.String({
        pattern: EMAIL_LIST_PATTERN,
        description: "one e-mail address or several separated by commas",
      }),
    ),
  },
  strict,
);
export const UpdateArtifactFileBody = Type.Object(
  {
    metadata: Type.Optional(ArtifactMetadata),
    status: ActiveInactive,
  },
  strict,
);
export const PatchArtifactFileBody = Type.Partial(UpdateArtifactFileBody, strict);

export const PersistentStorageBody = Type.Object(
  { status: Type.String({ minLength: 1 }), repoID: Type.Integer() },
  strict,
);
export const BundleBody = Type.Object({ frequency: Type.String({ minLength: 1 }) }, strict);
export const RestoreBody = Type.Object({ oldproject: Type.String({ minLength: 1 }) }, strict);
export const CreateOrganizationBody = Type.Object(
  { organization: Type.String({ pattern: "^[a-z0-9][a-z0-9-]{0,62}$" }) },
  strict,
);
export const RenameOrganizationBody = Type.Object(
  { new_name: Type.String({ pattern: "^[a-z0-9][a-z0-9-]{0,62}$" }) },
  strict,
);

// ---------------------------------------------------------------- shared query parts

const DAY = "\\d{4}-\\d{2}-\\d{2}";
const HH_MM = "([01]\\d|2[0-3]):[0-5]\\d";
const INSTANT = `${DAY}T${HH_MM}:[0-5]\\d(\\.\\d+)?(Z|[+-]${HH_MM})`;
/** A date filter's date: the whole day. */
export const DateOnly = Type.String({ format: "date", description: "yyyy-MM-dd" });
/** A date filter's instant: RFC 3339 with seconds, upper-case T, Z or ±hh:mm (no leap second). */
export const DateTime = Type.String({
  format: "date-time",
  pattern: `^${INSTANT}$`,
  description: "RFC 3339 date-time, e.g. 2026-01-31T12:00:00Z",
});
/** Strict date filters: exactly yyyy-MM-dd (the whole day) or an RFC 3339 date-time. */
export const DateFilter = Type.Union([DateOnly, DateTime]);
/** A date filter that also takes an inclusive range `A TO B` of dates or date-times. */
export const DateRangeFilter = Type.Union([
  DateOnly,
  DateTime,
  Type.String({
    pattern: `^(${DAY}|${INSTANT}) TO (${DAY}|${INSTANT})$`,
    description: "an inclusive range A TO B of dates or date-times",
  }),
]);
/** A comma-separated list of values of an enumeration (`status=pending,failed`). */
export function EnumList(values: readonly string[]) {
  const one = `(${values.join("|")})`;
  return Type.String({
    pattern: `^${one}(,${one})*$`,
    description: `one or several of ${values.join(", ")}, separated by commas`,
  });
}

/**
 * Largest value of an integer query parameter: the largest 32-bit integer, what a client's
 * `int` holds. A page number up to it times the largest page size is still an exact
 * integer (an offset), and the answer's `pagination.page` stays one.
 */
export const QUERY_INT_MAX = 2_147_483_647;

/**
 * An integer query parameter: decimal digits (a `-` before them where negatives are in
 * range) within `minimum`..`maximum`; anything else is 400 naming the parameter, with
 * these bounds (src/server/validation.ts).
 */
export function QueryInt(minimum: number, maximum = QUERY_INT_MAX, description?: string) {
  return Type.Integer({ minimum, maximum, ...(description ? { description } : {}) });
}

export const PageQuery = {
  page: Type.Optional(QueryInt(1)),
  limit: Type.Optional(QueryInt(1)),
};
export const AllQuery = { ...PageQuery, all: Type.Optional(Type.Boolean()) };
export const ParentOrgQuery = { parentOrganization: Type.Optional(Type.String()) };
