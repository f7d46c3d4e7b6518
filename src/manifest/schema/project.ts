/** Schema of `kind: Project` documents: the project, its access, git and artifact repositories. */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import {
  AccessLevels,
  ArtifactRepoTypes,
  MirrorFrequency,
  ProjectStatus,
  RepoStatus,
  TeamLevels,
  Tristate,
  Visibility,
  type AccessLevel,
} from "../../api/schemas.js";
import {
  BundleFrequencies,
  COMMON_LICENSES,
  DEFAULTS,
  DocumentSchema,
  Email,
  enumFrom,
  Metadata,
  OrganizationName,
  Patterns,
  StringEnum,
  Strict,
  Username,
} from "./common.js";

const R = DEFAULTS.repository;
const bool = (dflt: boolean, description?: string) =>
  Type.Optional(Type.Boolean({ default: dflt, ...(description ? { description } : {}) }));

const OrganizationTeamPath = Type.String({
  pattern: Patterns.organizationTeamPath,
  patternErrorMessage: "must be an organization team path such as acme/firmware-leads",
});

const ORG_TEAM_LEVELS = "organization teams can only be maintainers, developers or reporters";

function accessLevel(level: AccessLevel): TSchema {
  const withTeams = (TeamLevels as readonly string[]).includes(level);
  const users = Type.Optional(Type.Array(Username, { description: "usernames" }));
  const organizationTeams = withTeams
    ? Type.Optional(Type.Array(OrganizationTeamPath, { description: "organization team paths" }))
    : Type.Optional(
        Type.Unsafe<never>({
          not: {},
          errorMessage: `is not allowed here: ${ORG_TEAM_LEVELS}`,
          doNotSuggest: true,
        }),
      );
  return Type.Optional(
    Type.Union([Type.Array(Username), Strict({ users, organizationTeams })], {
      description: `${level}: a list of usernames, or { users${withTeams ? ", organizationTeams" : ""} }`,
      errorMessage: `must be a list of usernames or a mapping with users${
        withTeams ? " and organizationTeams" : ""
      }`,
    }),
  );
}

export const AccessSpec = Strict(
  Object.fromEntries(AccessLevels.map((l) => [l, accessLevel(l)])) as Record<AccessLevel, TSchema>,
  { description: "authoritative: users and teams not listed are removed" },
);

/** Access as a user may write it: a list of usernames or {users, organizationTeams}. */
export type AccessLevelInput = string[] | { users?: string[]; organizationTeams?: string[] };

const SubgroupPath = Type.String({
  pattern: Patterns.subgroupPath,
  patternErrorMessage: "must be a subgroup path such as docs or tools/ci",
});

const Domain = Type.String({ format: "hostname", description: "e-mail domain" });

export const CommitBlockerSpec = Strict(
  {
    author: Type.Optional(Type.Array(Domain, { description: "allowed author e-mail domains" })),
    committer: Type.Optional(
      Type.Array(Domain, { description: "allowed committer e-mail domains" }),
    ),
    since: Type.Optional(
      Type.Unsafe<string | null>({
        type: ["string", "null"],
        pattern: Patterns.isoDate,
        patternErrorMessage: "must be an ISO 8601 date or date-time, or null (all time)",
      }),
    ),
  },
  { description: "reject pushes with commits from other e-mail domains" },
);

export const RepositorySpec = Strict({
  name: Type.String({
    pattern: Patterns.repository,
    patternErrorMessage: "must be a repository name: letters, digits, '.', '_', '-'",
  }),
  subgroup: Type.Optional(
    Type.String({
      pattern: `^$|${Patterns.subgroupPath}`,
      patternErrorMessage: 'must be "" (the project group) or a subgroup path such as tools/ci',
      default: R.subgroup,
    }),
  ),
  issueTracking: Type.Optional(enumFrom(Tristate, { default: R.issueTracking })),
  mergeRequests: Type.Optional(enumFrom(Tristate, { default: R.mergeRequests })),
  requiresDCO: bool(R.requiresDCO),
  enableLFS: bool(R.enableLFS),
  enableForking: bool(R.enableForking),
  status: Type.Optional(enumFrom(RepoStatus, { default: R.status })),
  forkFrom: Type.Optional(
    Type.String({
      pattern: Patterns.cloneUrl,
      patternErrorMessage: "must be a clone URL (https://… or ssh://…)",
      description: "create the repository as a fork of this one",
    }),
  ),
  commitBlocker: Type.Optional(CommitBlockerSpec),
  persistentStorage: bool(R.persistentStorage, "persistent CI storage"),
  bundle: Type.Optional(Strict({ frequency: StringEnum(BundleFrequencies) })),
});

export const MirrorSpec = Strict({
  from: Type.String({
    pattern: Patterns.cloneUrl,
    patternErrorMessage: "must be a clone URL (https://… or ssh://…)",
  }),
  to: Type.String({
    pattern: Patterns.sshUrl,
    patternErrorMessage: "must be an ssh URL such as ssh://git@git.example.org/acme/group/repo.git",
    description: "destination; identifies the mirror",
  }),
  refSpaceFrom: Type.String({ minLength: 1, examples: ["refs/heads/*"] }),
  refSpaceTo: Type.String({ minLength: 1, examples: ["refs/heads/*"] }),
  frequency: enumFrom(MirrorFrequency),
  excludeTags: bool(DEFAULTS.mirror.excludeTags),
  enabled: bool(DEFAULTS.mirror.enabled),
  notificationEmails: Type.Optional(Type.Array(Email)),
});

export const GitSpec = Strict({
  group: Type.Optional(
    Strict({
      path: Type.Optional(
        Type.String({
          pattern: Patterns.groupPath,
          patternErrorMessage: "must be a group path: letters, digits, '.', '_', '-'",
          description: "default: the project slug",
        }),
      ),
      requestAccessEnabled: bool(DEFAULTS.group.requestAccessEnabled),
      enableCi: bool(DEFAULTS.group.enableCi),
    }),
  ),
  subgroups: Type.Optional(Type.Array(SubgroupPath, { description: "parents are implied" })),
  repositories: Type.Optional(Type.Array(RepositorySpec)),
  mirrors: Type.Optional(Type.Array(MirrorSpec)),
});

export const ArtifactRepositorySpec = Strict({
  name: Type.Optional(
    Type.String({
      pattern: Patterns.artifactRepository,
      patternErrorMessage: "must be lower-case letters, digits, '.', '_', '-'",
      description: "default: the project slug; the live name is <org>-<projectId>-<name>",
    }),
  ),
  type: Type.Optional(
    StringEnum(ArtifactRepoTypes, {
      default: DEFAULTS.artifactRepository.type,
      description: "immutable",
    }),
  ),
});

const P = DEFAULTS.project;
export const ProjectSpec = Strict({
  title: Type.String({ minLength: 1, description: "the API's name" }),
  description: Type.Optional(Type.String({ default: P.description })),
  organization: Type.Optional(
    Type.String({ ...OrganizationName, description: "default: phctl.yaml's organization" }),
  ),
  visibility: Type.Optional(
    enumFrom(Visibility, { default: P.visibility, description: "changed only by ticket" }),
  ),
  status: Type.Optional(enumFrom(ProjectStatus, { default: P.status })),
  externalContribution: bool(P.externalContribution),
  restrictionLevel: Type.Optional(Type.String({ minLength: 1, examples: ["read-only"] })),
  eccn: Type.Optional(Type.String({ description: "export-compliance classification" })),
  licenses: Type.Optional(
    Type.Array(
      Type.String({
        pattern: Patterns.license,
        patternErrorMessage: "must be one SPDX license id such as Apache-2.0 (no expressions)",
        examples: [...COMMON_LICENSES],
      }),
      { description: "SPDX ids; each must exist in GET /v1/licenses" },
    ),
  ),
  access: Type.Optional(AccessSpec),
  git: Type.Optional(GitSpec),
  artifacts: Type.Optional(
    Strict({ repositories: Type.Optional(Type.Array(ArtifactRepositorySpec)) }),
  ),
});

export const ProjectDocument = DocumentSchema(
  "Project",
  Metadata(
    Type.String({
      pattern: Patterns.projectSlug,
      patternErrorMessage: "must be a project slug: lower-case letters, digits, '-' (at most 63)",
    }),
    "project slug; immutable",
  ),
  ProjectSpec,
  "a project, its access levels, git group, repositories, mirrors and artifact repositories",
);
/** A Project document as written; `access` levels are typed by AccessLevelInput. */
export type ProjectDocument = Omit<Static<typeof ProjectDocument>, "spec"> & {
  spec: Omit<Static<typeof ProjectSpec>, "access"> & {
    access?: Partial<Record<AccessLevel, AccessLevelInput>>;
  };
};
