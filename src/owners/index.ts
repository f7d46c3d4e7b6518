/**
 * Owners of a config (issue 38): who owns each project and each file, the CODEOWNERS file
 * (GitHub and GitLab syntax), and whose approval a pull request's plan needs. Depends only on
 * src/manifest (the loaded state); the CLI (src/cli/owners.ts) reads and writes the files.
 */
export { approvalsFor, type OwnerApproval, type TouchedEntry } from "./approvals.js";
export {
  CODEOWNERS_FORMATS,
  firstDifference,
  listsOf,
  renderCodeowners,
  teamsWithoutHandle,
  type CodeownersFormat,
} from "./codeowners.js";
export { namedOwners, handlesOf, type NamedOwners, type Owner } from "./handles.js";
export { ownersOf, ownersOfFile } from "./named.js";
export {
  isEmptyOwners,
  OwnerIndex,
  unionOwners,
  type FileOwners,
  type OwnerInput,
  type OwnersFrom,
} from "./resolve.js";
