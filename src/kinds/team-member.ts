/**
 * TeamMember: one user's membership of a declared team (`team/<name>/member/<username>`).
 * No fields beyond its identity. A declared team's member list is authoritative: a live
 * member it does not list is removed (destructive: it revokes access). Added after the team
 * and, when declared, the user exist.
 *
 * Reads: no call of its own — the members come with the team list Team reads (shared).
 */
import { createOrFind } from "../api/create-or-find.js";
import { ApiError } from "../api/errors.js";
import { orAbsent } from "../engine/read-context.js";
import { readTeams } from "../engine/readers.js";
import { teamKey, teamMemberKey, userKey } from "../manifest/keys.js";
import { defineKind } from "./kind.js";
import { parentOrganizationOf } from "./team.js";

export type TeamMemberFields = Record<string, unknown>;

/** `team/<name>/member/<username>` → its parts. */
export function parseMemberKey(key: string): { team: string; username: string } {
  const m = /^team\/([^/]+)\/member\/([^/]+)$/.exec(key);
  if (!m) throw new Error(`not a team member key: ${key}`);
  return { team: m[1], username: m[2] };
}

export const teamMemberKind = defineKind<TeamMemberFields>({
  kind: "TeamMember",
  ownership: { mode: "authoritative", parentKey: (key) => teamKey(parseMemberKey(key).team) },
  immutable: {},
  destructiveDelete: true,
  desired: (state) => {
    const declaredUsers = new Set(state.users.map((u) => u.username));
    return state.teams.flatMap((t) =>
      t.members.map((username) => {
        const key = teamMemberKey(t.name, username);
        return {
          key,
          fields: {},
          source: state.sources.get(key) ?? t.source,
          dependsOn: [t.key, ...(declaredUsers.has(username) ? [userKey(username)] : [])],
          protect: t.protect,
        };
      }),
    );
  },
  read: async (ctx, state) => {
    if (state.teams.length === 0) return [];
    const declared = new Set(state.teams.map((t) => t.name));
    return (await readTeams(ctx))
      .filter((t) => declared.has(t.name))
      .flatMap((t) =>
        t.userNames.map((username) => ({
          key: teamMemberKey(t.name, username),
          fields: {},
          ids: { parentOrganization: t.parentOrganization },
        })),
      );
  },
  create: async (api, entry) => {
    const { team, username } = parseMemberKey(entry.key);
    const parentOrganization = await parentOrganizationOf(api);
    const args = { params: { teamname: team, username }, query: { parentOrganization } };
    await createOrFind(
      async () => {
        await api.call("teams.addUser", args);
        return true;
      },
      async () => {
        const t = await orAbsent(
          api.call("teams.get", { params: { teamname: team }, query: { parentOrganization } }),
        );
        return t?.userNames.includes(username) ? true : undefined;
      },
    );
  },
  delete: async (api, entry, live) => {
    const { team, username } = parseMemberKey(entry.key);
    const parentOrganization = String(live.ids.parentOrganization);
    try {
      await api.call("teams.removeUser", {
        params: { teamname: team, username },
        query: { parentOrganization },
      });
    } catch (e) {
      // Already gone (a retried DELETE whose first attempt landed): the goal is met.
      if (e instanceof ApiError && e.status === 404) return;
      throw e;
    }
  },
});
