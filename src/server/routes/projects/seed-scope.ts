/**
 * What seeding a project resolves names against, per parent organization: users, organization
 * teams, organizations and projects, each loaded once on first use so a large seed does not
 * query per row. Unknown names throw a plain message the seed prefixes with the object.
 */
import type { ServerContext } from "../../context.js";
import type { OrgRow } from "../../store/lookups.js";

/** Lookups of one parent organization, loaded on first use. */
export class ParentScope {
  private users?: Map<string, number>;
  private orgTeams?: Map<string, number>;
  private orgs?: Map<string, OrgRow>;
  readonly projects = new Map<string, number>();

  constructor(
    private readonly ctx: ServerContext,
    readonly id: number,
  ) {}

  user(name: string): number {
    this.users ??= new Map(
      this.ctx.db
        .all<{ id: number; username: string }>(
          "SELECT id, username FROM users WHERE parent_org_id = ?",
          this.id,
        )
        .map((u) => [u.username, u.id]),
    );
    const id = this.users.get(name);
    if (id === undefined) throw new Error(`user ${name} does not exist`);
    return id;
  }

  orgTeam(path: string): number {
    this.orgTeams ??= new Map(
      this.ctx.db
        .all<{ id: number; path: string }>(
          `SELECT t.id, t.path FROM org_teams t JOIN organizations o ON o.id = t.org_id
           WHERE o.id = ? OR o.parent_id = ?`,
          this.id,
          this.id,
        )
        .map((t) => [t.path, t.id]),
    );
    const id = this.orgTeams.get(path);
    if (id === undefined) throw new Error(`organization team ${path} does not exist`);
    return id;
  }

  org(name: string | undefined): OrgRow {
    this.orgs ??= new Map(
      this.ctx.db
        .all<OrgRow>("SELECT * FROM organizations WHERE id = ? OR parent_id = ?", this.id, this.id)
        .map((o) => [o.name.toLowerCase(), o]),
    );
    const o =
      name === undefined
        ? [...this.orgs.values()].find((x) => x.id === this.id)
        : this.orgs.get(name.toLowerCase());
    if (!o) throw new Error(`organization ${name} does not exist in this parent organization`);
    return o;
  }

  project(slug: string): number {
    const id =
      this.projects.get(slug) ??
      this.ctx.db.get<{ id: number }>(
        "SELECT id FROM projects WHERE slug = ? AND parent_org_id = ?",
        slug,
        this.id,
      )?.id;
    if (id === undefined) throw new Error(`project ${slug} does not exist`);
    return id;
  }
}
