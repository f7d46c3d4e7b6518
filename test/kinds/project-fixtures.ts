/**
 * Shared by the project kinds' tests: the four project kinds, a DiffContext with a license
 * catalogue and an organization team, and the helpers of test/helpers/kinds.ts bound to those
 * kinds (creates and updates in table order, deletes in reverse).
 */
import type { DesiredObject, DiffContext, ResourceKind } from "../../src/kinds/kind.js";
import { projectKind } from "../../src/kinds/project.js";
import { projectAccessKind } from "../../src/kinds/project-access.js";
import { projectLicenseKind } from "../../src/kinds/project-license.js";
import { projectTeamAccessKind } from "../../src/kinds/project-team-access.js";
import type { DesiredState } from "../../src/manifest/types.js";
import { diffContext as emptyDiffContext, kindHarness } from "../helpers/kinds.js";

export const PROJECT_KINDS: readonly ResourceKind[] = [
  projectKind,
  projectLicenseKind,
  projectAccessKind,
  projectTeamAccessKind,
];

/** A DiffContext where Apache-2.0, BSD-3-Clause and MIT exist, and acme/firmware-leads. */
export function diffContext(state: DesiredState, o: Partial<DiffContext> = {}): DiffContext {
  return emptyDiffContext(state, {
    licenses: new Set(["Apache-2.0", "BSD-3-Clause", "MIT"]),
    orgTeams: new Set(["acme/firmware-leads"]),
    ...o,
  });
}

export function desiredByKey(kind: ResourceKind, state: DesiredState): Map<string, DesiredObject> {
  return new Map(kind.desired(state).map((d) => [d.key, d]));
}

/** Plan (with readLive), execute in table order, plan again: for the four project kinds. */
export const { planFor, execute, applyAndReplan } = kindHarness(PROJECT_KINDS);
