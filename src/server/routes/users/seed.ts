/**
 * Seeding of the users section: organization teams, users with their service accounts, and
 * user teams with their members (the projects section links teams to projects). Rows get
 * the same defaults the API would give them. It runs inside seed()'s transaction with
 * prepared statements, so 10,000 users take about a second.
 */
import type { ServerContext } from "../../context.js";
import { seedOrgId, seedParentOrgId, type SeedCounts, type SeedDocument } from "../../seed.js";
import { addCount } from "../section.js";
import { isoNow } from "../../store/db.js";

export function seedUsersSection(ctx: ServerContext, doc: SeedDocument, counts: SeedCounts): void {
  const now = isoNow(ctx.now());
  const parents = new Map<string | undefined, number>();
  const parentId = (name: string | undefined) => {
    let id = parents.get(name);
    if (id === undefined) parents.set(name, (id = seedParentOrgId(ctx, doc, name)));
    return id;
  };
  const orgs = new Map<string, { id: number; parent: number | null }>();
  const org = (name: string) => {
    let o = orgs.get(name);
    if (!o) {
      const id = seedOrgId(ctx, name);
      const row = ctx.db.get<{ parent_id: number | null }>(
        "SELECT parent_id FROM organizations WHERE id = ?",
        id,
      )!;
      orgs.set(name, (o = { id, parent: row.parent_id }));
    }
    return o;
  };

  const insertOrgTeam = ctx.db.q(
    "INSERT INTO org_teams (org_id, name, path, created) VALUES (?, ?, ?, ?)",
  );
  for (const t of doc.orgTeams ?? [])
    insertOrgTeam.run(org(t.organization).id, t.name, t.path, now);
  addCount(counts, "orgTeams", doc.orgTeams?.length ?? 0);

  const insertUser = ctx.db.q(
    `INSERT INTO users (username, first_name, last_name, display_name, email, external_email,
       parent_org_id, org_id, role, status, created, last_accessed)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertAccount = ctx.db.q(
    `INSERT INTO service_accounts (user_id, service, status, personal_project_limit, name,
       display_name, mailplan, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let accounts = 0;
  for (const u of doc.users ?? []) {
    const parent = parentId(u.parentOrganization);
    const o = u.organization ? org(u.organization) : { id: parent, parent: null };
    if (o.id !== parent && o.parent !== parent) {
      throw new Error(
        `seed: organization ${u.organization} of user ${u.username} is not under its parent organization`,
      );
    }
    const displayName = u.displayName ?? `${u.firstName} ${u.lastName}`;
    const id = insertUser.run(
      u.username,
      u.firstName,
      u.lastName,
      displayName,
      u.email ?? u.externalEmail,
      u.externalEmail,
      parent,
      o.id,
      u.role ?? "member",
      u.status ?? "active",
      u.dateCreated ?? now,
      u.dateLastAccessed ?? null,
    ).lastInsertRowid;
    for (const [service, a] of Object.entries(u.services ?? {})) {
      insertAccount.run(
        id,
        service,
        a.status ?? "active",
        service === "git" ? (a.personalProjectLimit ?? null) : null,
        service === "git" ? u.username : null,
        service === "servicedesk" || service === "irc" ? (a.displayName ?? displayName) : null,
        service === "email" ? (a.mailplan ?? "non-retention") : null,
        now,
      );
      accounts++;
    }
  }
  addCount(counts, "users", doc.users?.length ?? 0);
  addCount(counts, "serviceAccounts", accounts);

  const insertTeam = ctx.db.q(
    `INSERT INTO teams (parent_org_id, name, gitservice, artifactservice, wiki, created)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const userId = ctx.db.q("SELECT id FROM users WHERE username = ? AND parent_org_id = ?");
  const insertMember = ctx.db.q(
    "INSERT OR IGNORE INTO team_members (team_id, user_id) VALUES (?, ?)",
  );
  for (const t of doc.teams ?? []) {
    const parent = parentId(t.parentOrganization);
    const id = insertTeam.run(
      parent,
      t.name,
      t.gitservice ? 1 : 0,
      t.artifactservice ? 1 : 0,
      t.wiki ? 1 : 0,
      now,
    ).lastInsertRowid;
    for (const m of t.members ?? []) {
      const u = userId.get(m, parent) as { id: number } | undefined;
      if (!u) throw new Error(`seed: member ${m} of team ${t.name} does not exist`);
      insertMember.run(id, u.id);
    }
  }
  addCount(counts, "teams", doc.teams?.length ?? 0);
}
