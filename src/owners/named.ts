/**
 * Owners with their platform handles, for what asks people to review: a CODEOWNERS line,
 * the plan comment, reviewers of a pull request that `report access --propose` opens.
 */
import type { NamedOwners } from "./handles.js";
import type { OwnerIndex } from "./resolve.js";

/** The owners of an object (any key; a child's is its top-level object's), with handles. */
export const ownersOf = (index: OwnerIndex, key: string): NamedOwners =>
  index.named(index.ownersOf(key));

/** The owners of a config-relative file (it need not exist), with handles. */
export const ownersOfFile = (index: OwnerIndex, path: string): NamedOwners =>
  index.named(index.ownersOfFile(path));
