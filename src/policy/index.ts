/**
 * Policies (issue 29): the organization's own rules, as CEL over the objects a selector
 * chooses. Compile once at load, then evaluate object rules (validate), change rules (plan,
 * apply, drift) and live rules (drift). See README "Policies".
 */
export { compilePolicies, type CompileOptions, type CompileResult } from "./compile.js";
export {
  enforcementFor,
  evaluateChanges,
  usersOf,
  evaluateLive,
  evaluateObjects,
  targetOfKey,
  type EvaluateOptions,
  type PolicyEvaluation,
} from "./evaluate.js";
export { COST_LIMIT } from "./cost.js";
export { EXPIRY_WARNING_DAYS } from "./exceptions.js";
export { formatViolation, summarizeViolations, type ViolationSummary } from "./summary.js";
export { blocks, hasRatchet, RatchetBaseline, type RatchetSubject } from "./ratchet.js";
export type {
  ChangeInput,
  CompiledPolicy,
  CompiledRule,
  Enforcement,
  LiveInput,
  PolicyExceptionInfo,
  PolicyScope,
  Violation,
} from "./types.js";
