/**
 * THE table of resource kinds, in dependency order (terraform-provider-github's provider.go
 * habit: one literal list). Adding a kind touches its file, its tests and this table.
 */
import type { ResourceKind } from "./kind.js";
import { organizationKind } from "./organization.js";
import { userKind } from "./user.js";
import { userServiceKind } from "./user-service.js";
import { welcomeKind } from "./welcome.js";
import { teamKind } from "./team.js";
import { teamMemberKind } from "./team-member.js";
import { projectKind } from "./project.js";
import { projectLicenseKind } from "./project-license.js";
import { projectAccessKind } from "./project-access.js";
import { projectTeamAccessKind } from "./project-team-access.js";
import { gitGroupKind } from "./git-group.js";
import { subgroupKind } from "./subgroup.js";
import { repositoryKind } from "./repository.js";
import { mirrorKind } from "./mirror.js";
import { artifactRepoKind } from "./artifact-repo.js";

export const kinds: readonly ResourceKind[] = [
  organizationKind,
  userKind,
  userServiceKind,
  welcomeKind,
  teamKind,
  teamMemberKind,
  projectKind,
  projectLicenseKind,
  projectAccessKind,
  projectTeamAccessKind,
  gitGroupKind,
  subgroupKind,
  repositoryKind,
  mirrorKind,
  artifactRepoKind,
];

export function kindByName(name: string): ResourceKind | undefined {
  return kinds.find((k) => k.kind === name);
}
