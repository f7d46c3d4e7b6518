/**
 * Cross-reference rules, run on the documents that passed their schemas. Each rule is one
 * small named function from the whole set of documents to diagnostics, registered in RULES
 * (a test checks that each has a fixture it fails).
 */
import type { Diagnostic } from "../types.js";
import { editorsNeedWiki, inactiveUsersWithAccess, projectHasAdmin } from "./access.js";
import { deprecatedServices, licenseIds } from "./catalogue.js";
import type { Rule, RuleContext } from "./context.js";
import { credentialValues } from "./credentials.js";
import {
  commitBlockerDomains,
  forkSources,
  mirrorDestinations,
  repositorySubgroupDeclared,
} from "./git.js";
import { duplicateIdentities, uniqueEmails, uniqueGroupPaths } from "./identity.js";

export type { Rule, RuleContext } from "./context.js";

/** Every rule, by name. */
export const RULES: Record<string, Rule> = {
  duplicateIdentities,
  uniqueEmails,
  uniqueGroupPaths,
  repositorySubgroupDeclared,
  forkSources,
  mirrorDestinations,
  commitBlockerDomains,
  editorsNeedWiki,
  inactiveUsersWithAccess,
  projectHasAdmin,
  deprecatedServices,
  licenseIds,
  credentialValues,
};

export function runRules(ctx: RuleContext): Diagnostic[] {
  return Object.values(RULES).flatMap((rule) => rule(ctx));
}
