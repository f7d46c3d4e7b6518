/**
 * Make the mutations of mutations.ts live, through the API as a person would (and, for what
 * only the support desk can change, in the server's database).
 */
import type { ApiClient } from "../../src/api/client.js";
import type { AccessLevel } from "../../src/api/schemas.js";
import type { TestServer } from "../helpers/server.js";
import { MIRROR_TO, type Mutation } from "./mutations.js";

const QUEUED: ReadonlySet<AccessLevel> = new Set(["developers", "maintainers", "reporters"]);
const parentOrganization = "acme";

async function repoId(api: ApiClient, slug: string, path: string): Promise<number | undefined> {
  const repos = await api.listAll("git.repos.list", { params: { projectSlug: slug } });
  return repos.find((r) => (r.subgroups ? `${r.subgroups}/${r.name}` : r.name) === path)?.gitRepoID;
}

const TFA_MIRROR = "ssh://git@git.example.org/acme/tf-a/trusted-firmware-a.git";

async function tfaMirror(api: ApiClient): Promise<number | undefined> {
  const all = await api.listAll("mirrors.list", { params: { projectSlug: "trusted-firmware-a" } });
  const m = all.find((x) => x.repoURLTo === TFA_MIRROR);
  return m ? Number(m.mirrorID) : undefined;
}

/**
 * Make one mutation live; one that cannot be made now (already so, or gone) is skipped.
 * `t`: the server, for what only the support desk can change (written to its database).
 */
export async function mutate(api: ApiClient, x: Mutation, t: TestServer): Promise<void> {
  const projectSlug = "slug" in x ? x.slug : "";
  try {
    switch (x.m) {
      case "project":
        await api.call("projects.patch", { params: { projectSlug }, body: { [x.field]: x.value } });
        return;
      case "repo":
      case "deleteRepo": {
        const repoID = await repoId(api, x.slug, x.repo);
        if (repoID === undefined) return;
        if (x.m === "deleteRepo")
          await api.callAndWait("git.repos.delete", { params: { projectSlug, repoID } });
        else
          await api.call("git.repos.patch", {
            params: { projectSlug, repoID },
            body: { [x.field]: x.value },
          });
        return;
      }
      case "access": {
        const args = { params: { projectSlug, level: x.level, username: x.user } };
        if (!x.add) await api.call("access.removeUser", args);
        else if (QUEUED.has(x.level)) await api.callAndWait("access.addUser", args);
        else await api.call("access.addUser", args);
        return;
      }
      case "member": {
        const args = {
          params: { teamname: x.team, username: x.user },
          query: { parentOrganization },
        };
        await api.call(x.add ? "teams.addUser" : "teams.removeUser", args);
        return;
      }
      case "user":
        await api.call("users.patch", {
          params: { username: x.user },
          body: { [x.field]: x.value },
        });
        return;
      case "teamService":
        await api.call("teams.enableService", {
          params: { teamname: x.team },
          body: { parentOrganization, service: x.service },
        });
        return;
      case "group":
        await api.call("git.group.update", {
          params: { projectSlug },
          body: { enable_ci: x.enableCi },
        });
        return;
      case "mirror": {
        const params = { projectSlug: "trusted-firmware-a" };
        const [m] = await api.listAll("mirrors.list", { params });
        if (m)
          await api.call("mirrors.update", {
            params: { ...params, mirrorID: Number(m.mirrorID) },
            body: { frequency: x.frequency },
          });
        return;
      }
      case "license":
        await api.call(x.add ? "projects.licenses.add" : "projects.licenses.remove", {
          params: { projectSlug, name: x.license },
        });
        return;
      case "deleteSubgroup": {
        const all = await api.listAll("git.subgroups.list", { params: { projectSlug } });
        const g = all.find((s) => s.path === x.path);
        if (g)
          await api.callAndWait("git.subgroups.delete", { params: { projectSlug, groupID: g.id } });
        return;
      }
      case "deleteMirror":
      case "disableMirror": {
        const params = { projectSlug: "trusted-firmware-a" };
        const mirrorID = await tfaMirror(api);
        if (mirrorID === undefined) return;
        if (x.m === "deleteMirror")
          await api.call("mirrors.delete", { params: { ...params, mirrorID } });
        else
          await api.call("mirrors.disableSelected", {
            params,
            body: { mirrorIds: [mirrorID], notes: "by hand" },
          });
        return;
      }
      case "newMirror": {
        await api.call("mirrors.create", {
          params: { projectSlug },
          body: {
            repoURLFrom: `https://github.com/example/${x.slug}.git`,
            repoURLTo: MIRROR_TO[x.slug],
            refSpaceFrom: "refs/tags/*",
            refSpaceTo: "refs/tags/*",
            frequency: "weekly",
            excludeTags: true,
            notificationEmails: ["b@example.org", "a@example.org"],
          },
        });
        return;
      }
      case "service": {
        const op = x.service === "git" ? "users.git.update" : "users.artifactservice.update";
        await api.callAndWait(op, { params: { username: x.user }, body: { status: "inactive" } });
        return;
      }
      case "archive":
        await api.call("projects.archive", { params: { projectSlug } });
        return;
      case "archiveRepo": {
        const repoID = await repoId(api, x.slug, x.repo);
        if (repoID !== undefined)
          await api.call("git.repos.patch", {
            params: { projectSlug, repoID },
            body: { status: "archived" },
          });
        return;
      }
      case "unblock": {
        const params = { projectSlug: "trusted-firmware-a" };
        const repoID = await repoId(api, params.projectSlug, "trusted-firmware-a");
        if (repoID !== undefined)
          await api.call("git.repos.removeCommitBlocker", { params: { ...params, repoID } });
        return;
      }
      case "transfer": {
        const orgs = await api.call("organizations.list");
        const org = orgs.find((o) => o.name === x.to);
        if (org)
          await api.callAndWait("users.transfer", {
            params: { username: x.user },
            body: { org_id: org.id },
          });
        return;
      }
      case "requestAccess":
        await api.call("git.group.update", {
          params: { projectSlug },
          body: { request_access_enabled: true },
        });
        return;
      case "deleteTeam":
        await api.call("teams.delete", {
          params: { teamname: "tfa-maintainers" },
          query: { parentOrganization },
        });
        return;
      case "deleteGroup":
        await api.callAndWait("git.group.delete", { params: { projectSlug } });
        return;
      case "support":
        t.server.ctx.db.raw
          .prepare(`UPDATE projects SET ${x.field} = ? WHERE slug = ?`)
          .run(x.value, x.slug);
        return;
      case "deleteArtifact": {
        const repos = await api.listAll("artifacts.repos.list", { params: { projectSlug } });
        const a = repos.find((r) => r.name.endsWith(`-${x.name}`));
        if (a)
          await api.call("artifacts.repos.delete", {
            params: { projectSlug, artifactRepoID: a.id },
          });
        return;
      }
    }
  } catch (e) {
    // 404 (already removed, or removed by an earlier mutation) and 409 (already there) are
    // no mutation; anything else is a failure of the test.
    const status = (e as { status?: number }).status;
    if (status !== 404 && status !== 409 && status !== 422) throw e;
  }
}
