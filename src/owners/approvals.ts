/**
 * Whose approval a pull request needs, per object it touches: the owners of the files whose
 * edits change the object (each plan entry's source: with `plan --base`, the document whose
 * edit caused it — a project's own file, or the Defaults layer that changed it). The owners
 * are the base config's: GitHub and GitLab both read the CODEOWNERS of the target branch, so a
 * pull request that changes owners is approved by the owners it changes, not by the new ones.
 * A file the base does not have is owned as a new file there (its folder's, else the default).
 */
import { topKeyOf } from "../manifest/keys.js";
import { handlesOf } from "./handles.js";
import { unionOwners, type OwnerIndex } from "./resolve.js";

/** One object a plan touches and whose approval it needs (the plan's `owners`). */
export interface OwnerApproval {
  /** The top-level object: `project/SLUG`, `user/NAME`, `team/NAME`, `organization/NAME`. */
  key: string;
  /** The files its changes are written in, as the plan names them, sorted. */
  files: string[];
  users: string[];
  teams: string[];
  /** The platform handles of those users and teams (phctl.yaml `owners.handles`). */
  handles: string[];
}

/** The part of a plan entry approvals read. */
export interface TouchedEntry {
  key: string;
  source: { file: string } | null;
}

/**
 * The owners to approve each top-level object the entries touch, sorted by key. `base` is
 * the target branch's config, `head` the change's: a path is placed under whichever root
 * holds it (a removed layer is at the base's line).
 */
export function approvalsFor(
  entries: readonly TouchedEntry[],
  base: OwnerIndex,
  head: OwnerIndex,
): OwnerApproval[] {
  const files = new Map<string, Set<string>>();
  for (const e of entries) {
    const key = topKeyOf(e.key);
    let set = files.get(key);
    if (!set) files.set(key, (set = new Set()));
    if (e.source) set.add(e.source.file);
  }
  const configPath = (file: string) => {
    const h = head.path(file);
    return h.startsWith("../") ? base.path(file) : h;
  };
  return [...files.keys()].sort().map((key) => {
    const shown = [...files.get(key)!].sort();
    // An entry without a source (nothing declares it): the file that declared the object.
    const paths = shown.length > 0 ? shown.map(configPath) : [base.fileOf(key) ?? head.fileOf(key)];
    const owners = unionOwners(
      paths.map((p) => (p === undefined ? base.default : base.ownersOfFile(p))),
    );
    return {
      key,
      files: shown,
      ...owners,
      handles: handlesOf(base.named(owners)),
    };
  });
}
