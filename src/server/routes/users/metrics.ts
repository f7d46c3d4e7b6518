/**
 * User metrics: how many users an organization has (in all, or with an account on one
 * service), and the users of an organization by role and last login. The parent
 * organization stands for all its users (its customers' too); a customer organization for
 * its own users only. Each answer is one query.
 */
import type { UserService } from "../../../api/schemas.js";
import { defineHandlers, type Caller, type ServerContext } from "../../context.js";
import { notFound } from "../../errors.js";
import { findOrg } from "../../store/lookups.js";
import { parseRole, parseTimeRange } from "./filters.js";
import { USER_VIEW, userRecord, type UserView } from "./records.js";

interface Scope {
  name: string;
  cond: string;
  args: unknown[];
}

/** Which users an organization name covers; 404 for a name outside the caller's parent. */
function scope(ctx: ServerContext, caller: Caller, organization: string | undefined): Scope {
  const org = organization === undefined ? undefined : findOrg(ctx, caller, organization);
  if (organization !== undefined && !org) throw notFound(`organization ${organization}`);
  if (!org || org.id === caller.parentOrgId) {
    return {
      name: caller.parentOrganization,
      cond: "u.parent_org_id = ?",
      args: [caller.parentOrgId],
    };
  }
  return { name: org.name, cond: "u.org_id = ?", args: [org.id] };
}

function count(
  ctx: ServerContext,
  caller: Caller,
  organization: string | undefined,
  service?: UserService,
) {
  const s = scope(ctx, caller, organization);
  const withService = service
    ? " AND EXISTS (SELECT 1 FROM service_accounts sa WHERE sa.user_id = u.id AND sa.service = ?)"
    : "";
  const n = ctx.db.get<{ n: number }>(
    `SELECT COUNT(*) AS n FROM users u WHERE ${s.cond}${withService}`,
    ...s.args,
    ...(service ? [service] : []),
  )!.n;
  return { data: { organization: s.name, count: n } };
}

export const metricHandlers = defineHandlers({
  "metrics.users": (ctx, { caller, query }) => count(ctx, caller, query.organization),
  "metrics.usersEmail": (ctx, { caller, query }) => count(ctx, caller, query.organization, "email"),
  "metrics.usersGit": (ctx, { caller, query }) => count(ctx, caller, query.organization, "git"),
  "metrics.usersArtifact": (ctx, { caller, query }) =>
    count(ctx, caller, query.organization, "artifactservice"),
  "metrics.usersIrc": (ctx, { caller, query }) => count(ctx, caller, query.organization, "irc"),

  "metrics.usersSearch": (ctx, { caller, params, query }) => {
    const s = scope(ctx, caller, params.organization);
    let cond = s.cond;
    const args = [...s.args];
    if (query.role !== undefined) {
      cond += " AND u.role = ?";
      args.push(parseRole(query.role));
    }
    if (query.last_login !== undefined) {
      // Users who never logged in have no last access and match no range.
      const r = parseTimeRange(query.last_login, "last_login");
      cond += " AND u.last_accessed >= ? AND u.last_accessed < ?";
      args.push(r.from, r.to);
    }
    return ctx.db
      .all<UserView>(`${USER_VIEW} WHERE ${cond} ORDER BY u.username`, ...args)
      .map(userRecord);
  },
});
