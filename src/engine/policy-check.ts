/**
 * The organization's policies over a plan (issue 29): the object rules' violations (found
 * by the load, on the declared objects; a scoped plan keeps those of its scope), change rules
 * on every plan entry — deletes, tickets and blocked entries too — and, for `drift`, live
 * rules on every live object of the four selectable kinds, managed or not. The result is the
 * plan's `violations`, plain data for the renderers; violations of `ratchet` rules are judged
 * new, worsened or existing (policy-ratchet.ts). Pure, given the clock.
 */
import type { CompiledPolicy, ChangeInput, LiveInput, Violation } from "../policy/index.js";
import { evaluateChanges, evaluateLive, targetOfKey, usersOf } from "../policy/index.js";
import { isAbsolute, relative, sep } from "node:path";
import type { DesiredState, Source } from "../manifest/types.js";
import type { LiveObject } from "../kinds/kind.js";
import type { Plan, PlanEntry, PolicyViolation, SourceRef } from "./plan.js";
import { topKeyOf } from "../manifest/keys.js";
import type { ValidDoc } from "../manifest/check.js";
import { judgeRatchet, type LiveDocuments } from "./policy-ratchet.js";

/** What a plan is checked against. */
export interface PlanPolicies {
  policies: readonly CompiledPolicy[];
  /** The object rules' violations, from the load (LoadResult.violations). */
  objects: readonly Violation[];
  /** Run live rules too (`drift`). */
  live?: boolean;
  /** Today, for exceptions (the load's). */
  now: Date;
  /** The config's effective documents: a full plan judges ratchet rules on them as live has them. */
  docs?: readonly ValidDoc[];
  /** `plan --base`: the base config's effective documents, what ratchet rules are judged against. */
  baseDocs?: readonly ValidDoc[];
  /** A full plan: the changed documents as live has them (src/adopt/live-documents.ts). */
  liveDocuments?: LiveDocuments;
  /**
   * The config's root as the sources name it (phctl.yaml's directory, relative to the working
   * directory), then the base config's (`plan --base`: a removal is located in the base):
   * change rules read `change.file` relative to the first that holds the file.
   */
  roots?: readonly string[];
  /** The declared users change rules read as `users` (the effective User documents). */
  users?: () => ReadonlyMap<string, unknown>;
}

/**
 * `file` relative to the config's root, with `/` separators: what a restriction names
 * (`projects/tf-a/access.yaml`), whatever directory the command ran from. A file outside the
 * root keeps the name the sources give it.
 */
export function configRelative(roots: readonly string[] | undefined, file: string): string {
  let inside = file;
  for (const root of roots ?? []) {
    const r = root === "" || root === "." ? file : relative(root, file);
    if (r === "" || r.startsWith("..") || isAbsolute(r)) continue;
    inside = r;
    break;
  }
  return sep === "/" ? inside : inside.split(sep).join("/");
}

/** Labels and organization of each declared top-level object, for selectors. */
function declaredIndex(state: DesiredState) {
  const index = new Map<string, { labels?: Record<string, string>; organization?: string }>();
  const add = (key: string, labels?: Readonly<Record<string, string>>, organization?: string) =>
    index.set(key, {
      ...(labels ? { labels: { ...labels } } : {}),
      ...(organization !== undefined ? { organization } : {}),
    });
  for (const p of state.projects) add(p.key, p.labels, p.organization ?? state.config.organization);
  for (const u of state.users) add(u.key, u.labels, u.organization ?? state.config.organization);
  for (const t of state.teams) add(t.key, t.labels, state.config.organization);
  return index;
}

const sourceOf = (s: SourceRef | null | undefined): Source | undefined =>
  s ? { file: s.file, line: s.line, column: s.column ?? 1 } : undefined;

/** A plan entry as a change rule sees it; labels and organization of the object it touches. */
export function changeInput(
  e: PlanEntry,
  index: ReturnType<typeof declaredIndex>,
  organization?: string,
  roots?: readonly string[],
): ChangeInput {
  const of = index.get(topKeyOf(e.key));
  const org = of?.organization ?? organization;
  const source = sourceOf(e.source);
  return {
    action: e.action,
    kind: e.kind,
    key: e.key,
    before: e.before,
    after: e.after,
    fields: e.changes.map((c) => c.field),
    ...(source ? { source, file: configRelative(roots, source.file) } : {}),
    ...(e.layer !== undefined ? { layer: e.layer } : {}),
    ...(of?.labels ? { labels: of.labels } : {}),
    ...(org !== undefined && org !== "" ? { organization: org } : {}),
  };
}

/** The live objects live rules see: projects, repositories, users and teams, managed or not. */
function liveInputs(
  live: ReadonlyMap<string, readonly LiveObject[]>,
  state: DesiredState,
  index: ReturnType<typeof declaredIndex>,
  organization?: string,
): LiveInput[] {
  const out: LiveInput[] = [];
  for (const kind of ["Project", "Repository", "User", "Team"] as const)
    for (const l of live.get(kind) ?? []) {
      const of = index.get(topKeyOf(l.key));
      const target = targetOfKey(l.key, of?.labels, of?.organization ?? organization);
      if (target?.kind !== kind) continue;
      const source = state.sources.get(l.key);
      out.push({
        kind,
        key: l.key,
        object: l.fields,
        name: target.name,
        ...(target.organization !== undefined ? { organization: target.organization } : {}),
        ...(of?.labels ? { labels: of.labels } : {}),
        ...(target.repository ? { repository: target.repository } : {}),
        ...(source ? { source } : {}),
      });
    }
  return out;
}

/** A violation as the plan carries it. */
export function planViolation(v: Violation, managed?: boolean): PolicyViolation {
  const src = (s: Source) => ({ file: s.file, line: s.line, column: s.column });
  const x = v.exception;
  return {
    policy: v.policy,
    rule: v.rule,
    enforcement: v.enforcement,
    scope: v.scope,
    key: v.key,
    kind: v.kind,
    ...(managed !== undefined ? { managed } : {}),
    source: v.source ? src(v.source) : null,
    ruleSource: src(v.ruleSource),
    message: v.message,
    ...(v.ratchet !== undefined ? { ratchet: v.ratchet } : {}),
    ...(v.was !== undefined ? { was: v.was } : {}),
    ...(v.evaluationError !== undefined ? { evaluationError: v.evaluationError } : {}),
    ...(x && x.status !== "expired"
      ? {
          exception: {
            policy: v.policy,
            key: x.key,
            ...(x.rules ? { rules: [...x.rules] } : {}),
            reason: x.reason,
            expires: x.expires,
            approvedBy: x.approvedBy,
            source: src(x.source),
            status: x.status,
          },
        }
      : {}),
  };
}

/** Inside a scoped plan's scope (every key when the plan is not scoped). */
function inScope(plan: Pick<Plan, "scope">): (key: string) => boolean {
  if (!plan.scope) return () => true;
  const scope = new Set(plan.scope);
  return (key) => scope.has(topKeyOf(key));
}

/**
 * The violations of `plan`: the load's object violations (of its scope), change rules over
 * its entries and, with `p.live`, live rules over `live` (all kinds' live objects).
 */
export function planViolations(
  plan: Plan,
  state: DesiredState,
  live: ReadonlyMap<string, readonly LiveObject[]>,
  p: PlanPolicies,
): PolicyViolation[] {
  const index = declaredIndex(state);
  const org = plan.organization || undefined;
  const keep = inScope(plan);
  const out = p.objects.filter((v) => keep(v.key)).map((v) => planViolation(v));
  if (p.policies.length === 0) return out;
  // Entry by entry: a violation names the action of the entry that broke the rule.
  const changeRules = p.policies.some((x) => x.scope === "change");
  let users: ReadonlyMap<string, unknown> | undefined;
  const usersOnce = () =>
    (users ??= p.users?.() ?? usersOf(p.docs ?? [], org ?? state.config.organization));
  for (const e of changeRules ? plan.entries : []) {
    const input = changeInput(e, index, org, p.roots);
    for (const v of evaluateChanges(p.policies, [input], p.now, usersOnce).violations)
      out.push({ ...planViolation(v), action: e.action });
  }
  if (p.live) {
    const objects = liveInputs(live, state, index, org);
    const managed = new Set(objects.filter((o) => state.sources.get(o.key)).map((o) => o.key));
    const found = evaluateLive(p.policies, objects, p.now);
    out.push(...found.violations.map((v) => planViolation(v, managed.has(v.key))));
  }
  // Ratchet rules: new and worse ones deny, those already there are debt.
  judgeRatchet(out, {
    policies: p.policies,
    docs: p.docs ?? [],
    baseDocs: p.baseDocs,
    entries: plan.entries,
    organization: org ?? state.config.organization,
    now: p.now,
    liveDocuments: p.liveDocuments,
  });
  return out;
}
