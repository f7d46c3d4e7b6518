/**
 * ProjectTeamAccess (`project/<slug>/access/<level>/team/<path>`): an organization team (by
 * its `path`) on the maintainers, developers or reporters of a project; identity only. The
 * lists are authoritative under the project. Assigning and removing are both queued on the
 * organization-team queue (the answer is an array of one accepted job): apply waits for the
 * job. Organization teams cannot be created through the API, so assigning one that does not
 * exist is blocked.
 *
 * Reads: no call of its own (`roles.organizationTeams` of the project detail the Project kind
 * reads, once per declared project that exists live).
 */
import type { ApiClient } from "../api/client.js";
import { createOrFind } from "../api/create-or-find.js";
import { TeamLevels, type TeamLevel } from "../api/schemas.js";
import { accessTeamKey, projectKey } from "../manifest/keys.js";
import { defineKind } from "./kind.js";
import {
  blockedCreate,
  desiredMembers,
  fetchProject,
  field,
  goneOk,
  levelIn,
  liveMembers,
  parentProjectKey,
  settle,
  type LevelMembers,
} from "./project-shared.js";

export type TeamAccessFields = {
  project: string;
  level: TeamLevel;
  team: string;
};

/** The organization teams of each level: identity fields and keys; the project comes first. */
const TEAMS: LevelMembers<TeamLevel, TeamAccessFields> = {
  levels: TeamLevels,
  key: accessTeamKey,
  fields: (project, level, team) => ({ project, level, team }),
  declared: (p, level) => p.access[level].organizationTeams,
  live: (p, level) => p.roles.organizationTeams[level],
  dependsOn: (_state, slug) => [projectKey(slug)],
};

/** Is the team on that level of the project, read fresh (re-read a few times: jobs settle)? */
const assigned = (api: ApiClient, slug: string, level: TeamLevel, team: string, want: boolean) =>
  settle(async () => {
    const p = await fetchProject(api, slug);
    const has = p?.roles.organizationTeams[level].includes(team) ?? false;
    return has === want ? true : undefined;
  });

export const projectTeamAccessKind = defineKind<TeamAccessFields>({
  kind: "ProjectTeamAccess",
  ownership: { mode: "authoritative", parentKey: parentProjectKey },
  immutable: {},
  destructiveDelete: true,
  desired: (state) => desiredMembers(TEAMS, state),
  read: (ctx, state) => liveMembers(TEAMS, ctx, state),
  check: (d, l, ctx) =>
    l || ctx.orgTeams.has(d.fields.team)
      ? undefined
      : blockedCreate(
          "ProjectTeamAccess",
          d,
          "team",
          `organization team ${d.fields.team} does not exist: organization teams cannot be created through the API`,
        ),
  create: async (api, entry) => {
    const projectSlug = field(entry.after, "project");
    const level = levelIn(TeamLevels, field(entry.after, "level"), "team access level");
    const team = field(entry.after, "team");
    await createOrFind(
      async () => {
        await api.callAndWait("access.addOrgTeam", {
          params: { projectSlug, level, orgPathId: team },
        });
        return true;
      },
      () => assigned(api, projectSlug, level, team, true),
    );
  },
  delete: async (api, _entry, live) => {
    const { project, level, team } = live.fields;
    // The removal is queued, so not idempotent: an ambiguous failure re-reads before resending.
    await goneOk(() =>
      createOrFind(
        async () => {
          await api.callAndWait("access.removeOrgTeam", {
            params: { projectSlug: project, level, orgPathId: team },
          });
          return true;
        },
        () => assigned(api, project, level, team, false),
      ),
    );
  },
});
