/** A valid Project document → ProjectState (access, git, artifacts), recording sources. */
import { AccessLevels } from "../api/schemas.js";
import type { ValidDoc } from "./check.js";
import { DeclaredRepository, word } from "./declared-repository.js";
import * as K from "./keys.js";
import { byKey, isProtected, sortedSet, type References, type SourceMap } from "./collect.js";
import type { FieldPath } from "./positions.js";
import type { RepositoryIndex } from "./resolve.js";
import { ownerList } from "./owner-list.js";
import { DEFAULTS } from "./schema/common.js";
import { grantee } from "./schema/expires.js";
import type {
  AccessList,
  ArtifactRepoState,
  GitState,
  ManifestConfig,
  MirrorState,
  ProjectAccess,
  ProjectState,
  RepositoryState,
} from "./types.js";

type ProjectDoc = ValidDoc<"Project">;

interface Context {
  sources: SourceMap;
  users: References;
  index: RepositoryIndex;
  /** The document is the caller's to spend: its parsed repositories are dropped as read. */
  release?: boolean;
}

/** Every parent of each path, plus the path: `tools/ci` → `tools`, `tools/ci`. */
export function withParents(paths: readonly string[]): string[] {
  const all = new Set<string>();
  for (const p of paths) {
    const segs = p.split("/");
    for (let i = 1; i <= segs.length; i++) all.add(segs.slice(0, i).join("/"));
  }
  return [...all].sort();
}

function normaliseAccess(d: ProjectDoc, ctx: Context): ProjectAccess {
  const slug = d.name;
  const access = {} as ProjectAccess;
  for (const level of AccessLevels) {
    const input = d.value.spec.access?.[level];
    const short = Array.isArray(input);
    const userItems = short ? input : (input?.users ?? []);
    const teamItems = short ? [] : (input?.organizationTeams ?? []);
    const base: FieldPath = ["spec", "access", level];
    const users = userItems.map((item, i) => {
      const u = grantee(item);
      const at = d.handle.at(short ? [...base, i] : [...base, "users", i]);
      ctx.sources.set(K.accessUserKey(slug, level, u), at);
      ctx.users.add(u, at);
      return u;
    });
    const teams = teamItems.map((item, i) => {
      const t = grantee(item);
      ctx.sources.set(
        K.accessTeamKey(slug, level, t),
        d.handle.at([...base, "organizationTeams", i]),
      );
      return t;
    });
    const list: AccessList = { users: sortedSet(users), organizationTeams: sortedSet(teams) };
    access[level] = list;
  }
  return access;
}

function normaliseGit(d: ProjectDoc, ctx: Context): GitState | undefined {
  const git = d.value.spec.git;
  const slug = d.name;
  if (!git) {
    ctx.index.settle(slug, []);
    return undefined;
  }
  const R = DEFAULTS.repository;
  const group = {
    key: K.groupKey(slug),
    path: git.group?.path ?? slug,
    requestAccessEnabled: git.group?.requestAccessEnabled ?? DEFAULTS.group.requestAccessEnabled,
    enableCi: git.group?.enableCi ?? DEFAULTS.group.enableCi,
    source: d.handle.at(git.group ? ["spec", "git", "group"] : ["spec", "git"], "key"),
  };
  ctx.sources.set(group.key, group.source);
  const declared = git.subgroups ?? [];
  declared.forEach((s, i) =>
    ctx.sources.set(K.subgroupKey(slug, s), d.handle.at(["spec", "git", "subgroups", i])),
  );
  const subgroups = withParents(declared);
  // An implied parent is where the first subgroup under it is declared.
  const firstUnder = new Map<string, string>();
  for (const c of declared) {
    const segs = c.split("/");
    for (let i = 1; i <= segs.length; i++) {
      const p = segs.slice(0, i).join("/");
      if (!firstUnder.has(p)) firstUnder.set(p, c);
    }
  }
  for (const s of subgroups) {
    const at = ctx.sources.get(K.subgroupKey(slug, firstUnder.get(s) ?? s));
    if (at) ctx.sources.set(K.subgroupKey(slug, s), at);
  }
  // Every repository in declaration order; also for the repository index (fork sources,
  // mirror destinations in later documents), which then no longer needs this document.
  const raw = git.repositories ?? [];
  // Sized up front: growing it by push would leave copies for the collector at 100,000s.
  const declaredRepos = new Array<RepositoryState>(raw.length);
  // The subgroup strings of the state, shared by its repositories.
  const subgroupOf = new Map(subgroups.map((p) => [p, p]));
  // A key already in the sources was declared before (the first declaration wins).
  const seen = (key: string) => ctx.sources.get(key) !== undefined;
  raw.forEach((r, i) => {
    const subgroup =
      r.subgroup === undefined ? R.subgroup : (subgroupOf.get(r.subgroup) ?? r.subgroup);
    const repo: RepositoryState = new DeclaredRepository(
      K.repositoryKey(slug, subgroup, r.name),
      r.name,
      subgroup,
      word(r.issueTracking ?? R.issueTracking),
      word(r.mergeRequests ?? R.mergeRequests),
      r.requiresDCO ?? R.requiresDCO,
      r.enableLFS ?? R.enableLFS,
      r.enableForking ?? R.enableForking,
      word(r.status ?? R.status),
      r.persistentStorage ?? R.persistentStorage,
      d.handle.at(["spec", "git", "repositories", i]),
    );
    if (r.forkFrom !== undefined) repo.forkFrom = r.forkFrom;
    if (r.commitBlocker) {
      const lower = (xs?: string[]) => sortedSet((xs ?? []).map((x) => x.toLowerCase()));
      repo.commitBlocker = {
        author: lower(r.commitBlocker.author),
        committer: lower(r.commitBlocker.committer),
        since: r.commitBlocker.since ?? null,
      };
    }
    if (r.bundle) repo.bundle = { frequency: r.bundle.frequency };
    declaredRepos[i] = repo;
    // Spent: the parsed item can go now (one document may hold 100,000s of them).
    if (ctx.release) (raw as unknown[])[i] = undefined;
  });
  ctx.index.settle(slug, declaredRepos);
  // Fork sources once every repository of this project is known to the index.
  for (const repo of declaredRepos) {
    if (repo.forkFrom === undefined) continue;
    const key = ctx.index.resolve(repo.forkFrom)?.key;
    if (key !== undefined && key !== repo.key) repo.forkFromKey = key;
  }
  // Sorted by key, the first declaration of a key first (a stable sort); later ones dropped.
  // A repository's source is its own (DeclaredSources): no entry in the sources.
  const repositories = [...declaredRepos].sort(byKey);
  let kept = 0;
  for (const r of repositories)
    if (kept === 0 || repositories[kept - 1].key !== r.key) repositories[kept++] = r;
  repositories.length = kept;
  const mirrors: MirrorState[] = [];
  (git.mirrors ?? []).forEach((m, i) => {
    const mirror: MirrorState = {
      key: K.mirrorKey(slug, m.to),
      from: m.from,
      to: m.to,
      refSpaceFrom: m.refSpaceFrom,
      refSpaceTo: m.refSpaceTo,
      frequency: m.frequency,
      excludeTags: m.excludeTags ?? DEFAULTS.mirror.excludeTags,
      enabled: m.enabled ?? DEFAULTS.mirror.enabled,
      notificationEmails: sortedSet(m.notificationEmails),
      source: d.handle.at(["spec", "git", "mirrors", i]),
    };
    const toKey = ctx.index.resolve(m.to)?.key;
    if (toKey !== undefined) mirror.toKey = toKey;
    if (!seen(mirror.key)) mirrors.push(mirror);
    ctx.sources.set(mirror.key, mirror.source);
  });
  return { group, subgroups, repositories, mirrors: mirrors.sort(byKey) };
}

export function normaliseProject(
  d: ProjectDoc,
  config: ManifestConfig,
  ctx: Context,
): ProjectState {
  const s = d.value.spec;
  const slug = d.name;
  const P = DEFAULTS.project;
  const licenses = s.licenses ?? [];
  licenses.forEach((l, i) =>
    ctx.sources.set(K.licenseKey(slug, l), d.handle.at(["spec", "licenses", i])),
  );
  const artifacts: ArtifactRepoState[] = [];
  (s.artifacts?.repositories ?? []).forEach((a, i) => {
    const name = a.name ?? slug;
    const repo: ArtifactRepoState = {
      key: K.artifactRepoKey(slug, name),
      name,
      type: a.type ?? DEFAULTS.artifactRepository.type,
      source: d.handle.at(["spec", "artifacts", "repositories", i]),
    };
    if (ctx.sources.get(repo.key) === undefined) artifacts.push(repo);
    ctx.sources.set(repo.key, repo.source);
  });
  const project: ProjectState = {
    key: K.projectKey(slug),
    slug,
    title: s.title,
    description: s.description ?? P.description,
    visibility: s.visibility ?? P.visibility,
    status: s.status ?? P.status,
    externalContribution: s.externalContribution ?? P.externalContribution,
    licenses: sortedSet(licenses),
    access: normaliseAccess(d, ctx),
    artifacts: { repositories: artifacts.sort(byKey) },
    protect: isProtected(d),
    source: d.handle.start,
  };
  const organization = s.organization ?? config.organization;
  if (organization !== undefined) project.organization = organization;
  if (s.restrictionLevel !== undefined) project.restrictionLevel = s.restrictionLevel;
  if (s.eccn !== undefined) project.eccn = s.eccn;
  const owners = d.value.metadata.owners;
  if (owners !== undefined) project.owners = ownerList(owners);
  const git = normaliseGit(d, ctx);
  if (git) project.git = git;
  return project;
}
