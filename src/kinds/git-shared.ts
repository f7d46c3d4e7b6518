/**
 * What the git and artifact kinds (GitGroup, Subgroup, Repository, Mirror, ArtifactRepo)
 * share: the project slug of a child key, the declared projects that manage their git side,
 * clone-URL comparison, and the `notes` a mirror enable/disable carries.
 */
import { projectOf, type PlanEntry } from "../engine/plan.js";
import { cloneUrlPath } from "../manifest/resolve.js";
import type { DesiredState, GitState, ProjectState } from "../manifest/types.js";

/** The project slug of a child key (`project/<slug>/…`); every key of these kinds has one. */
export function slugOfKey(key: string): string {
  const slug = projectOf(key);
  if (slug === undefined) throw new Error(`internal: ${key} is not a key under a project`);
  return slug;
}

/** A declared project with a `git` section (only those have their git side managed). */
export type GitProject = ProjectState & { git: GitState };

export function gitProjects(state: DesiredState): GitProject[] {
  return state.projects.filter((p): p is GitProject => p.git !== undefined);
}

/** The path of a clone URL, lower-case, without host, user, scheme and `.git`. */
export function repoPathOf(url: string): string | undefined {
  return cloneUrlPath(url.trim())?.toLowerCase();
}

/** Do two clone URLs (https or ssh, with or without `.git`) name the same repository path? */
export function sameRepository(a: string, b: string): boolean {
  const pa = repoPathOf(a);
  return pa !== undefined && pa === repoPathOf(b);
}

/** The `notes` of a mirror enable/disable: who asked, naming the manifest line. */
export function mirrorNotes(entry: PlanEntry): string {
  const where = entry.source ? `${entry.source.file}:${entry.source.line}` : "the manifests";
  return `phctl apply: ${where}`;
}
