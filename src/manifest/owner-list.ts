/**
 * Owners as written (`[alice]` or `{users, teams}`) → an OwnerList: the same shape wherever
 * owners are written (a Project's metadata, a Project layer, phctl.yaml), sorted and without
 * repeats, so two configs that say the same owners compare equal.
 */
import type { OwnersInput } from "./schema/owners.js";
import type { OwnerList } from "./types.js";

const sorted = (xs: readonly string[] | undefined) => [...new Set(xs ?? [])].sort();

export function ownerList(input: OwnersInput | undefined): OwnerList {
  if (input === undefined) return { users: [], teams: [] };
  if (Array.isArray(input)) return { users: sorted(input), teams: [] };
  return { users: sorted(input.users), teams: sorted(input.teams) };
}
