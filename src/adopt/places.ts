/**
 * Where each plan entry's live value goes in its manifest document, as edits (ops.ts): a
 * field of a user, team, organization or project; an item of an authoritative list (team
 * members, licenses, access); and, in places-git.ts, the git group, subgroups, repositories,
 * mirrors and artifact repositories. A field whose live value is its default is removed
 * rather than written (the file stays minimal and the plan stays clean); a field managed
 * only when declared (displayName, restrictionLevel, eccn, personalProjectLimit) is removed
 * when live has no value. Accepting live also removes the declarations of objects that no
 * longer exist live, and adds what live has to the lists that are authoritative.
 */
import type { AccessLevel } from "../api/schemas.js";
import type { FieldChange, PlanEntry } from "../engine/plan.js";
import { DEFAULTS } from "../manifest/schema/common.js";
import { grantee } from "../manifest/schema/expires.js";
import { docId } from "./file-text.js";
import { getIn, type Op, type Seg } from "./ops.js";
import { absentLive, field, type PlaceContext, type Placed } from "./place-common.js";
import { gitOps } from "./places-git.js";

/** The document an entry's key belongs to (`project/p/repo/r` → `Project/p`). */
export function documentOf(key: string): string | undefined {
  const [type, name] = key.split("/");
  const kind = { organization: "Organization", user: "User", team: "Team", project: "Project" }[
    type ?? ""
  ];
  return kind && name ? docId(kind, name) : undefined;
}

const USER_DEFAULTS: Record<string, unknown> = {
  role: DEFAULTS.user.role,
  status: DEFAULTS.user.status,
  displayName: null,
};

const PROJECT_DEFAULTS: Record<string, unknown> = {
  description: DEFAULTS.project.description,
  visibility: DEFAULTS.project.visibility,
  status: DEFAULTS.project.status,
  externalContribution: DEFAULTS.project.externalContribution,
  restrictionLevel: "",
  eccn: "",
};

function eachChange(e: PlanEntry, one: (c: FieldChange) => Op | undefined): Placed {
  const ops: Op[] = [];
  for (const c of e.changes) {
    const op = one(c);
    if (!op) return { why: `${c.field} has no place in the manifest` };
    ops.push(op);
  }
  return ops;
}

/** An item of a list: added when live has it, dropped when live lacks it. */
function listItem(e: PlanEntry, path: Seg[], item: string): Op {
  return absentLive(e)
    ? { op: "drop", path, item: (x) => grantee(x) === item, keep: 1 }
    : { op: "add", path, value: item };
}

/** A user or organization team on one access level (`[a, b]` or `{ users, organizationTeams }`). */
function accessOps(e: PlanEntry, ctx: PlaceContext, list: "users" | "organizationTeams"): Placed {
  const f = (e.after ?? e.before) as { level: AccessLevel; username?: string; team?: string };
  const member = String(f.username ?? f.team);
  const at: Seg[] = ["spec", "access", f.level];
  const now = getIn(ctx.value, at);
  if (absentLive(e)) {
    const path = Array.isArray(now) ? (list === "users" ? at : undefined) : [...at, list];
    return path ? [{ op: "drop", path, item: (x) => grantee(x) === member, keep: 1 }] : [];
  }
  if (now === undefined || now === null)
    return [{ op: "set", path: at, value: list === "users" ? [member] : { [list]: [member] } }];
  if (Array.isArray(now)) {
    if (list === "users") return [{ op: "add", path: at, value: member }];
    return [{ op: "set", path: at, value: { users: now, organizationTeams: [member] } }];
  }
  return [{ op: "add", path: [...at, list], value: member }];
}

/** The edits that make one entry's manifest say what live has. */
export function placeEntry(e: PlanEntry, ctx: PlaceContext): Placed {
  const parts = e.key.split("/");
  const remove: Op[] = [{ op: "removeDocument" }];
  switch (e.kind) {
    case "Organization":
    case "User":
    case "Team":
    case "Project":
      if (absentLive(e)) return remove;
      break;
    case "WelcomeMail":
      return {
        why: "a welcome mail an earlier apply owes: no live value to adopt (apply sends it)",
      };
  }
  switch (e.kind) {
    case "User":
      return eachChange(e, (c) => {
        const dflt = c.field === "organization" ? ctx.organization : USER_DEFAULTS[c.field];
        return field(["spec", c.field], c.before, dflt, 1);
      });
    case "UserService": {
      const at: Seg[] = ["spec", "services", parts[3]];
      if (absentLive(e)) return [{ op: "unset", path: at, keep: 1 }];
      return eachChange(e, (c) => {
        const dflt = { status: DEFAULTS.service.status, mailplan: DEFAULTS.service.mailplan }[
          c.field
        ];
        return field([...at, c.field], c.before, dflt ?? null, 3);
      });
    }
    case "Team":
      return eachChange(e, (c) => field(["spec", "services", c.field], c.before, false, 1));
    case "TeamMember":
      return [listItem(e, ["spec", "members"], parts[3])];
    case "Project":
      return eachChange(e, (c) => {
        const dflt = c.field === "organization" ? ctx.organization : PROJECT_DEFAULTS[c.field];
        return c.field === "title"
          ? { op: "set", path: ["spec", "title"], value: c.before }
          : field(["spec", c.field], c.before, dflt ?? null, 1);
      });
    case "ProjectLicense":
      return [listItem(e, ["spec", "licenses"], parts.slice(3).join("/"))];
    case "ProjectAccess":
      return accessOps(e, ctx, "users");
    case "ProjectTeamAccess":
      return accessOps(e, ctx, "organizationTeams");
    default:
      return gitOps(e, ctx);
  }
}
