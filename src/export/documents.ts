/**
 * Live records (a Snapshot) → manifest documents as plain data, tidy: defaults omitted,
 * lists sorted, values normalised the way the loader and the kinds compare them, so that a
 * plan of the written manifests shows no changes. Each document carries the comments export
 * writes beside a value the API does not let phctl manage (ticket-only fields, values fixed
 * at creation, deprecated accounts), and warnings for what could not be exported faithfully.
 * Repositories, mirrors and artifact repositories are written by the item builders of
 * items.ts, which `drift --adopt` shares.
 */
import { AccessLevels, TeamLevels, type UserService } from "../api/schemas.js";
import type { LiveRepository, LiveServices } from "../engine/readers.js";
import { declaredName, livePrefix } from "../kinds/artifact-repo.js";
import { mirrorFields } from "../kinds/mirror.js";
import { recordFields } from "../kinds/repository-fields.js";
import { DEPRECATED_SERVICES } from "../manifest/normalise.js";
import { API_VERSION, DEFAULTS } from "../manifest/schema/common.js";
import { artifactItem, mirrorItem, repositoryItem } from "./items.js";
import type { ProjectSnapshot, Snapshot } from "./read.js";

/** A path inside a document, as the yaml library addresses nodes. */
export type NodePath = (string | number)[];

/** A comment on the line of the value at `path`. */
export interface NodeComment {
  path: NodePath;
  text: string;
}

/** One manifest document to write. */
export interface ExportDocument {
  kind: "Organization" | "User" | "Team" | "Project" | "Defaults";
  name: string;
  value: Record<string, unknown>;
  comments: NodeComment[];
}

export interface ExportDocuments {
  organizations: ExportDocument[];
  users: ExportDocument[];
  teams: ExportDocument[];
  projects: ExportDocument[];
  /** Defaults documents (`--factor`: factor.ts). */
  defaults?: ExportDocument[];
  /** Things exported with a caveat (printed by the CLI, listed in --format json). */
  warnings: string[];
}

const sorted = (xs: readonly string[]) => [...new Set(xs)].sort();

/** Set `key` only when `value` differs from the default (and is defined). */
function put(o: Record<string, unknown>, key: string, value: unknown, dflt?: unknown): void {
  if (value !== undefined && value !== dflt) o[key] = value;
}

const header = (kind: string, name: string) => ({
  apiVersion: API_VERSION,
  kind,
  metadata: { name },
});

const SERVICE_ORDER: readonly UserService[] = [
  "git",
  "artifactservice",
  "servicedesk",
  "email",
  "irc",
  "wiki",
];

function userDocument(
  s: Snapshot,
  u: Snapshot["users"][number],
  warnings: string[],
): ExportDocument {
  const { user } = u;
  const comments: NodeComment[] = [];
  const spec: Record<string, unknown> = {
    firstName: user.firstName,
    lastName: user.lastName,
  };
  // The service's default display name is "first last": only a different one is declared.
  put(spec, "displayName", user.displayName, `${user.firstName} ${user.lastName}`);
  spec.externalEmail = user.externalEmail;
  put(spec, "organization", user.organization, s.parent);
  put(spec, "role", user.role, DEFAULTS.user.role);
  put(spec, "status", user.status, DEFAULTS.user.status);
  const services = serviceAccounts(user.username, u.services, comments, warnings);
  if (Object.keys(services).length > 0) spec.services = services;
  return {
    kind: "User",
    name: user.username,
    value: { ...header("User", user.username), spec },
    comments,
  };
}

function serviceAccounts(
  username: string,
  rec: LiveServices | undefined,
  comments: NodeComment[],
  warnings: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!rec) return out;
  for (const service of SERVICE_ORDER) {
    const a = rec[service];
    if (!a) continue;
    if (a.status !== "active" && a.status !== "inactive") {
      // Not a status a manifest can declare: the account is left unmanaged.
      warnings.push(
        `user ${username}: the ${service} account has status ${a.status}; it is not exported (not managed)`,
      );
      continue;
    }
    const acc: Record<string, unknown> = {};
    put(acc, "status", a.status, DEFAULTS.service.status);
    if (service === "git") put(acc, "personalProjectLimit", a.personalProjectLimit ?? undefined);
    if (service === "email")
      put(acc, "mailplan", a.mailplan ?? DEFAULTS.service.mailplan, DEFAULTS.service.mailplan);
    out[service] = acc;
    if (DEPRECATED_SERVICES.includes(service))
      comments.push({
        path: ["spec", "services", service],
        text: `deprecated: the ${service} service is deprecated by the API (2026-02); it still works`,
      });
  }
  return out;
}

function teamDocument(t: Snapshot["teams"][number]): ExportDocument {
  const services: Record<string, unknown> = {};
  const comments: NodeComment[] = [];
  for (const flag of ["gitservice", "artifactservice", "wiki"] as const) {
    put(services, flag, t.services[flag], DEFAULTS.team.service);
    if (t.services[flag])
      comments.push({
        path: ["spec", "services", flag],
        text: "cannot be disabled through the API",
      });
  }
  const spec: Record<string, unknown> = {};
  if (Object.keys(services).length > 0) spec.services = services;
  if (t.userNames.length > 0) spec.members = sorted(t.userNames);
  return { kind: "Team", name: t.name, value: { ...header("Team", t.name), spec }, comments };
}

/** Subgroup paths without those another listed path implies (the loader adds parents back). */
function leafSubgroups(paths: readonly string[]): string[] {
  const all = sorted(paths);
  return all.filter((p) => !all.some((q) => q.startsWith(`${p}/`)));
}

function repository(
  s: Snapshot,
  slug: string,
  r: LiveRepository,
  at: NodePath,
  comments: NodeComment[],
  warnings: string[],
): Record<string, unknown> {
  let fork: string | null = null;
  if (r.gitSourceRepoID !== 0) {
    const source = s.repositoriesById.get(r.gitSourceRepoID);
    if (source) {
      fork = source.record.httpURI;
      comments.push({
        path: [...at, "forkFrom"],
        text: `fork of ${source.project}/${source.record.subgroups ? `${source.record.subgroups}/` : ""}${source.record.name}; fixed at creation`,
      });
    } else {
      warnings.push(
        `project ${slug}: repository ${r.name} is a fork of repository ${r.gitSourceRepoID}, which this token cannot read; forkFrom is left out (plan will show the fork as blocked)`,
      );
    }
  }
  const o = repositoryItem(recordFields(r, fork));
  if (o.status === "archived")
    comments.push({
      path: [...at, "status"],
      text: "archived (read-only); status: active restores it",
    });
  // The start as the service has it (the kinds compare it normalised).
  const since = r.commitBlocker?.since;
  if (since && isObject(o.commitBlocker)) o.commitBlocker.since = since;
  return o;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function gitSection(
  s: Snapshot,
  p: ProjectSnapshot,
  comments: NodeComment[],
  warnings: string[],
): Record<string, unknown> | undefined {
  const slug = p.detail.projectSlug;
  if (!p.group) return undefined;
  const git: Record<string, unknown> = {};
  const group: Record<string, unknown> = {};
  put(group, "path", p.group.path, slug);
  put(group, "requestAccessEnabled", p.group.request_access_enabled, false);
  put(group, "enableCi", p.group.enable_ci, false);
  if (group.path !== undefined)
    comments.push({
      path: ["spec", "git", "group", "path"],
      text: "chosen at creation; cannot change through the API",
    });
  if (Object.keys(group).length > 0) git.group = group;
  const subgroups = leafSubgroups(p.subgroups.map((g) => g.path));
  if (subgroups.length > 0) git.subgroups = subgroups;
  const repos = [...p.repositories].sort(
    (a, b) => cmp(a.subgroups, b.subgroups) || cmp(a.name, b.name) || a.gitRepoID - b.gitRepoID,
  );
  if (repos.length > 0)
    git.repositories = repos.map((r, i) =>
      repository(s, slug, r, ["spec", "git", "repositories", i], comments, warnings),
    );
  const mirrors: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  for (const m of [...p.mirrors].sort(
    (a, b) => cmp(a.repoURLTo, b.repoURLTo) || cmp(a.mirrorID, b.mirrorID),
  )) {
    if (seen.has(m.repoURLTo)) {
      warnings.push(
        `project ${slug}: mirror ${m.mirrorID} has the same destination as another (${m.repoURLTo}); only the first is exported`,
      );
      continue;
    }
    seen.add(m.repoURLTo);
    const o = mirrorItem(mirrorFields(m));
    comments.push({
      path: ["spec", "git", "mirrors", mirrors.length],
      text: "source, ref spaces and notification e-mails are fixed at creation",
    });
    mirrors.push(o);
  }
  if (mirrors.length > 0) git.mirrors = mirrors;
  return git;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function projectDocument(s: Snapshot, p: ProjectSnapshot, warnings: string[]): ExportDocument {
  const d = p.detail;
  const comments: NodeComment[] = [];
  const spec: Record<string, unknown> = { title: d.name };
  put(spec, "description", d.description, DEFAULTS.project.description);
  if (d.organization !== s.parent) {
    spec.organization = d.organization;
    comments.push({
      path: ["spec", "organization"],
      text: "moving a project to another organization is a support ticket",
    });
  }
  put(spec, "visibility", d.visibility, DEFAULTS.project.visibility);
  if (spec.visibility !== undefined)
    comments.push({
      path: ["spec", "visibility"],
      text: "changing visibility is a support ticket, not an API operation",
    });
  put(spec, "status", d.status, DEFAULTS.project.status);
  if (d.status === "archived")
    comments.push({
      path: ["spec", "status"],
      text: "archived (read-only); status: active restores it",
    });
  if (d.status === "inactive")
    comments.push({
      path: ["spec", "status"],
      text: "inactive cannot be reached or left through the API",
    });
  put(spec, "externalContribution", d.externalContribution, DEFAULTS.project.externalContribution);
  put(spec, "restrictionLevel", d.restrictionLevel || undefined);
  if (d.eccn) {
    spec.eccn = d.eccn;
    comments.push({
      path: ["spec", "eccn"],
      text: "set at creation; a change is a support ticket",
    });
  }
  if (d.licenses.length > 0) spec.licenses = sorted(d.licenses);
  const access: Record<string, unknown> = {};
  for (const level of AccessLevels) {
    const users = sorted(d.roles[level]);
    const teams = (TeamLevels as readonly string[]).includes(level)
      ? sorted(d.roles.organizationTeams[level as (typeof TeamLevels)[number]])
      : [];
    if (teams.length > 0) {
      access[level] =
        users.length > 0 ? { users, organizationTeams: teams } : { organizationTeams: teams };
      comments.push({
        path: ["spec", "access", level, "organizationTeams"],
        text: "organization teams are referenced, not declared: the API cannot create them",
      });
    } else if (users.length > 0) access[level] = users;
  }
  if (Object.keys(access).length > 0) spec.access = access;
  const git = gitSection(s, p, comments, warnings);
  if (git) spec.git = git;
  const prefix = livePrefix(d.organization, d.id);
  const artifacts = p.artifacts
    .map((a) => artifactItem(declaredName(a.name, prefix), a.repoType))
    .sort((a, b) => cmp(String(a.name), String(b.name)));
  if (artifacts.length > 0) spec.artifacts = { repositories: artifacts };
  return {
    kind: "Project",
    name: d.projectSlug,
    value: { ...header("Project", d.projectSlug), spec },
    comments,
  };
}

/** A customer organization: a name (created with POST when a service lacks it). */
const organizationDocument = (name: string): ExportDocument => ({
  kind: "Organization",
  name,
  value: header("Organization", name),
  comments: [],
});

/** Every document of the snapshot, each list sorted by name. */
export function toDocuments(s: Snapshot): ExportDocuments {
  const warnings: string[] = [];
  return {
    organizations: s.organizations.map(organizationDocument),
    users: s.users.map((u) => userDocument(s, u, warnings)),
    teams: s.teams.map(teamDocument),
    projects: s.projects.map((p) => projectDocument(s, p, warnings)),
    warnings,
  };
}
