/**
 * What adoption cannot write: live objects no manifest declares. Export writes them: each
 * is listed with the `phctl export --only` command that produces its declaration (the
 * whole document of a user, team, organization or project; for an object inside a
 * declared project, that project's document shows it).
 */
import type { Plan } from "../engine/plan.js";
import { topKeyOf } from "../engine/scope.js";

/** An entry or a live object adoption leaves as it is, and why. */
export interface NotAdoptable {
  key: string;
  kind: string;
  why: string;
  /** The command that writes its declaration, when one does. */
  command?: string;
}

const quote = (s: string) => (/^[A-Za-z0-9_./@:-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

/** The export command that writes the declaration of `key`'s top-level object. */
export function exportCommand(organization: string, key: string): string {
  const top = topKeyOf(key);
  return `phctl export --organization ${quote(organization)} --only ${quote(top)} --out phctl-export`;
}

/** The plan's not-managed objects, each with the export command that would declare it. */
export function unmanagedEntries(plan: Plan): NotAdoptable[] {
  return plan.unmanaged.map((u) => {
    const top = topKeyOf(u.key);
    const inside = top !== u.key;
    return {
      key: u.key,
      kind: u.kind,
      why: inside
        ? `not declared in ${top} (${u.note}); export writes ${top} as live has it`
        : `no manifest declares it; export writes its ${u.kind} document`,
      command: exportCommand(plan.organization, u.key),
    };
  });
}
