/**
 * Clone URLs → declared repositories. A fork source or mirror destination that points into a
 * declared project's git group (`<org>/[private/]<group>/<subgroups>/<repo>.git` on any host)
 * is resolved to that repository's key, so the plan can order the fork after its source
 * and validate can tell when the repository is not declared.
 */
import { repositoryKey } from "./keys.js";

/** The path of a clone URL without scheme, user, host and `.git`; undefined if not a URL. */
export function cloneUrlPath(url: string): string | undefined {
  const m = /^(?:https?|ssh):\/\/[^/\s]+\/(.+)$/.exec(url) ?? /^[^@\s]+@[^:\s/]+:(.+)$/.exec(url);
  if (!m?.[1]) return undefined;
  return m[1]
    .replace(/\/+$/, "")
    .replace(/\.git$/, "")
    .replace(/^\/+/, "");
}

export interface ProjectRepos {
  slug: string;
  /** The project's effective organization, when known. */
  organization: string | undefined;
  visibility: string;
  groupPath: string;
  /** Declared repositories: subgroup path ("" for the group) and name (asked for only when a URL points into the project). */
  repositories: () => readonly { subgroup: string; name: string }[];
}

export interface Resolved {
  /** The project whose group the URL points into. */
  slug: string;
  /** Repository path inside the group: `tools/ci/scripts`. */
  repoPath: string;
  /** The declared repository's key, if it is declared. */
  key?: string;
  /** Every declared repository path of that project (for hints). */
  declared: string[];
}

/** A project's declared repositories by lower-case path, and their paths (for hints). */
interface Declared {
  byPath: Map<string, { subgroup: string; name: string }>;
  paths: string[];
}

const fullPath = (r: { subgroup: string; name: string }) =>
  `${r.subgroup ? `${r.subgroup}/` : ""}${r.name}`;

export class RepositoryIndex {
  /** Projects by `<org>/<namespace>` (lower-case); `*` stands for an unknown organization. */
  private readonly byNamespace = new Map<string, ProjectRepos>();
  private readonly bySlug = new Map<string, ProjectRepos[]>();
  private readonly cache = new Map<string, Resolved | undefined>();
  /** Built on a project's first lookup: one pass over its repositories, not one per URL. */
  private readonly declared = new Map<ProjectRepos, Declared>();

  constructor(projects: readonly ProjectRepos[]) {
    for (const p of projects) {
      const ns = `${p.visibility === "private" ? "private/" : ""}${p.groupPath}`;
      const key = `${p.organization ?? "*"}/${ns}`.toLowerCase();
      if (!this.byNamespace.has(key)) this.byNamespace.set(key, p);
      const same = this.bySlug.get(p.slug);
      if (same) same.push(p);
      else this.bySlug.set(p.slug, [p]);
    }
  }

  /**
   * From now on, project `slug`'s declared repositories are these (in declaration order):
   * normalisation hands over each project's own, so the index no longer holds the parsed
   * document and normalisation can let it go.
   */
  settle(slug: string, repositories: readonly { subgroup: string; name: string }[]): void {
    for (const p of this.bySlug.get(slug) ?? []) p.repositories = () => repositories;
  }

  resolve(url: string): Resolved | undefined {
    if (this.cache.has(url)) return this.cache.get(url);
    const resolved = this.lookup(url);
    this.cache.set(url, resolved);
    return resolved;
  }

  private declaredIn(p: ProjectRepos): Declared {
    let d = this.declared.get(p);
    if (!d) {
      const repositories = p.repositories();
      d = { byPath: new Map(), paths: repositories.map(fullPath) };
      repositories.forEach((r, i) => {
        const path = d!.paths[i].toLowerCase();
        if (!d!.byPath.has(path)) d!.byPath.set(path, r);
      });
      this.declared.set(p, d);
    }
    return d;
  }

  private lookup(url: string): Resolved | undefined {
    const path = cloneUrlPath(url)?.toLowerCase();
    if (!path) return undefined;
    const [org, ...rest] = path.split("/");
    // The namespace is a prefix of the rest (a group path may itself contain slashes).
    for (let k = 1; k < rest.length; k++) {
      const ns = rest.slice(0, k).join("/");
      const p = this.byNamespace.get(`${org}/${ns}`) ?? this.byNamespace.get(`*/${ns}`);
      if (!p) continue;
      const repoPath = rest.slice(k).join("/");
      const { byPath, paths } = this.declaredIn(p);
      const hit = byPath.get(repoPath);
      const resolved: Resolved = { slug: p.slug, repoPath, declared: paths };
      if (hit) resolved.key = repositoryKey(p.slug, hit.subgroup, hit.name);
      return resolved;
    }
    return undefined;
  }
}
