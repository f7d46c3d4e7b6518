/**
 * Team: a user team, declared by name (`team/<name>`). Managed fields: the three service
 * categorization flags `gitservice`, `artifactservice`, `wiki`. The API can enable a flag
 * (POST /v1/teams/{teamname}/services) but has no operation to disable one, so true → false
 * is `blocked` with that reason, while false → true is an update. Teams no manifest declares
 * are listed as not managed. A team is created without members: its memberships are
 * TeamMember objects of their own (each added after the team and its user exist).
 *
 * Reads: the team list (no `all` on this route: 1 call per 100 teams, the server's largest
 * page), shared with TeamMember.
 */
import type { ApiClient } from "../api/client.js";
import { createOrFind } from "../api/create-or-find.js";
import { PhctlError } from "../errors.js";
import { diffObject } from "../engine/diff.js";
import type { FieldChange, PlanEntry } from "../engine/plan.js";
import { orAbsent } from "../engine/read-context.js";
import { readTeams, type LiveTeam } from "../engine/readers.js";
import { teamKey } from "../manifest/keys.js";
import type { TeamState } from "../manifest/types.js";
import { defineKind, type ResourceKind } from "./kind.js";

export const TEAM_FLAGS = ["gitservice", "artifactservice", "wiki"] as const;
export type TeamFlag = (typeof TEAM_FLAGS)[number];

export interface TeamFields {
  gitservice: boolean;
  artifactservice: boolean;
  wiki: boolean;
  [k: string]: unknown;
}

export const disableReason = (flag: string) =>
  `${flag} cannot be disabled: the API can enable a team's service flag but has no operation to disable it`;

export const desiredTeamFields = (t: TeamState): TeamFields => ({ ...t.services });

export const liveTeamFields = (t: LiveTeam): TeamFields => ({
  gitservice: t.services.gitservice,
  artifactservice: t.services.artifactservice,
  wiki: t.services.wiki,
});

/**
 * The token's parent organization (the organization list's one without a parent), which team
 * operations name in their query or body. Read once per client.
 */
export function parentOrganizationOf(api: ApiClient): Promise<string> {
  return api.memo("parentOrganization", async () => {
    const orgs = await api.call("organizations.list");
    const parent = orgs.find((o) => o.parentOrganization === null);
    if (!parent) {
      throw new PhctlError(
        "NO_PARENT_ORGANIZATION",
        "the organization list names no parent organization for this token",
      );
    }
    return parent.name;
  });
}

const teamnameOf = (key: string) => key.slice("team/".length).split("/")[0];

/** Split an update of the flags: false → true is an update, true → false is blocked. */
export function splitFlagChanges(update: PlanEntry): PlanEntry[] {
  const enable = update.changes.filter((c) => c.after === true);
  const disable = update.changes.filter((c) => c.after === false);
  const pick = (cs: FieldChange[], side: "before" | "after") =>
    Object.fromEntries(cs.map((c) => [c.field, c[side]]));
  const out: PlanEntry[] = [];
  if (enable.length > 0) {
    out.push({
      ...update,
      before: pick(enable, "before"),
      after: pick(enable, "after"),
      changes: enable,
      reason: `${enable.map((c) => c.field).join(", ")} to be enabled`,
    });
  }
  for (const c of disable) {
    const reason = disableReason(c.field);
    out.push({
      ...update,
      action: "blocked",
      before: { [c.field]: c.before },
      after: { [c.field]: c.after },
      changes: [c],
      reason,
      dependsOn: [],
      blocked: { field: c.field, reason },
    });
  }
  return out;
}

const base = defineKind<TeamFields>({
  kind: "Team",
  ownership: { mode: "unmanaged" },
  immutable: {},
  destructiveDelete: true,
  desired: (state) =>
    state.teams.map((t) => ({
      key: t.key,
      fields: desiredTeamFields(t),
      source: t.source,
      dependsOn: [],
      protect: t.protect,
    })),
  read: async (ctx) =>
    (await readTeams(ctx)).map((t) => ({
      key: teamKey(t.name),
      fields: liveTeamFields(t),
      ids: { parentOrganization: t.parentOrganization },
    })),
  create: async (api, entry) => {
    const name = teamnameOf(entry.key);
    const after = (entry.after ?? {}) as Partial<TeamFields>;
    const parentOrganization = await parentOrganizationOf(api);
    await createOrFind(
      async () =>
        (
          await api.call("teams.create", {
            body: {
              name,
              parentOrganization,
              gitservice: after.gitservice === true,
              artifactservice: after.artifactservice === true,
              wiki: after.wiki === true,
              // Members are TeamMember objects, added once the team and each user exist.
              userNames: [],
            },
          })
        ).data.name,
      async () =>
        (await orAbsent(
          api.call("teams.get", { params: { teamname: name }, query: { parentOrganization } }),
        ))
          ? name
          : undefined,
    );
  },
  update: async (api, entry, live) => {
    const teamname = teamnameOf(entry.key);
    const parentOrganization = String(live.ids.parentOrganization);
    for (const c of entry.changes) {
      if (c.after !== true) continue; // never planned: disabling is blocked
      await api.call("teams.enableService", {
        params: { teamname },
        body: { parentOrganization, service: c.field as TeamFlag },
      });
    }
  },
});

/** The kind: the generic diff, with flag disables turned into blocked entries. */
export const teamKind: ResourceKind = {
  ...base,
  check: (d, l, ctx) => {
    if (!l) return undefined;
    return diffObject(base, d, l, ctx).flatMap((e) =>
      e.action === "update" ? splitFlagChanges(e) : [e],
    );
  },
};
