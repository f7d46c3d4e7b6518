/**
 * User: declared by username (`user/<username>`). Managed fields: firstName, lastName,
 * displayName (only when declared: otherwise the identity provider's value stays), role,
 * status, organization (default: phctl.yaml's organization; a change is a transfer job,
 * only within the parent organization) and externalEmail (immutable: a change is blocked).
 * Users no manifest declares are listed as not managed; deleting a user is a support ticket
 * and is never planned. A create whose e-mail another live user has (typically a rename of
 * metadata.name that kept the e-mail: usernames cannot change) is `blocked`, saying what to
 * do — the service would refuse it with 409. The welcome mail (`sendWelcome`) is an action of its own
 * (src/kinds/welcome.ts), so that a crash or a failed send between the two is never lost.
 *
 * Reads: 1 call whatever the scope (the user list with all=true, shared with the plan's
 * live-user facts).
 */
import type { Static } from "@sinclair/typebox";
import type { ApiClient } from "../api/client.js";
import { createOrFind } from "../api/create-or-find.js";
import type { PatchUserBody } from "../api/schemas.js";
import { PhctlError } from "../errors.js";
import type { PlanEntry } from "../engine/plan.js";
import { orAbsent } from "../engine/read-context.js";
import { readUsers, type LiveUser } from "../engine/readers.js";
import { organizationKey, userKey } from "../manifest/keys.js";
import type { DesiredState, UserState } from "../manifest/types.js";
import { defineKind, type LiveObject } from "./kind.js";
import { blockedCreate } from "./project-shared.js";

export interface UserFields {
  firstName: string;
  lastName: string;
  /** undefined on the desired side: not declared, not managed. */
  displayName: string | undefined;
  externalEmail: string;
  /** undefined on the desired side: neither the manifest nor phctl.yaml names one. */
  organization: string | undefined;
  role: string;
  status: string;
  [k: string]: unknown;
}

/** The fields patched with PATCH /v1/users/{username}; `organization` is a transfer. */
const PATCHED = ["firstName", "lastName", "displayName", "role", "status"] as const;

const EMAIL_REASON =
  "externalEmail is immutable: the email cannot be changed after the user is created";

export function desiredUserFields(u: UserState, state: DesiredState): UserFields {
  return {
    firstName: u.firstName,
    lastName: u.lastName,
    displayName: u.displayName,
    externalEmail: u.externalEmail,
    organization: u.organization ?? state.config.organization,
    role: u.role,
    status: u.status,
  };
}

export function liveUserFields(l: LiveUser): UserFields {
  return {
    firstName: l.firstName,
    lastName: l.lastName,
    displayName: l.displayName,
    externalEmail: l.externalEmail,
    organization: l.organization,
    role: l.role,
    status: l.status,
  };
}

/** An organization declared in the manifests must be created before its users. */
function dependsOn(org: string | undefined, state: DesiredState): string[] {
  return org !== undefined && state.organizations.some((o) => o.name === org)
    ? [organizationKey(org)]
    : [];
}

const usernameOf = (entry: PlanEntry) => entry.key.slice("user/".length);

/** Live users by e-mail (lower-cased: the service compares e-mails case-insensitively). */
const byEmail = new WeakMap<ReadonlyMap<string, LiveObject>, Map<string, string>>();

/** The key of the live user other than `key` whose externalEmail is `email`, if any. */
function emailOwner(
  live: ReadonlyMap<string, LiveObject<UserFields>>,
  email: string,
  key: string,
): string | undefined {
  let index = byEmail.get(live);
  if (!index) {
    index = new Map();
    for (const l of live.values()) index.set(String(l.fields.externalEmail).toLowerCase(), l.key);
    byEmail.set(live, index);
  }
  const owner = index.get(email.toLowerCase());
  return owner !== key ? owner : undefined;
}

async function findUser(api: ApiClient, username: string): Promise<LiveUser | undefined> {
  return (await orAbsent(api.call("users.get", { params: { username } })))?.data;
}

/** Move a user to another organization of the parent organization (transfer queue). */
async function transfer(api: ApiClient, username: string, organization: string): Promise<void> {
  const orgs = await api.call("organizations.list");
  const target = orgs.find((o) => o.name === organization);
  if (!target) {
    throw new PhctlError(
      "UNKNOWN_ORGANIZATION",
      `cannot move user ${username} to organization ${organization}: it is not an organization of the token's parent organization`,
    );
  }
  await api.callAndWait("users.transfer", { params: { username }, body: { org_id: target.id } });
}

type PatchBody = Static<typeof PatchUserBody>;

function patchBody(values: Record<string, unknown>, fields: readonly string[]): PatchBody {
  const body: Record<string, string> = {};
  for (const f of fields) {
    const v = values[f];
    if ((PATCHED as readonly string[]).includes(f) && typeof v === "string") body[f] = v;
  }
  return body;
}

export const userKind = defineKind<UserFields>({
  kind: "User",
  ownership: { mode: "unmanaged" },
  immutable: { externalEmail: { action: "blocked", reason: EMAIL_REASON } },
  destructiveDelete: true,
  desired: (state) =>
    state.users.map((u) => {
      const fields = desiredUserFields(u, state);
      return {
        key: u.key,
        fields,
        source: u.source,
        dependsOn: dependsOn(fields.organization, state),
        protect: u.protect,
      };
    }),
  // A create whose e-mail another user has would be refused (409): usernames cannot change.
  check: (d, l, _ctx, others) => {
    if (l || !others) return undefined;
    const owner = emailOwner(others, d.fields.externalEmail, d.key);
    if (!owner) return undefined;
    const name = d.key.slice("user/".length);
    const other = owner.slice("user/".length);
    return blockedCreate(
      "User",
      d,
      "externalEmail",
      `externalEmail ${d.fields.externalEmail} belongs to user ${other}, and a username cannot be changed: to rename ${other}, keep metadata.name: ${other}; to add ${name} as another user, give it an e-mail no other user has (freeing ${other}'s e-mail takes a support ticket)`,
    );
  },
  read: async (ctx) =>
    (await readUsers(ctx)).map((l) => ({
      key: userKey(l.username),
      fields: liveUserFields(l),
      ids: { parentOrganization: l.parentOrganization },
    })),
  create: async (api, entry) => {
    const after = (entry.after ?? {}) as Partial<UserFields>;
    const username = usernameOf(entry);
    const body = {
      username,
      firstName: String(after.firstName),
      lastName: String(after.lastName),
      externalEmail: String(after.externalEmail),
      ...(after.displayName !== undefined ? { displayName: after.displayName } : {}),
      ...(after.organization !== undefined ? { organization: after.organization } : {}),
      ...(after.role !== undefined ? { role: after.role as LiveUser["role"] } : {}),
    };
    await createOrFind(
      async () => (await api.call("users.create", { body })).data,
      () => findUser(api, username),
    );
    // The create body has no status: a user is created active.
    if (after.status === "inactive") {
      await api.call("users.patch", { params: { username }, body: { status: "inactive" } });
    }
  },
  update: async (api, entry) => {
    const username = usernameOf(entry);
    const fields = entry.changes.map((c) => c.field);
    const body = patchBody(entry.after ?? {}, fields);
    if (Object.keys(body).length > 0) {
      await api.call("users.patch", { params: { username }, body });
    }
    const org = entry.after?.organization;
    if (fields.includes("organization") && typeof org === "string") {
      await transfer(api, username, org);
    }
  },
});
