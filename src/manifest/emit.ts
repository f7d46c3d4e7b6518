/**
 * DesiredState → manifest documents, every field explicit. Loading what this emits gives
 * the same state again (a tested property), which is what `export` needs: manifests from
 * live state that plan shows as "no changes".
 */
import { AccessLevels, TeamLevels, type AccessLevel } from "../api/schemas.js";
import { API_VERSION } from "./schema/common.js";
import type { ConfigDocument } from "./schema/config.js";
import type { OrganizationDocument } from "./schema/organization.js";
import type { ProjectDocument } from "./schema/project.js";
import type { TeamDocument } from "./schema/team.js";
import type { UserDocument } from "./schema/user.js";
import type { DesiredState, ManifestConfig, ProjectState, UserState } from "./types.js";

export type ManifestDocument = OrganizationDocument | UserDocument | TeamDocument | ProjectDocument;

function metadata(name: string, protect: boolean) {
  return protect ? { name, annotations: { "phctl/protect": "true" as const } } : { name };
}

/** An object without its undefined fields: those become optional (exactOptionalPropertyTypes). */
type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

const defined = <T extends object>(o: T): Defined<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Defined<T>;

function userDocument(u: UserState): UserDocument {
  const services: NonNullable<UserDocument["spec"]["services"]> = {};
  for (const [service, a] of Object.entries(u.services)) {
    const base = { status: a.status };
    if (service === "git")
      services.git = defined({ ...base, personalProjectLimit: a.personalProjectLimit });
    else if (service === "email") services.email = defined({ ...base, mailplan: a.mailplan });
    else services[service as "artifactservice" | "servicedesk" | "irc" | "wiki"] = base;
  }
  return {
    apiVersion: API_VERSION,
    kind: "User",
    metadata: metadata(u.username, u.protect),
    spec: defined({
      firstName: u.firstName,
      lastName: u.lastName,
      displayName: u.displayName,
      externalEmail: u.externalEmail,
      organization: u.organization,
      role: u.role,
      status: u.status,
      sendWelcome: u.sendWelcome,
      services,
    }),
  };
}

function projectDocument(p: ProjectState): ProjectDocument {
  const access: Partial<Record<AccessLevel, { users: string[]; organizationTeams?: string[] }>> =
    {};
  for (const level of AccessLevels) {
    const l = p.access[level];
    access[level] = (TeamLevels as readonly string[]).includes(level)
      ? { users: l.users, organizationTeams: l.organizationTeams }
      : { users: l.users };
  }
  const git = p.git && {
    group: {
      path: p.git.group.path,
      requestAccessEnabled: p.git.group.requestAccessEnabled,
      enableCi: p.git.group.enableCi,
    },
    subgroups: p.git.subgroups,
    repositories: p.git.repositories.map((r) =>
      defined({
        name: r.name,
        subgroup: r.subgroup,
        issueTracking: r.issueTracking,
        mergeRequests: r.mergeRequests,
        requiresDCO: r.requiresDCO,
        enableLFS: r.enableLFS,
        enableForking: r.enableForking,
        status: r.status,
        forkFrom: r.forkFrom,
        commitBlocker: r.commitBlocker,
        persistentStorage: r.persistentStorage,
        bundle: r.bundle,
      }),
    ),
    mirrors: p.git.mirrors.map((m) => ({
      from: m.from,
      to: m.to,
      refSpaceFrom: m.refSpaceFrom,
      refSpaceTo: m.refSpaceTo,
      frequency: m.frequency,
      excludeTags: m.excludeTags,
      enabled: m.enabled,
      notificationEmails: m.notificationEmails,
    })),
  };
  return {
    apiVersion: API_VERSION,
    kind: "Project",
    metadata: metadata(p.slug, p.protect),
    spec: defined({
      title: p.title,
      description: p.description,
      organization: p.organization,
      visibility: p.visibility,
      status: p.status,
      externalContribution: p.externalContribution,
      restrictionLevel: p.restrictionLevel,
      eccn: p.eccn,
      licenses: p.licenses,
      access,
      git,
      artifacts: {
        repositories: p.artifacts.repositories.map((a) => ({ name: a.name, type: a.type })),
      },
    }),
  };
}

export function configDocument(c: ManifestConfig): ConfigDocument {
  return defined({
    organization: c.organization,
    apiUrl: c.apiUrl,
    concurrency: c.concurrency,
    queueTimeout: `${c.queueTimeout}ms`,
    outageTimeout: `${c.outageTimeout}ms`,
    journal: c.journal,
    maxRemovals: c.maxRemovals,
    prune: { ...c.prune },
    ignore: c.ignore,
  });
}

/** Every object of the state as a manifest document, in dependency order. */
export function toManifests(state: DesiredState): ManifestDocument[] {
  return [
    ...state.organizations.map((o): OrganizationDocument => ({
      apiVersion: API_VERSION,
      kind: "Organization",
      metadata: metadata(o.name, o.protect),
    })),
    ...state.users.map(userDocument),
    ...state.teams.map((t): TeamDocument => ({
      apiVersion: API_VERSION,
      kind: "Team",
      metadata: metadata(t.name, t.protect),
      spec: { services: { ...t.services }, members: t.members },
    })),
    ...state.projects.map(projectDocument),
  ];
}
