/**
 * Users: list (filters, paging, `all`), create, read, replace and partial update. Username
 * and email are unique (case-insensitive) and immutable: the replace and patch bodies have
 * no field for them, so schema validation refuses them with 400.
 */
import { defineHandlers, ok, type Caller, type ServerContext } from "../../context.js";
import { conflict, notFound } from "../../errors.js";
import { paged } from "../../paging.js";
import { isoNow } from "../../store/db.js";
import { requireOrg, type OrgRow } from "../../store/lookups.js";
import {
  containsPattern,
  parseRole,
  parseTimeRange,
  parseUserService,
  parseUserStatus,
} from "./filters.js";
import { USER_VIEW, userRecord, type UserView } from "./records.js";

/** A user of the caller's parent organization with its organization names; 404 otherwise. */
export function requireUserView(ctx: ServerContext, caller: Caller, username: string): UserView {
  const v = ctx.db.get<UserView>(
    `${USER_VIEW} WHERE u.username = ? AND u.parent_org_id = ?`,
    username,
    caller.parentOrgId,
  );
  if (!v) throw notFound(`user ${username}`);
  return v;
}

function userById(ctx: ServerContext, id: number): UserView {
  return ctx.db.get<UserView>(`${USER_VIEW} WHERE u.id = ?`, id)!;
}

/** Usernames are unique across the identity provider, whatever the parent organization. */
export function usernameTaken(ctx: ServerContext, username: string): boolean {
  return (
    ctx.db.get("SELECT 1 FROM users WHERE username = ? COLLATE NOCASE", username) !== undefined
  );
}

/**
 * An address is taken when it is anyone's main or external email (two lookups, because
 * SQLite scans the table for the OR of both).
 */
function emailTaken(ctx: ServerContext, email: string): boolean {
  return (
    ctx.db.get("SELECT 1 FROM users WHERE email = ?", email) !== undefined ||
    ctx.db.get("SELECT 1 FROM users WHERE external_email = ? COLLATE NOCASE", email) !== undefined
  );
}

/**
 * A free username from an email's local part: lower-cased, runs of other characters turned
 * into "-", trimmed to the create body's pattern; "-2", "-3", … until it is free.
 */
export function deriveUsername(ctx: ServerContext, email: string): string {
  const local = email.split("@")[0].toLowerCase();
  const base =
    local
      .replace(/[^a-z0-9._-]+/g, "-")
      .replace(/^[^a-z0-9]+/, "")
      .replace(/[._-]+$/, "")
      .slice(0, 56) || "user";
  if (!usernameTaken(ctx, base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!usernameTaken(ctx, candidate)) return candidate;
  }
}

interface Changes {
  firstName?: string;
  lastName?: string;
  displayName?: string;
  status?: "active" | "inactive";
  role?: "member" | "projects-admin" | "users-admin" | "system-admin";
}

/** Apply the given fields; absent ones keep their value (the user's other fields are immutable). */
function update(ctx: ServerContext, caller: Caller, username: string, c: Changes) {
  const u = requireUserView(ctx, caller, username);
  ctx.db.run(
    `UPDATE users SET first_name = ?, last_name = ?, display_name = ?, status = ?, role = ?
     WHERE id = ?`,
    c.firstName ?? u.first_name,
    c.lastName ?? u.last_name,
    c.displayName ?? u.display_name,
    c.status ?? u.status,
    c.role ?? u.role,
    u.id,
  );
  return ok(userRecord(userById(ctx, u.id)), "user updated");
}

export const userHandlers = defineHandlers({
  "users.list": (ctx, { caller, query }) => {
    const where = ["u.parent_org_id = ?"];
    const args: unknown[] = [caller.parentOrgId];
    if (query.organization !== undefined) {
      where.push("o.name = ?");
      args.push(query.organization);
    }
    if (query.service !== undefined) {
      where.push(
        "EXISTS (SELECT 1 FROM service_accounts sa WHERE sa.user_id = u.id AND sa.service = ?)",
      );
      args.push(parseUserService(query.service));
    }
    if (query.createdAt !== undefined) {
      const r = parseTimeRange(query.createdAt, "createdAt");
      where.push("u.created >= ? AND u.created < ?");
      args.push(r.from, r.to);
    }
    if (query.query !== undefined && query.query !== "") {
      where.push(
        "(u.username LIKE ? ESCAPE '\\' OR u.display_name LIKE ? ESCAPE '\\' OR u.email LIKE ? ESCAPE '\\')",
      );
      const k = containsPattern(query.query);
      args.push(k, k, k);
    }
    if (query.role !== undefined) {
      where.push("u.role = ?");
      args.push(parseRole(query.role));
    }
    if (query.status !== undefined) {
      where.push("u.status = ?");
      args.push(parseUserStatus(query.status));
    }
    const cond = where.join(" AND ");
    // `all` answers one page, so its count comes from the rows themselves.
    const total = query.all
      ? 0
      : ctx.db.get<{ n: number }>(
          `SELECT COUNT(*) AS n FROM users u JOIN organizations o ON o.id = u.org_id WHERE ${cond}`,
          ...args,
        )!.n;
    return paged(query, ctx.maxPageSize, total, (limit, offset) =>
      ctx.db
        .all<UserView>(
          `${USER_VIEW} WHERE ${cond} ORDER BY u.username LIMIT ? OFFSET ?`,
          ...args,
          limit,
          offset,
        )
        .map(userRecord),
    );
  },

  "users.create": (ctx, { caller, body }) => {
    const org: Pick<OrgRow, "id"> = body.organization
      ? requireOrg(ctx, caller, body.organization)
      : { id: caller.parentOrgId };
    if (body.username !== undefined && usernameTaken(ctx, body.username)) {
      throw conflict(`username ${body.username} is already taken`, "username");
    }
    if (emailTaken(ctx, body.externalEmail)) {
      throw conflict(`email ${body.externalEmail} is already in use`, "externalEmail");
    }
    const username = body.username ?? deriveUsername(ctx, body.externalEmail);
    const id = Number(
      ctx.db.run(
        `INSERT INTO users (username, first_name, last_name, display_name, email, external_email,
           parent_org_id, org_id, role, status, created)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?)`,
        username,
        body.firstName,
        body.lastName,
        body.displayName ?? `${body.firstName} ${body.lastName}`,
        // The main email is the external one until the identity provider says otherwise.
        body.externalEmail,
        body.externalEmail,
        caller.parentOrgId,
        org.id,
        body.role ?? "member",
        isoNow(ctx.now()),
      ).lastInsertRowid,
    );
    return ok(userRecord(userById(ctx, id)), "user created", 201);
  },

  "users.get": (ctx, { caller, params }) =>
    ok(userRecord(requireUserView(ctx, caller, params.username))),

  "users.replace": (ctx, { caller, params, body }) => update(ctx, caller, params.username, body),

  "users.patch": (ctx, { caller, params, body }) => update(ctx, caller, params.username, body),
});
