/**
 * The project wiki (deprecated; app.ts adds the Deprecation header): one wiki space per
 * project, and 12-hour JWTs for a project's space or for every wiki of the parent
 * organization.
 */
import type { Static } from "@sinclair/typebox";
import type { Wiki } from "../../../api/schemas.js";
import { defineHandlers, ok, statusOnly, type ServerContext } from "../../context.js";
import { conflict, notFound } from "../../errors.js";
import { isoNow } from "../../store/db.js";
import { requireProject, type ProjectRow } from "../../store/lookups.js";
import { signJwt } from "./jwt.js";

interface WikiRow {
  project_id: number;
  space_key: string;
  created: string;
}

/** The wiki space key of a project: its slug in capitals without dashes. */
export const spaceKey = (slug: string) => slug.toUpperCase().replace(/-/g, "");

/** The wiki host next to the git host: git.example.org → wiki.example.org. */
const wikiHost = (gitHost: string) =>
  gitHost.startsWith("git.") ? `wiki.${gitHost.slice(4)}` : `wiki.${gitHost}`;

function wikiRecord(ctx: ServerContext, p: ProjectRow, w: WikiRow): Static<typeof Wiki> {
  return {
    projectSlug: p.slug,
    spaceKey: w.space_key,
    url: `https://${wikiHost(ctx.gitHost)}/spaces/${w.space_key}`,
    created: w.created,
  };
}

const wikiOf = (ctx: ServerContext, p: ProjectRow) =>
  ctx.db.get<WikiRow>("SELECT * FROM wikis WHERE project_id = ?", p.id);

function requireWiki(ctx: ServerContext, p: ProjectRow): WikiRow {
  const w = wikiOf(ctx, p);
  if (!w) throw notFound(`wiki of project ${p.slug}`);
  return w;
}

function token(ctx: ServerContext, claims: Record<string, unknown>) {
  const t = signJwt(ctx.db, ctx.now(), claims);
  return ok({ token: t.token, expiresAt: isoNow(t.expiresAt) }, "token issued");
}

export const wikiHandlers = defineHandlers({
  "wiki.get": (ctx, { caller, params }) => {
    const p = requireProject(ctx, caller, params.projectSlug);
    return ok(wikiRecord(ctx, p, requireWiki(ctx, p)));
  },

  "wiki.create": (ctx, { caller, params }) => {
    const p = requireProject(ctx, caller, params.projectSlug);
    if (wikiOf(ctx, p)) throw conflict(`project ${p.slug} already has a wiki`);
    ctx.db.run(
      "INSERT INTO wikis (project_id, space_key, created) VALUES (?, ?, ?)",
      p.id,
      spaceKey(p.slug),
      isoNow(ctx.now()),
    );
    return ok(wikiRecord(ctx, p, requireWiki(ctx, p)), `wiki of project ${p.slug} created`, 201);
  },

  "wiki.delete": (ctx, { caller, params }) => {
    const p = requireProject(ctx, caller, params.projectSlug);
    requireWiki(ctx, p);
    ctx.db.run("DELETE FROM wikis WHERE project_id = ?", p.id);
    return statusOnly(`wiki of project ${p.slug} removed`);
  },

  // A token for a space that does not exist would be useless, so it needs the wiki.
  "wiki.token": (ctx, { caller, params }) => {
    const p = requireProject(ctx, caller, params.projectSlug);
    const w = requireWiki(ctx, p);
    return token(ctx, {
      sub: p.slug,
      scope: "wiki:project",
      space: w.space_key,
      org: caller.parentOrganization,
    });
  },

  "wiki.orgToken": (ctx, { caller }) =>
    token(ctx, { sub: caller.parentOrganization, scope: "wiki:organization" }),
});
