/**
 * Seeding: put a whole organization straight into the database (`--seed FILE`, POST
 * /_control/seed, benchmarks). Sections insert their own part, in order, in one transaction;
 * seeded objects are exactly what the API would have produced (same defaults, same URLs).
 */
import type { ServerContext } from "./context.js";
import { seedActivity, type SeedActivity } from "./activity.js";
import { sections } from "./routes/index.js";

export interface SeedOrganization {
  name: string;
  /** Parent organization name; omitted = a parent organization itself. */
  parent?: string;
  allowPersonalProjects?: boolean;
  maxPersonalProjects?: number;
  allowExternalContribution?: boolean;
}

export interface SeedServiceAccount {
  status?: string;
  personalProjectLimit?: number;
  mailplan?: "retention" | "non-retention";
  displayName?: string;
}

export interface SeedUser {
  username: string;
  firstName: string;
  lastName: string;
  displayName?: string;
  /** Main email; default externalEmail. */
  email?: string;
  externalEmail: string;
  /** Default: the parent organization. */
  organization?: string;
  parentOrganization?: string;
  role?: "member" | "projects-admin" | "users-admin" | "system-admin";
  status?: "active" | "inactive";
  /** ISO timestamp; default now. */
  dateCreated?: string;
  /** ISO timestamp of the last login; default none. */
  dateLastAccessed?: string;
  services?: Partial<
    Record<"git" | "artifactservice" | "servicedesk" | "email" | "irc" | "wiki", SeedServiceAccount>
  >;
}

export interface SeedTeam {
  name: string;
  parentOrganization?: string;
  gitservice?: boolean;
  artifactservice?: boolean;
  wiki?: boolean;
  members?: string[];
  /** Project slugs the team is associated with (there is no API for this association). */
  projects?: string[];
}

export interface SeedOrgTeam {
  organization: string;
  name: string;
  path: string;
}

export interface SeedRepository {
  name: string;
  /** Subgroup path; "" or omitted = the project group. */
  subgroup?: string;
  status?: "active" | "archived" | "deleted";
  issueTracking?: "enabled" | "private" | "disabled";
  mergeRequests?: "enabled" | "private" | "disabled";
  requiresDCO?: boolean;
  enableLFS?: boolean;
  enableForking?: boolean;
  /** Fork of a repository seeded earlier: project slug, subgroup path and name. */
  forkOf?: { project: string; subgroup?: string; name: string };
  commitBlocker?: { author?: string[]; committer?: string[]; since?: string | null };
  persistentStorage?: boolean;
  sizeBytes?: number;
  commits?: {
    sha: string;
    title: string;
    authorEmail: string;
    committerEmail?: string;
    refs?: string[];
    created?: string;
  }[];
}

export interface SeedMirror {
  repoURLFrom: string;
  repoURLTo: string;
  refSpaceFrom?: string;
  refSpaceTo?: string;
  frequency?: "once" | "daily" | "weekly";
  excludeTags?: boolean;
  notificationEmails?: string[];
  enabled?: boolean;
  status?: "pending" | "inactive" | "mirrored" | "in-progress" | "failed" | "deleted";
}

export interface SeedArtifactRepo {
  /** Short name; the live name is <org>-<project_id>-<name>. */
  name: string;
  repoType?: string;
  files?: { path: string; status?: "pending" | "active" | "inactive"; size?: number }[];
}

export interface SeedPipeline {
  status: string;
  ref: string;
  sha?: string;
  created?: string;
  duration?: number;
  bundle?: boolean;
  jobs?: { name: string; stage: string; status: string; duration?: number }[];
}

export interface SeedProject {
  slug: string;
  name: string;
  description?: string;
  visibility?: "public" | "private";
  status?: "active" | "inactive" | "archived";
  restrictionLevel?: string;
  externalContribution?: boolean;
  eccn?: string;
  /** Default: the parent organization. */
  organization?: string;
  parentOrganization?: string;
  licenses?: string[];
  access?: Partial<
    Record<
      "admins" | "controllers" | "editors" | "maintainers" | "developers" | "reporters",
      string[]
    >
  >;
  /** Organization team paths per level. */
  orgTeams?: Partial<Record<"maintainers" | "developers" | "reporters", string[]>>;
  wiki?: boolean;
  git?: {
    path?: string;
    requestAccessEnabled?: boolean;
    enableCi?: boolean;
    subgroups?: string[];
    repositories?: SeedRepository[];
    bundles?: { frequency: string; repository?: string }[];
  };
  mirrors?: SeedMirror[];
  artifacts?: SeedArtifactRepo[];
  pipelines?: SeedPipeline[];
}

/** A whole seed: what `--seed FILE` (JSON or YAML) holds. */
export interface SeedDocument {
  /** Parent organization of objects that name none; default: the first organization seeded or existing. */
  parentOrganization?: string;
  organizations?: SeedOrganization[];
  orgTeams?: SeedOrgTeam[];
  users?: SeedUser[];
  teams?: SeedTeam[];
  projects?: SeedProject[];
  /**
   * Synthetic last logins and pipelines (src/server/activity.ts) for the users and projects
   * of the parent organization that have none, once the rest is seeded.
   */
  activity?: SeedActivity;
}

export type SeedCounts = Record<string, number>;

/** Insert a seed document; returns how many objects of each kind were inserted. */
export function seed(ctx: ServerContext, doc: SeedDocument): SeedCounts {
  const counts: SeedCounts = {};
  ctx.db.tx(() => {
    for (const s of sections) s.seed?.(ctx, doc, counts);
    if (doc.activity) seedActivity(ctx, doc.activity, seedParentOrgId(ctx, doc), counts);
  });
  return counts;
}

/** The id of a parent organization named in a seed (the document's default when omitted). */
export function seedParentOrgId(ctx: ServerContext, doc: SeedDocument, name?: string): number {
  const wanted = name ?? doc.parentOrganization;
  const row = wanted
    ? ctx.db.get<{ id: number }>(
        "SELECT id FROM organizations WHERE name = ? AND parent_id IS NULL",
        wanted,
      )
    : ctx.db.get<{ id: number }>(
        "SELECT id FROM organizations WHERE parent_id IS NULL ORDER BY id LIMIT 1",
      );
  if (!row) throw new Error(`seed: parent organization ${wanted ?? "(none)"} does not exist`);
  return row.id;
}

/** The id of an organization named in a seed; throws a clear error when unknown. */
export function seedOrgId(ctx: ServerContext, name: string): number {
  const row = ctx.db.get<{ id: number }>("SELECT id FROM organizations WHERE name = ?", name);
  if (!row) throw new Error(`seed: organization ${name} does not exist`);
  return row.id;
}
