/**
 * A user's accounts on the six services (git, artifactservice, servicedesk, email, irc,
 * wiki). Creates and updates are checked at once (user, existing account, personal project
 * limit) and applied by an entitlement job, so a read shows them only after the job
 * completed; a second create while the first is queued is a 409 naming its job. Deletes are
 * immediate; a retention email account cannot be deleted.
 */
import type { UserService } from "../../../api/schemas.js";
import { defineHandlers, ok, statusOnly, type Caller, type ServerContext } from "../../context.js";
import { conflict, forbidden, notFound, ruleViolated } from "../../errors.js";
import { accepted, JobFailure, type JobEffect } from "../../queue.js";
import { isoNow } from "../../store/db.js";
import type { OrgRow } from "../../store/lookups.js";
import { pendingJob } from "../projects/access.js";
import { ACCOUNT_VIEW, accountRecord, type AccountView, type UserView } from "./records.js";
import { requireUserView } from "./users.js";

/**
 * What a create or update carries besides the user and the service (the job's payload);
 * undefined fields are dropped before the payload is stored.
 */
interface AccountFields {
  status?: string | undefined;
  personalProjectLimit?: number | undefined;
  name?: string | undefined;
  displayName?: string | undefined;
  mailplan?: string | undefined;
}

interface AccountPayload extends AccountFields {
  userId: number;
  username: string;
  service: UserService;
}

function findAccount(ctx: ServerContext, userId: number, service: UserService) {
  return ctx.db.get<AccountView>(
    `${ACCOUNT_VIEW} WHERE sa.user_id = ? AND sa.service = ?`,
    userId,
    service,
  );
}

function requireAccount(ctx: ServerContext, u: UserView, service: UserService): AccountView {
  const a = findAccount(ctx, u.id, service);
  if (!a) throw notFound(`${service} account of user ${u.username}`);
  return a;
}

/** 403 when the user's organization allows no personal projects, 422 above its maximum. */
function checkPersonalProjects(ctx: ServerContext, u: UserView, limit: number | undefined) {
  if (limit === undefined) return;
  const org = ctx.db.get<OrgRow>("SELECT * FROM organizations WHERE id = ?", u.org_id)!;
  if (!org.allow_personal_projects) {
    throw forbidden(`organization ${org.name} does not allow personal projects`);
  }
  if (limit > org.max_personal_projects) {
    throw ruleViolated(
      `personalProjectLimit ${limit} is above the maximum ${org.max_personal_projects} of organization ${org.name}`,
      "personalProjectLimit",
    );
  }
}

/** Drop absent fields so the payload (JSON) holds only what was given. */
function defined(f: AccountFields): AccountFields {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined));
}

function get(ctx: ServerContext, caller: Caller, username: string, service: UserService) {
  const u = requireUserView(ctx, caller, username);
  return ok(accountRecord(requireAccount(ctx, u, service)));
}

function create(
  ctx: ServerContext,
  caller: Caller,
  username: string,
  service: UserService,
  fields: (u: UserView) => AccountFields,
) {
  const u = requireUserView(ctx, caller, username);
  if (findAccount(ctx, u.id, service)) {
    throw conflict(`user ${username} already has a ${service} account`);
  }
  // A second job would only fail ("already has a … account") once the first has run.
  const key = `user:${u.username}:${service}`;
  const open = pendingJob(ctx, "account.create", key);
  if (open) {
    throw conflict(`creating the ${service} account of ${u.username} is already queued (${open})`);
  }
  const f = defined(fields(u));
  checkPersonalProjects(ctx, u, f.personalProjectLimit);
  const payload: AccountPayload = { ...f, userId: u.id, username: u.username, service };
  const id = ctx.queue.enqueue(
    "entitlement",
    "account.create",
    { key, ...payload },
    caller.parentOrgId,
  );
  return accepted(id, `creation of the ${service} account of ${u.username} queued`);
}

function update(
  ctx: ServerContext,
  caller: Caller,
  username: string,
  service: UserService,
  fields: AccountFields,
) {
  const u = requireUserView(ctx, caller, username);
  requireAccount(ctx, u, service);
  const f = defined(fields);
  checkPersonalProjects(ctx, u, f.personalProjectLimit);
  const payload: AccountPayload = { ...f, userId: u.id, username: u.username, service };
  const id = ctx.queue.enqueue("entitlement", "account.update", { ...payload }, caller.parentOrgId);
  return accepted(id, `update of the ${service} account of ${u.username} queued`);
}

function remove(ctx: ServerContext, caller: Caller, username: string, service: UserService) {
  const u = requireUserView(ctx, caller, username);
  const a = requireAccount(ctx, u, service);
  if (service === "email" && a.mailplan === "retention") {
    throw ruleViolated(
      `the email account of ${username} has the retention plan: it is archived through an update, only non-retention accounts can be removed`,
      "mailplan",
    );
  }
  ctx.db.run("DELETE FROM service_accounts WHERE user_id = ? AND service = ?", u.id, service);
  return statusOnly(`${service} account of ${username} removed`);
}

export const accountHandlers = defineHandlers({
  "users.git.get": (ctx, r) => get(ctx, r.caller, r.params.username, "git"),
  "users.git.create": (ctx, { caller, params, body }) =>
    create(ctx, caller, params.username, "git", (u) => ({
      name: body.name ?? u.username,
      personalProjectLimit: body.personalProjectLimit,
    })),
  "users.git.update": (ctx, { caller, params, body }) =>
    update(ctx, caller, params.username, "git", body),
  "users.git.delete": (ctx, r) => remove(ctx, r.caller, r.params.username, "git"),

  "users.artifactservice.get": (ctx, r) => get(ctx, r.caller, r.params.username, "artifactservice"),
  "users.artifactservice.create": (ctx, r) =>
    create(ctx, r.caller, r.params.username, "artifactservice", () => ({})),
  "users.artifactservice.update": (ctx, r) =>
    update(ctx, r.caller, r.params.username, "artifactservice", r.body),
  "users.artifactservice.delete": (ctx, r) =>
    remove(ctx, r.caller, r.params.username, "artifactservice"),

  "users.servicedesk.get": (ctx, r) => get(ctx, r.caller, r.params.username, "servicedesk"),
  "users.servicedesk.create": (ctx, r) =>
    create(ctx, r.caller, r.params.username, "servicedesk", (u) => ({
      displayName: u.display_name,
    })),
  "users.servicedesk.update": (ctx, r) =>
    update(ctx, r.caller, r.params.username, "servicedesk", r.body),
  "users.servicedesk.delete": (ctx, r) => remove(ctx, r.caller, r.params.username, "servicedesk"),

  "users.email.get": (ctx, r) => get(ctx, r.caller, r.params.username, "email"),
  "users.email.create": (ctx, { caller, params, body }) =>
    create(ctx, caller, params.username, "email", () => ({
      mailplan: body.mailplan ?? "non-retention",
    })),
  "users.email.update": (ctx, r) => update(ctx, r.caller, r.params.username, "email", r.body),
  "users.email.delete": (ctx, r) => remove(ctx, r.caller, r.params.username, "email"),

  "users.irc.get": (ctx, r) => get(ctx, r.caller, r.params.username, "irc"),
  "users.irc.create": (ctx, { caller, params, body }) =>
    create(ctx, caller, params.username, "irc", (u) => ({
      displayName: body.displayName ?? u.display_name,
    })),
  "users.irc.update": (ctx, r) => update(ctx, r.caller, r.params.username, "irc", r.body),
  "users.irc.delete": (ctx, r) => remove(ctx, r.caller, r.params.username, "irc"),

  "users.wiki.get": (ctx, r) => get(ctx, r.caller, r.params.username, "wiki"),
  "users.wiki.create": (ctx, r) => create(ctx, r.caller, r.params.username, "wiki", () => ({})),
  "users.wiki.update": (ctx, r) => update(ctx, r.caller, r.params.username, "wiki", r.body),
  "users.wiki.delete": (ctx, r) => remove(ctx, r.caller, r.params.username, "wiki"),
});

export function accountJobs(ctx: ServerContext): Record<string, JobEffect> {
  return {
    "account.create": (payload) => {
      const p = payload as unknown as AccountPayload;
      if (!ctx.db.get("SELECT 1 FROM users WHERE id = ?", p.userId)) {
        throw new JobFailure(`user ${p.username} no longer exists`);
      }
      if (findAccount(ctx, p.userId, p.service)) {
        throw new JobFailure(`user ${p.username} already has a ${p.service} account`);
      }
      ctx.db.run(
        `INSERT INTO service_accounts (user_id, service, status, personal_project_limit, name,
           display_name, mailplan, created) VALUES (?, ?, 'active', ?, ?, ?, ?, ?)`,
        p.userId,
        p.service,
        p.personalProjectLimit ?? null,
        p.name ?? null,
        p.displayName ?? null,
        p.mailplan ?? null,
        isoNow(ctx.now()),
      );
    },
    "account.update": (payload) => {
      const p = payload as unknown as AccountPayload;
      const a = findAccount(ctx, p.userId, p.service);
      if (!a) throw new JobFailure(`user ${p.username} has no ${p.service} account`);
      ctx.db.run(
        `UPDATE service_accounts SET status = ?, personal_project_limit = ?
         WHERE user_id = ? AND service = ?`,
        p.status ?? a.status,
        p.personalProjectLimit ?? a.personal_project_limit,
        p.userId,
        p.service,
      );
    },
  };
}
