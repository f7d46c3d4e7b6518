/**
 * Evaluating compiled policies: object rules over the documents (validate), change rules
 * over plan entries (plan, apply, drift), live rules over live objects (drift). Each is a
 * pure function of its inputs and `now` (for exceptions); none prints.
 */
import { todayOf } from "../expiry/date.js";
import {
  describeSelector,
  selects,
  type SelectKind,
  type SelectTarget,
} from "../layers/selector.js";
import { mayChooseUnread, type UnreadObject } from "../layers/unread.js";
import type { ValidDoc } from "../manifest/check.js";
import { makeDiagnostic } from "../manifest/diagnostics.js";
import type { Diagnostic, Source } from "../manifest/types.js";
import { largestList, type CostSizes } from "./cost.js";
import { topKeyOf } from "../manifest/keys.js";
import { exceptionFor, unmatchedExceptions } from "./exceptions.js";
import { runRule } from "./run.js";
import { dynView } from "./shape.js";
import { policyTargets } from "./targets.js";
import type { ChangeInput, CompiledPolicy, LiveInput, PolicyScope, Violation } from "./types.js";

/** What an evaluation gives: violations, and warnings about the policies themselves. */
export interface PolicyEvaluation {
  violations: Violation[];
  /** A policy whose selector chooses nothing (a warning at its select). */
  diagnostics: Diagnostic[];
  /**
   * evaluateObjects: per object or change policy (by name), the top-level keys of the declared
   * objects it selects, sorted.
   */
  selected?: Map<string, string[]>;
}

export interface EvaluateOptions {
  /** phctl.yaml's organization: that of objects that name none. */
  organization?: string;
  /**
   * Objects that did not load (src/layers/unread.ts): a policy that may select one is not
   * said to select nothing, nor its exceptions to match nothing.
   */
  unread?: readonly UnreadObject[];
}

/** The enforcement of `policy` on `target`: its first binding that selects it, or its own. */
export function enforcementFor(policy: CompiledPolicy, target: SelectTarget) {
  return policy.bindings.find((b) => selects(b.select, target))?.enforcement ?? policy.enforcement;
}

interface Subject {
  target: SelectTarget;
  key: string;
  kind: string;
  source?: Source | undefined;
  vars: () => Record<string, unknown>;
}

/** Every rule of `policy` on one subject. */
function check(
  policy: CompiledPolicy,
  s: Subject,
  now: Date,
  sizes: () => CostSizes,
  out: Violation[],
): void {
  const enforcement = enforcementFor(policy, s.target);
  for (const rule of policy.rules) {
    const outcome = runRule(rule, s.vars(), sizes);
    if (outcome.pass) continue;
    const v: Violation = {
      policy: policy.name,
      rule: rule.name,
      enforcement,
      scope: policy.scope,
      key: s.key,
      kind: s.kind,
      ruleSource: rule.source,
      message: outcome.message,
    };
    if (s.source) v.source = s.source;
    if (outcome.evaluationError !== undefined) v.evaluationError = outcome.evaluationError;
    const exception = exceptionFor(policy, rule.name, s.key, now);
    if (exception) v.exception = exception;
    out.push(v);
  }
}

/** The params as CEL sees them (integers as ints), once per policy. */
const paramViews = new WeakMap<CompiledPolicy, unknown>();
function paramsOf(p: CompiledPolicy): unknown {
  if (!paramViews.has(p)) paramViews.set(p, dynView(p.params));
  return paramViews.get(p);
}

const memo = <T>(f: () => T) => {
  let v: T | undefined;
  return () => (v ??= f());
};

const ofScope = (ps: readonly CompiledPolicy[], scope: PolicyScope) =>
  ps.filter((p) => p.scope === scope);

/**
 * The `users` variable: every declared User document by name (after Defaults). A Map: the
 * library's `in` on a plain object lists its keys (10,000 users: 1.8 ms a test).
 */
function usersOfTargets(targets: ReturnType<typeof policyTargets>): Map<string, unknown> {
  const m = new Map<string, unknown>();
  for (const t of targets.User) if (!m.has(t.target.name)) m.set(t.target.name, t.object());
  return m;
}

/** The `users` a change rule reads, from the config's effective documents. */
export function usersOf(docs: readonly ValidDoc[], organization?: string): Map<string, unknown> {
  return usersOfTargets(policyTargets(docs, organization));
}

/**
 * Object rules on the documents (the effective ones, once Defaults are merged; today's list
 * works the same). Also warns of every object or change policy whose selector chooses no
 * declared object.
 */
export function evaluateObjects(
  policies: readonly CompiledPolicy[],
  docs: readonly ValidDoc[],
  now: Date,
  opts: EvaluateOptions = {},
): PolicyEvaluation {
  const violations: Violation[] = [];
  const diagnostics: Diagnostic[] = [];
  if (policies.length === 0) return { violations, diagnostics };
  const targets = policyTargets(docs, opts.organization);
  const users = memo(() => usersOfTargets(targets));
  const userCount = targets.User.length;
  // Today for rules on grants that expire: the `now` of exceptions, as a date (UTC).
  const today = todayOf(now);
  const chosen = new Map<string, string[]>();
  for (const policy of policies) {
    if (policy.scope === "live") continue;
    let matched = 0;
    const selected = new Set<string>();
    // The keys an object policy's exceptions may match (only when it has some).
    const keys: string[] | undefined =
      policy.scope === "object" && policy.exceptions.length > 0 ? [] : undefined;
    for (const t of targets[policy.select.kind]) {
      if (!selects(policy.select, t.target)) continue;
      matched++;
      selected.add(topKeyOf(t.key));
      keys?.push(t.key);
      if (policy.scope !== "object") continue;
      const vars = memo(() => ({
        object: t.object(),
        users: users(),
        params: paramsOf(policy),
        today,
      }));
      const sizes = memo(() => ({ list: largestList(t.object()), users: userCount }));
      check(policy, { ...t, kind: t.target.kind, vars }, now, sizes, violations);
    }
    chosen.set(policy.name, [...selected].sort());
    const unsure = opts.unread !== undefined && mayChooseUnread(policy.select, opts.unread);
    if (keys && !unsure) {
      const declared = memo(() => targets[policy.select.kind].map((t) => t.key));
      for (const d of unmatchedExceptions(policy, keys, declared, now)) diagnostics.push(d);
    }
    if (matched === 0 && !unsure)
      diagnostics.push(
        makeDiagnostic(
          "warning",
          "policy-selects-nothing",
          policy.selectSource,
          `the policy selects nothing: no ${describeSelector(policy.select)} are declared`,
          { kind: "Policy", name: policy.name },
        ),
      );
  }
  return { violations, diagnostics, selected: chosen };
}

/** The selector target of a plan entry or live object, from its key. */
export function targetOfKey(
  key: string,
  labels: Record<string, string> = {},
  organization?: string,
): SelectTarget | undefined {
  const parts = key.split("/");
  const base = (kind: SelectKind, name: string): SelectTarget => ({
    kind,
    name,
    labels,
    ...(organization !== undefined ? { organization } : {}),
  });
  if (parts[0] === "project" && parts[1]) {
    if (parts[2] === "repo" && parts.length >= 4) {
      const rest = parts.slice(3);
      const name = rest.pop() as string;
      return { ...base("Repository", parts[1]), repository: { name, subgroup: rest.join("/") } };
    }
    return base("Project", parts[1]);
  }
  if (parts[0] === "user" && parts[1]) return base("User", parts[1]);
  if (parts[0] === "team" && parts[1]) return base("Team", parts[1]);
  return undefined;
}

const NO_USERS: ReadonlyMap<string, unknown> = new Map();

/**
 * One plan entry as `change` reads it. Besides the entry, where it was written — `file`, the
 * config-relative path of the document that causes it (a layer's, when a layer's value or
 * edit causes it), `layer`, the Defaults document's name — and whose it is: `project` (the
 * project of a `project/<slug>/…` key), `organization`. Each is "" when not known, so a
 * restriction on a place (`change.file.startsWith("projects/")`) reads every entry alike.
 */
function changeView(e: ChangeInput, target: SelectTarget) {
  return {
    action: e.action,
    kind: e.kind,
    key: e.key,
    before: dynView(e.before),
    after: dynView(e.after),
    fields: e.fields,
    file: e.file ?? "",
    layer: e.layer ?? "",
    project: e.key.startsWith("project/") ? (e.key.split("/")[1] ?? "") : "",
    organization: target.organization ?? "",
  };
}

/**
 * Change rules on plan entries. An entry belongs to the object its key names: a repository's
 * entries to the Repository, every other `project/<slug>/…` entry (access, licenses, the
 * group, mirrors) to the Project, `user/<name>/…` to the User, `team/<name>/…` to the Team;
 * `change.kind` tells them apart. Deletes, tickets and blocked entries included.
 */
export function evaluateChanges(
  policies: readonly CompiledPolicy[],
  entries: readonly ChangeInput[],
  now: Date,
  users: () => ReadonlyMap<string, unknown> = () => NO_USERS,
): PolicyEvaluation {
  const violations: Violation[] = [];
  const change = ofScope(policies, "change");
  if (change.length === 0) return { violations, diagnostics: [] };
  for (const e of entries) {
    const target = targetOfKey(e.key, e.labels, e.organization);
    if (!target) continue;
    const changeVar = memo(() => changeView(e, target));
    const sizes = memo(() => ({ list: largestList(changeVar()), users: users().size }));
    for (const policy of change) {
      if (!selects(policy.select, target)) continue;
      const vars = () => ({ change: changeVar(), users: users(), params: paramsOf(policy) });
      check(
        policy,
        { target, key: e.key, kind: e.kind, source: e.source ?? undefined, vars },
        now,
        sizes,
        violations,
      );
    }
  }
  return { violations, diagnostics: [] };
}

/** Live rules on live objects, managed or not. */
export function evaluateLive(
  policies: readonly CompiledPolicy[],
  objects: readonly LiveInput[],
  now: Date,
): PolicyEvaluation {
  const violations: Violation[] = [];
  const live = ofScope(policies, "live");
  if (live.length === 0) return { violations, diagnostics: [] };
  for (const o of objects) {
    const target: SelectTarget = {
      kind: o.kind,
      name: o.name,
      labels: o.labels ?? {},
      ...(o.organization !== undefined ? { organization: o.organization } : {}),
      ...(o.repository ? { repository: o.repository } : {}),
    };
    const object = memo(() => dynView(o.object));
    const sizes = memo(() => ({ list: largestList(object()), users: 0 }));
    for (const policy of live) {
      if (!selects(policy.select, target)) continue;
      const vars = () => ({ object: object(), params: paramsOf(policy) });
      check(
        policy,
        { target, key: o.key, kind: o.kind, source: o.source, vars },
        now,
        sizes,
        violations,
      );
    }
  }
  return { violations, diagnostics: [] };
}
