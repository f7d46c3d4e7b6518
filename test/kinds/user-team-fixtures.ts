/**
 * Shared by the User, UserService, Team and TeamMember tests: manifests from users.yaml, the
 * documents, one object's diff, and the helpers of test/helpers/kinds.ts bound to those four
 * kinds and the welcome mail (creates and updates in table order, deletes in reverse).
 */
import { diffObject } from "../../src/engine/diff.js";
import type { PlanEntry } from "../../src/engine/plan.js";
import type { DesiredObject, LiveObject, ResourceKind } from "../../src/kinds/kind.js";
import { teamKind } from "../../src/kinds/team.js";
import { teamMemberKind } from "../../src/kinds/team-member.js";
import { userKind } from "../../src/kinds/user.js";
import { userServiceKind } from "../../src/kinds/user-service.js";
import { welcomeKind } from "../../src/kinds/welcome.js";
import type { DesiredState } from "../../src/manifest/types.js";
import { diffContext, indent, kindHarness, loadAs } from "../helpers/kinds.js";

export const USER_TEAM_KINDS: readonly ResourceKind[] = [
  userKind,
  userServiceKind,
  welcomeKind,
  teamKind,
  teamMemberKind,
];

/** Desired state of manifests written inline as users.yaml (and phctl.yaml; `null`: none). */
export const load = (manifests: string, config?: string | null): DesiredState =>
  loadAs("users.yaml", manifests, config);

export const userDoc = (name: string, spec: string) =>
  `---\napiVersion: phctl/v1\nkind: User\nmetadata: { name: ${name} }\nspec:\n${indent(spec)}\n`;

export const teamDoc = (name: string, spec: string) =>
  `---\napiVersion: phctl/v1\nkind: Team\nmetadata: { name: ${name} }\nspec:\n${indent(spec)}\n`;

export const orgDoc = (name: string) =>
  `---\napiVersion: phctl/v1\nkind: Organization\nmetadata: { name: ${name} }\n`;

export function desiredOf(kind: ResourceKind, state: DesiredState, key: string): DesiredObject {
  const d = kind.desired(state).find((x) => x.key === key);
  if (!d) throw new Error(`no desired ${kind.kind} ${key}`);
  return d;
}

/** The live twin of a desired object (same key and fields), optionally changed. */
export function liveOf(d: DesiredObject, fields: Record<string, unknown> = {}): LiveObject {
  const same = Object.fromEntries(Object.entries(d.fields).filter(([, v]) => v !== undefined));
  return { key: d.key, fields: { ...same, ...fields }, ids: { parentOrganization: "acme" } };
}

/** The entries of one object's diff. */
export function diff(
  kind: ResourceKind,
  d: DesiredObject,
  l: LiveObject | undefined,
  state: DesiredState,
): PlanEntry[] {
  return diffObject(kind, d, l, diffContext(state));
}

/** Plan (with readLive), execute in table order, plan again: for the four user/team kinds. */
export const { planFor, execute, applyAndReplan } = kindHarness(USER_TEAM_KINDS);
