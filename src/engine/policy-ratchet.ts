/**
 * The ratchet over a plan (issue 35): each violation of a `ratchet` rule is judged against
 * the state the change starts from (src/policy/ratchet.ts says how), so that plan and apply
 * stop only what the change makes new or worse, and report the rest as debt.
 *
 * What the change starts from:
 * - `plan --base`: the base config. The head's ratchet rules run on the base's documents of
 *   the objects they broke, so a policy added or moved to ratchet in the same change finds
 *   its violations already there, and an object the change adds is new.
 * - a full plan (plan, apply, drift): live state. An object the plan leaves unchanged is, as
 *   far as phctl manages it, what its document says: its violations are there already. An
 *   object the plan changes is turned back into what live has — its document with each of its
 *   plan entries undone, the edits `drift --adopt` makes (src/adopt/live-documents.ts, given
 *   by the caller as `liveDocuments`) — and the rules
 *   run on that. An object absent live, or an entry with no place in the manifest, gives no
 *   live document: its violations are new (nothing unjudged passes as debt).
 * Change rules judge a change, so theirs are always new; live rules judge what is live, so
 * theirs are always debt. Pure.
 */
import type { ValidDoc } from "../manifest/check.js";
import { evaluateObjects, RatchetBaseline, type CompiledPolicy } from "../policy/index.js";
import type { PlanEntry, PolicyViolation } from "./plan.js";

/** What the ratchet needs besides the plan's violations. */
export interface RatchetInput {
  policies: readonly CompiledPolicy[];
  /** The head config's effective documents (after Defaults). */
  docs: readonly ValidDoc[];
  /** `plan --base`: the base config's effective documents; else live state is the baseline. */
  baseDocs?: readonly ValidDoc[] | undefined;
  entries: readonly PlanEntry[];
  organization?: string | undefined;
  now: Date;
  /** A full plan: the changed documents as live has them (see LiveDocuments). */
  liveDocuments?: LiveDocuments | undefined;
}

const KINDS: Record<string, string> = {
  project: "Project",
  user: "User",
  team: "Team",
};

/** The document an object key belongs to: `project/p/repo/r` → `Project/p`. */
export function documentOfKey(key: string): string | undefined {
  const [type, name] = key.split("/");
  const kind = KINDS[type ?? ""];
  return kind && name ? `${kind}/${name}` : undefined;
}

export const idOf = (d: ValidDoc) => `${d.kind}/${d.name}`;

/**
 * The documents a plan changes as live has them: each with its plan entries undone; null when
 * the object is absent live or an entry cannot be undone. Documents no entry touches are not
 * in the map. Given by the caller (src/adopt/live-documents.ts: the edits `drift --adopt`
 * makes), so the engine depends on no room above it; without it, every changed document's
 * violations are new (nothing unjudged passes as debt).
 */
export type LiveDocuments = (
  docs: readonly ValidDoc[],
  entries: readonly PlanEntry[],
  organization: string | undefined,
) => Map<string, ValidDoc | null>;

/**
 * Set `ratchet` (and `was`) on every ratchet violation of `vs` (mutated): existing, worsened
 * or new against the baseline.
 */
export function judgeRatchet(vs: PolicyViolation[], o: RatchetInput): void {
  const todo = vs.filter((v) => v.enforcement === "ratchet" && !v.exception);
  if (todo.length === 0) return;
  const objectRules = todo.filter((v) => v.scope === "object");
  // Full plan: the documents the plan changes, as live has them; the others are live as declared.
  const live = o.baseDocs
    ? undefined
    : (o.liveDocuments?.(o.docs, o.entries, o.organization) ?? new Map<string, ValidDoc | null>());
  const changed = new Set(o.entries.map((e) => documentOfKey(e.key)));
  const baseline = new RatchetBaseline(baselineViolations(objectRules, o, live));
  for (const v of todo) {
    if (v.scope === "change") v.ratchet = "new";
    else if (v.scope === "live") v.ratchet = "existing";
    else if (live && !changed.has(documentOfKey(v.key))) v.ratchet = "existing";
    else {
      const j = baseline.judge(v);
      v.ratchet = j.status;
      if (j.was !== undefined) v.was = j.was;
    }
  }
}

/**
 * The ratchet rules' violations in the baseline, on the documents of `vs`' objects (and every
 * User: rules read `users`).
 */
function baselineViolations(
  vs: readonly PolicyViolation[],
  o: RatchetInput,
  live: ReadonlyMap<string, ValidDoc | null> | undefined,
) {
  if (vs.length === 0) return [];
  const names = new Set(vs.map((v) => v.policy));
  const policies = o.policies.filter((p) => p.scope === "object" && names.has(p.name));
  const wanted = new Set(vs.map((v) => documentOfKey(v.key)));
  let docs: ValidDoc[];
  if (!live) {
    docs = (o.baseDocs ?? []).filter((d) => d.kind === "User" || wanted.has(idOf(d)));
  } else {
    docs = [];
    for (const d of o.docs) {
      const id = idOf(d);
      // Only the changed documents need judging: the others are live as declared.
      if (d.kind !== "User" && !(wanted.has(id) && live.has(id))) continue;
      const l = live.has(id) ? live.get(id) : d;
      if (l) docs.push(l);
    }
  }
  const found = evaluateObjects(policies, docs, o.now, {
    ...(o.organization !== undefined ? { organization: o.organization } : {}),
  });
  return found.violations;
}
