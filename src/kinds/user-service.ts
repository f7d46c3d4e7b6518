/**
 * UserService: a declared user's account on one service (`user/<username>/service/<service>`).
 * Managed fields: status; personalProjectLimit (git, only when declared); mailplan (email;
 * immutable: the update body has no mailplan, so a change is blocked). Only the services a
 * manifest lists are managed; a user's other accounts are ignored. email, irc and wiki
 * accounts are deprecated by the API, and the service desk update is: their entries carry a
 * warning. Creates and updates are queued on the entitlement queue and awaited.
 *
 * Reads: 1 call per declared user that declares at least one service and exists live (the
 * user's services record); none for users that do not exist yet (known from the user list).
 */
import type { ApiClient } from "../api/client.js";
import { createOrFind } from "../api/create-or-find.js";
import { JobFailedError } from "../api/errors.js";
import { sleep } from "../api/limit.js";
import type { UserService } from "../api/schemas.js";
import { mapBounded } from "../engine/bounded.js";
import { diffObject } from "../engine/diff.js";
import type { PlanEntry } from "../engine/plan.js";
import { orAbsent } from "../engine/read-context.js";
import { readUsers, readUserServices, type LiveServices } from "../engine/readers.js";
import { userKey, userServiceKey } from "../manifest/keys.js";
import { DEPRECATED_SERVICES } from "../manifest/normalise.js";
import type { ServiceAccountState } from "../manifest/types.js";
import { defineKind, type ResourceKind } from "./kind.js";

export interface UserServiceFields {
  status: string;
  /** git only; undefined on the desired side when not declared (not managed). */
  personalProjectLimit?: number | null | undefined;
  /** email only. */
  mailplan?: string | undefined;
  [k: string]: unknown;
}

const MAILPLAN_REASON =
  "mailplan is immutable: the email account's update operation has no mailplan, so the plan cannot change after the account is created";

type Account = NonNullable<LiveServices[UserService]>;

/** `user/<username>/service/<service>` → its parts. */
export function parseServiceKey(key: string): { username: string; service: UserService } {
  const m = /^user\/([^/]+)\/service\/([^/]+)$/.exec(key);
  if (!m) throw new Error(`not a user service key: ${key}`);
  return { username: m[1], service: m[2] as UserService };
}

export function desiredServiceFields(a: ServiceAccountState): UserServiceFields {
  const fields: UserServiceFields = { status: a.status };
  if (a.service === "git") fields.personalProjectLimit = a.personalProjectLimit;
  if (a.service === "email") fields.mailplan = a.mailplan;
  return fields;
}

export function liveServiceFields(service: UserService, a: Account): UserServiceFields {
  const fields: UserServiceFields = { status: a.status };
  if (service === "git") fields.personalProjectLimit = a.personalProjectLimit ?? null;
  if (service === "email") fields.mailplan = a.mailplan ?? "non-retention";
  return fields;
}

/** The warning an entry of this service carries, if any. */
export function serviceWarning(
  service: UserService,
  action: PlanEntry["action"],
): string | undefined {
  if (DEPRECATED_SERVICES.includes(service))
    return `the ${service} service is deprecated by the API (2026-02); it still works`;
  if (service === "servicedesk" && action === "update")
    return "the servicedesk update operation is deprecated by the API (2026-02); it still works";
  return undefined;
}

/** The create body of each service (the spec's "bodies per service"). */
async function createBody(
  api: ApiClient,
  username: string,
  service: UserService,
  after: Partial<UserServiceFields>,
): Promise<Record<string, unknown>> {
  switch (service) {
    case "git":
      return typeof after.personalProjectLimit === "number"
        ? { personalProjectLimit: after.personalProjectLimit }
        : {};
    case "email":
      return after.mailplan !== undefined ? { mailplan: after.mailplan } : {};
    case "irc": {
      // The IRC account shows the user's display name as the identity provider has it.
      const u = await api.call("users.get", { params: { username } });
      return { displayName: u.data.displayName };
    }
    case "artifactservice":
    case "servicedesk":
    case "wiki":
      return {};
  }
}

async function findAccount(
  api: ApiClient,
  username: string,
  service: UserService,
): Promise<Account | undefined> {
  const r = await orAbsent(api.call("users.services", { params: { username } }));
  return r?.data[service] ?? undefined;
}

/**
 * A queued create shows only once its job completed: after an ambiguous failure, look a few
 * times before sending again.
 */
async function settleAccount(
  api: ApiClient,
  username: string,
  service: UserService,
): Promise<Account | undefined> {
  let delay = 100;
  for (let i = 0; i < 4; i++) {
    const found = await findAccount(api, username, service);
    if (found) return found;
    await sleep(delay);
    delay *= 2;
  }
  return findAccount(api, username, service);
}

/** Loose call for the per-service operation ids (`users.<service>.create|update`). */
type LooseCall = (
  op: string,
  args: { params: { username: string }; body: Record<string, unknown> },
) => ReturnType<ApiClient["callAndWait"]>;
const callAndWait = (api: ApiClient): LooseCall =>
  api.callAndWait.bind(api) as unknown as LooseCall;

async function createAccount(
  api: ApiClient,
  username: string,
  service: UserService,
  body: Record<string, unknown>,
): Promise<void> {
  try {
    await createOrFind(
      async () => {
        await callAndWait(api)(`users.${service}.create`, { params: { username }, body });
        return true;
      },
      async () => ((await settleAccount(api, username, service)) ? true : undefined),
    );
  } catch (e) {
    // A create re-sent after an ambiguous failure fails its job when the first one landed.
    if (e instanceof JobFailedError && (await findAccount(api, username, service))) return;
    throw e;
  }
}

async function updateAccount(
  api: ApiClient,
  username: string,
  service: UserService,
  fields: UserServiceFields,
): Promise<void> {
  const body: Record<string, unknown> = { status: fields.status };
  if (service === "git" && typeof fields.personalProjectLimit === "number")
    body.personalProjectLimit = fields.personalProjectLimit;
  await callAndWait(api)(`users.${service}.update`, { params: { username }, body });
}

const base = defineKind<UserServiceFields>({
  kind: "UserService",
  ownership: { mode: "ignored" },
  immutable: { mailplan: { action: "blocked", reason: MAILPLAN_REASON } },
  destructiveDelete: true,
  desired: (state) =>
    state.users.flatMap((u) =>
      Object.values(u.services).map((a) => ({
        key: a.key,
        fields: desiredServiceFields(a),
        source: a.source,
        dependsOn: [userKey(u.username)],
        protect: u.protect,
      })),
    ),
  read: async (ctx, state) => {
    const withServices = state.users.filter((u) => Object.keys(u.services).length > 0);
    if (withServices.length === 0) return [];
    const live = new Set((await readUsers(ctx)).map((u) => u.username));
    const records = await mapBounded(
      withServices.filter((u) => live.has(u.username)),
      async (u) => [u.username, await readUserServices(ctx, u.username)] as const,
    );
    return records.flatMap(([username, rec]) =>
      rec
        ? Object.entries(rec).flatMap(([service, a]) =>
            a
              ? [
                  {
                    key: userServiceKey(username, service as UserService),
                    fields: liveServiceFields(service as UserService, a),
                    ids: {},
                  },
                ]
              : [],
          )
        : [],
    );
  },
  create: async (api, entry) => {
    const { username, service } = parseServiceKey(entry.key);
    const after = (entry.after ?? {}) as UserServiceFields;
    await createAccount(api, username, service, await createBody(api, username, service, after));
    // Accounts are created active.
    if (after.status === "inactive") await updateAccount(api, username, service, after);
  },
  update: async (api, entry, live) => {
    const { username, service } = parseServiceKey(entry.key);
    // The update body needs the status even when only the limit changes.
    await updateAccount(api, username, service, {
      ...live.fields,
      ...(entry.after ?? {}),
    });
  },
});

/** The kind: the generic diff, with the deprecation warning on every entry that needs one. */
export const userServiceKind: ResourceKind = {
  ...base,
  check: (d, l, ctx) => {
    const { service } = parseServiceKey(d.key);
    const entries = diffObject(base, d, l, ctx);
    return entries.map((e) => {
      const warning = serviceWarning(service, e.action);
      return warning ? { ...e, warnings: [...(e.warnings ?? []), warning] } : e;
    });
  },
};
