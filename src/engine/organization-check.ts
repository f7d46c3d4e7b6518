/**
 * The configured organization against the token's: phctl.yaml's `organization:` must be the
 * token's parent organization (the organization list's entry without a parent). A token of
 * another organization would make every declared object a create and every live one "not
 * managed", and apply would send writes the service refuses — so plan, apply, drift and
 * export refuse first, having read the organization list alone.
 */
import { PhctlError } from "../errors.js";
import type { LiveOrganization } from "./readers.js";

/** The token's parent organization in the organization list, if the list names one. */
export const parentOf = (orgs: readonly LiveOrganization[]): string | undefined =>
  orgs.find((o) => o.parentOrganization === null)?.name;

/**
 * Refuse when `configured` (phctl.yaml's, or export's --organization; `where` names it) is not
 * the token's parent organization. A list without a parent entry says nothing: no refusal
 * (`phctl doctor` reports that list).
 */
export function checkOrganization(
  orgs: readonly LiveOrganization[],
  configured: string | undefined,
  where: string,
): void {
  const parent = parentOf(orgs);
  if (configured === undefined || parent === undefined || parent === configured) return;
  throw new PhctlError(
    "WRONG_ORGANIZATION",
    `${where} says organization ${configured}, but the token belongs to organization ${parent}: set organization: ${parent} there, or use a token of ${configured} (PHCTL_TOKEN or --token-file); nothing was read beyond the organization list`,
  );
}
