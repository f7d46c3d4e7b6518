/**
 * `POST /_control/seed` for a token confined to its parent organization: the seed goes into
 * that parent organization only. Every name a seed could use to reach another tenant is
 * checked before anything is inserted — the document's default parent organization, each
 * object's `parentOrganization`, new or updated organizations (a new parent organization
 * or another tenant's organization would change someone else's settings), organization
 * teams' organizations and fork sources — and refused with 403 naming the field.
 */
import type { ServerContext } from "./context.js";
import { forbidden } from "./errors.js";
import type { SeedDocument } from "./seed.js";

const same = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();

/** The seed confined to a parent organization: a copy naming it as the default. */
export function confineSeed(
  ctx: ServerContext,
  doc: SeedDocument,
  parentOrgId: number,
): SeedDocument {
  const row = ctx.db.get<{ name: string }>(
    "SELECT name FROM organizations WHERE id = ?",
    parentOrgId,
  );
  const name = row!.name;
  const refuse = (field: string, what: string) =>
    forbidden(`${field}: ${what}; this token may seed only into its parent organization ${name}`);
  const orgOf = (org: string) =>
    ctx.db.get<{ id: number; parent_id: number | null }>(
      "SELECT id, parent_id FROM organizations WHERE name = ?",
      org,
    );
  const inTenant = (org: string) => {
    const o = orgOf(org);
    return o !== undefined && (o.id === parentOrgId || o.parent_id === parentOrgId);
  };

  if (doc.parentOrganization !== undefined && !same(doc.parentOrganization, name))
    throw refuse("parentOrganization", `${doc.parentOrganization} is another parent organization`);
  const declared = new Set<string>([name.toLowerCase()]);
  for (const [i, o] of (doc.organizations ?? []).entries()) {
    const field = `organizations[${i}]`;
    if (o.parent === undefined && !same(o.name, name))
      throw refuse(field, `${o.name} would be a new parent organization`);
    if (o.parent !== undefined && !same(o.parent, name))
      throw refuse(`${field}.parent`, `${o.parent} is another parent organization`);
    if (orgOf(o.name) !== undefined && !inTenant(o.name))
      throw refuse(field, `${o.name} belongs to another parent organization`);
    declared.add(o.name.toLowerCase());
  }
  const parentFields: [string, { parentOrganization?: string }[] | undefined][] = [
    ["users", doc.users],
    ["teams", doc.teams],
    ["projects", doc.projects],
  ];
  for (const [kind, list] of parentFields) {
    for (const [i, x] of (list ?? []).entries()) {
      if (x.parentOrganization !== undefined && !same(x.parentOrganization, name))
        throw refuse(
          `${kind}[${i}].parentOrganization`,
          `${x.parentOrganization} is another parent organization`,
        );
    }
  }
  for (const [i, t] of (doc.orgTeams ?? []).entries()) {
    if (!declared.has(t.organization.toLowerCase()) && !inTenant(t.organization))
      throw refuse(
        `orgTeams[${i}].organization`,
        `${t.organization} is not an organization of ${name}`,
      );
  }
  const seeded = new Set((doc.projects ?? []).map((p) => p.slug));
  for (const [i, p] of (doc.projects ?? []).entries()) {
    for (const [j, r] of (p.git?.repositories ?? []).entries()) {
      const from = r.forkOf?.project;
      if (from === undefined || seeded.has(from)) continue;
      const owner = ctx.db.get<{ parent_org_id: number }>(
        "SELECT parent_org_id FROM projects WHERE slug = ?",
        from,
      );
      if (owner && owner.parent_org_id !== parentOrgId)
        throw refuse(
          `projects[${i}].git.repositories[${j}].forkOf.project`,
          `${from} is a project of another parent organization`,
        );
    }
  }
  return { ...doc, parentOrganization: name };
}
