/**
 * THE table of resource kinds, in dependency order (terraform-provider-github's provider.go
 * habit: one literal list). Adding a kind touches its file, its tests and this table.
 */
import type { ResourceKind } from "./kind.js";
import { organizationKind } from "./organization.js";

export const kinds: readonly ResourceKind[] = [organizationKind];

export function kindByName(name: string): ResourceKind | undefined {
  return kinds.find((k) => k.kind === name);
}
