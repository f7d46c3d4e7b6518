/** Schema of `kind: Project` documents: the project, its access, git and artifact repositories. */
import { Type, type Static } from "@sinclair/typebox";
import {
  ArtifactRepoTypes,
  ProjectStatus,
  Visibility,
  type AccessLevel,
} from "../../api/schemas.js";
import { AccessSpec, type AccessLevelInput } from "./access.js";
import {
  about,
  COMMON_LICENSES,
  DEFAULTS,
  enumFrom,
  oneOfMessage,
  OrganizationName,
  Patterns,
  StringEnum,
  Strict,
} from "./common.js";
import { DocumentSchema, Metadata } from "./document.js";
import { inherit, orRemove } from "./layering.js";
import { OwnersSchema } from "./owners.js";
import { GitSpec } from "./git.js";

export { AccessSpec, type AccessLevelInput } from "./access.js";
export { CommitBlockerSpec, GitSpec, MirrorSpec, RepositorySpec } from "./git.js";

export const ArtifactRepositorySpec = Strict(
  {
    name: Type.Optional(
      Type.String({
        pattern: Patterns.artifactRepository,
        patternErrorMessage: "must be lower-case letters, digits, '.', '_', '-'",
        ...about(
          "Repository name (default: the project slug); the service names it <org>-<projectId>-<name>.",
          "releases",
        ),
      }),
    ),
    type: Type.Optional(
      StringEnum(ArtifactRepoTypes, {
        ...oneOfMessage(ArtifactRepoTypes),
        default: DEFAULTS.artifactRepository.type,
        ...about(
          "Package format (docker, maven, npm, pypi, generic, …); fixed at creation (a change is blocked).",
          "docker",
        ),
      }),
    ),
  },
  about("An artifact repository of the project.", { name: "images", type: "docker" }),
);

const P = DEFAULTS.project;
export const ProjectSpec = Strict(
  {
    title: Type.String({
      minLength: 1,
      ...about(
        "The project's name as the service shows it (the API's name).",
        "Trusted Firmware-A",
      ),
    }),
    description: Type.Optional(
      Type.String({
        default: P.description,
        ...about("What the project is, in a line.", "Reference secure-world software"),
      }),
    ),
    organization: Type.Optional(
      Type.String({
        ...OrganizationName,
        ...about(
          "Organization of the project (default: phctl.yaml's organization): set at creation; moving a project needs a support ticket.",
          "acme-partner",
        ),
      }),
    ),
    visibility: Type.Optional(
      enumFrom(Visibility, {
        default: P.visibility,
        ...about(
          "public or private (its git group goes under /private/); set at creation: changing it needs a support ticket, which the plan writes.",
          "private",
        ),
      }),
    ),
    status: Type.Optional(
      enumFrom(ProjectStatus, {
        default: P.status,
        ...about(
          "active, inactive or archived: archived asks the service to archive the project, active again restores it; inactive cannot be reached or left through the API (blocked).",
          "archived",
        ),
      }),
    ),
    externalContribution: Type.Optional(
      Type.Boolean({
        default: P.externalContribution,
        ...about(
          "Open the project to external contributions; only where the organization allows them.",
          true,
        ),
      }),
    ),
    restrictionLevel: Type.Optional(
      Type.String({
        minLength: 1,
        ...about(
          "Restriction level as the service records it; not managed when absent.",
          "read-only",
        ),
      }),
    ),
    eccn: Type.Optional(
      Type.String({
        ...about(
          "Export control classification number, collected mainly for private projects; set at creation: a change needs a support ticket.",
          "EAR99",
        ),
      }),
    ),
    licenses: Type.Optional(
      Type.Array(
        orRemove(
          Type.String({
            pattern: Patterns.license,
            patternErrorMessage: "must be one SPDX license id such as Apache-2.0 (no expressions)",
            examples: [...COMMON_LICENSES],
            examplesAreHints: true,
          }),
          "SPDX id",
          "MIT",
        ),
        about(
          "SPDX ids of the project's licenses, each in the service's catalogue (GET /v1/licenses; a new one needs a support ticket). Authoritative: licenses not listed are removed.",
          ["Apache-2.0"],
          ["BSD-3-Clause", "MIT"],
        ),
      ),
    ),
    access: Type.Optional(AccessSpec),
    git: Type.Optional(GitSpec),
    inherit: inherit("the project (its access, git side and repositories included)"),
    artifacts: Type.Optional(
      Strict(
        {
          repositories: Type.Optional(
            Type.Array(
              orRemove(ArtifactRepositorySpec, "name", "releases"),
              about("The project's artifact repositories.", [{ name: "releases" }]),
            ),
          ),
        },
        about(
          "The project's artifact repositories. Ones no manifest declares are deleted only with prune.artifactRepositories.",
          { repositories: [{ name: "releases" }, { name: "images", type: "docker" }] },
        ),
      ),
    ),
  },
  about("The project, its access, git side and artifact repositories.", {
    title: "CI tools",
    access: { admins: ["jdoe"] },
    git: { repositories: [{ name: "pipelines" }] },
  }),
);

export const ProjectDocument = DocumentSchema(
  "Project",
  Metadata(
    Type.String({
      pattern: Patterns.projectSlug,
      patternErrorMessage: "must be a project slug: lower-case letters, digits, '-' (at most 63)",
    }),
    "The project slug; fixed at creation.",
    "trusted-firmware-a",
    {
      owners: Type.Optional(
        OwnersSchema(
          "Who must approve changes to the project's manifest (CODEOWNERS, the pull-request plan); default: its admins.",
        ),
      ),
    },
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
