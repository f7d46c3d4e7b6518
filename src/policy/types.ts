/**
 * The data of policies (issue 29): compiled policies, and the violations evaluating them
 * gives. Plain, JSON-serialisable values: the plan carries violations, renderers print them,
 * exit codes are decided from them (src/policy/summary.ts).
 */
import type { Selector } from "../layers/selector.js";
import type { Enforcement, PolicyScope } from "../manifest/schema/policy.js";
import type { Source } from "../manifest/types.js";
import type { CostSizes } from "./cost.js";

export type { Enforcement, PolicyScope } from "../manifest/schema/policy.js";

/** An exception as written, with where (for people) and whether it still counts at `now`. */
export interface PolicyExceptionInfo {
  key: string;
  /** Only these rules; absent: every rule of the policy. */
  rules?: string[];
  reason: string;
  /** YYYY-MM-DD: the last day it counts (UTC). */
  expires: string;
  approvedBy: string;
  source: Source;
  /** active; expiring: active, and ends within 14 days; expired: no longer counts. */
  status: "active" | "expiring" | "expired";
}

/** One rule of a policy, compiled and type-checked. Opaque apart from its name and source. */
export interface CompiledRule {
  name: string;
  /** The `expression` value's position. */
  source: Source;
  /** Evaluates the rule: true (holds), false, or throws (could not evaluate). */
  readonly check: (vars: Record<string, unknown>) => unknown;
  /** The static message, or the messageExpression's evaluation. */
  readonly message: (vars: Record<string, unknown>) => string;
  /** Upper bound of the evaluation's cost for the input's sizes (cost.ts). */
  readonly cost: (sizes: CostSizes) => number;
  /** The cost when it does not depend on the input (no comprehension): measured once. */
  readonly fixedCost?: number;
}

/** A `kind: Policy` document, compiled. */
export interface CompiledPolicy {
  name: string;
  description?: string;
  scope: PolicyScope;
  select: Selector;
  enforcement: Enforcement;
  bindings: { select: Selector; enforcement: Enforcement }[];
  params: Record<string, unknown>;
  rules: CompiledRule[];
  exceptions: PolicyExceptionInfo[];
  /** The document's position. */
  source: Source;
  /** The position of `spec.select`. */
  selectSource: Source;
  /**
   * The document's spec as JSON text: two configs hold the same policy when their digests
   * are equal (plan --base: a changed policy touches the objects it selects). The text, not a
   * hash of it: a validate then loads no node:crypto (≈ 5 ms of its start).
   */
  digest: string;
  /**
   * The top-level keys (project/<slug>, user/<name>, team/<name>) of the declared objects its
   * selector chooses, set by the load (object and change rules; empty for live rules).
   */
  selected: string[];
}

/**
 * One rule that does not hold for one object (or could not be evaluated on it: fail closed).
 * A violation an active exception covers carries it in `exception` and counts for nothing.
 */
export interface Violation {
  policy: string;
  rule: string;
  /** After the policy's bindings. */
  enforcement: Enforcement;
  scope: PolicyScope;
  /** The object's key (project/tf-a, project/tf-a/repo/tools, user/jdoe, a plan entry's key). */
  key: string;
  /** Project, Repository, User, Team; a plan entry's own kind for change rules. */
  kind: string;
  /** Where the object is declared (file:line:col); absent for unmanaged live objects. */
  source?: Source;
  /** Where the rule's expression is. */
  ruleSource: Source;
  message: string;
  /** Set when the rule could not be evaluated (the message says so); never a pass. */
  evaluationError?: string;
  /** The exception that waives this violation (active or expiring). */
  exception?: PolicyExceptionInfo;
  /**
   * Under `ratchet`, once judged against the state the change starts from (ratchet.ts): new
   * and worsened ones deny, existing ones are debt. Absent: not judged (validate).
   */
  ratchet?: RatchetStatus;
  /** A worsened violation: what the rule said of the object before. */
  was?: string;
}

/**
 * A ratchet violation against the baseline (the live object for a full plan, the base config
 * for `plan --base`): `new` — the object did not break the rule; `worsened` — it did, with
 * another message; `existing` — the very same violation was there (debt).
 */
export type RatchetStatus = "new" | "worsened" | "existing";

/** What a change rule sees of one plan entry (src/engine/plan.ts PlanEntry, or a test case). */
export interface ChangeInput {
  action: string;
  kind: string;
  key: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** Names of the changed fields. */
  fields: string[];
  source?: Source | null;
  /**
   * Where the entry was written, relative to the config's root (phctl.yaml's directory) with
   * `/` separators: the file of the document that causes it.
   */
  file?: string;
  /** The Defaults document (its metadata.name) whose value or edit causes the entry. */
  layer?: string;
  /** The labels of the object (a repository: its project's), when the config declares it. */
  labels?: Record<string, string>;
  /** The object's organization, when known. */
  organization?: string;
}

/** What a live rule sees: one live object, managed or not. */
export interface LiveInput {
  kind: "Project" | "Repository" | "User" | "Team";
  key: string;
  /** The live object as the API reads it. */
  object: Record<string, unknown>;
  /** Project slug (for a Repository, its project's), user name or team name. */
  name: string;
  organization?: string;
  labels?: Record<string, string>;
  repository?: { name: string; subgroup: string };
  /** Where the object is declared, when it is managed. */
  source?: Source;
}
