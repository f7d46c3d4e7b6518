/** Rules about who gets access: editors' wiki accounts, inactive users, the admin floor. */
import type { ValidDoc } from "../check.js";
import { formatPath, formatSource, makeDiagnostic } from "../diagnostics.js";
import type { FieldPath } from "../positions.js";
import { DEFAULTS } from "../schema/common.js";
import { grantee } from "../schema/expires.js";
import type { Diagnostic } from "../types.js";
import { projects, report, type RuleContext } from "./context.js";

/** Editors need a wiki account: checked here for declared users, at plan time for others. */
export function editorsNeedWiki(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of projects(ctx)) {
    const editors = p.value.spec.access?.editors;
    const short = Array.isArray(editors);
    const users = short ? editors : (editors?.users ?? []);
    users.forEach((item, i) => {
      const u = grantee(item);
      const user = ctx.users.get(u);
      if (!user) return;
      const wiki = user.value.spec.services?.wiki;
      if (wiki && (wiki.status ?? DEFAULTS.service.status) === "active") return;
      const path = short
        ? ["spec", "access", "editors", i]
        : ["spec", "access", "editors", "users", i];
      out.push(
        report(
          p,
          path,
          "editor-without-wiki",
          `${formatPath(path)}: editor ${u} needs an active wiki account`,
          {
            hint: `declare spec.services.wiki for user ${u} at ${formatSource(user.handle.at(["spec"], "key"))}`,
          },
        ),
      );
    });
  }
  return out;
}

/** Access or team membership for a user declared inactive is probably a mistake. */
export function inactiveUsersWithAccess(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const check = (d: ValidDoc, path: FieldPath, item: unknown) => {
    const username = grantee(item);
    const u = ctx.users.get(username);
    if (u && (u.value.spec.status ?? DEFAULTS.user.status) === "inactive")
      out.push(
        report(
          d,
          path,
          "inactive-user",
          `${formatPath(path)}: user ${username} is declared inactive (${formatSource(u.handle.start)})`,
          { severity: "warning" },
        ),
      );
  };
  for (const d of ctx.docs) {
    if (d.kind === "Team")
      (d.value.spec?.members ?? []).forEach((m, i) => check(d, ["spec", "members", i], m));
    if (d.kind !== "Project") continue;
    for (const [level, input] of Object.entries(d.value.spec.access ?? {})) {
      if (Array.isArray(input)) input.forEach((u, i) => check(d, ["spec", "access", level, i], u));
      else
        (input?.users ?? []).forEach((u, i) => check(d, ["spec", "access", level, "users", i], u));
    }
  }
  return out;
}

/** apply refuses to leave a project without an admin, so say so at validate time. */
export function projectHasAdmin(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of projects(ctx)) {
    const access = p.value.spec.access;
    const admins = access?.admins;
    const n = Array.isArray(admins) ? admins.length : (admins?.users?.length ?? 0);
    if (n > 0) continue;
    const at = admins ? ["spec", "access", "admins"] : access ? ["spec", "access"] : ["spec"];
    out.push(
      makeDiagnostic(
        "warning",
        "no-admin",
        p.handle.at(at, "key"),
        "spec.access.admins names nobody; apply refuses to leave a project without an admin",
        { kind: p.kind, name: p.name, path: "spec.access.admins" },
      ),
    );
  }
  return out;
}
