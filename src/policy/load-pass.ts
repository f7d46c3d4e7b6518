/**
 * The policy pass of the loader: compile the Policy documents (errors and warnings join the
 * load's diagnostics) and run the object rules over the documents. Violations are kept apart
 * from diagnostics: a denial fails `validate` and `plan` but the plan is still made.
 */
import type { UnreadObject } from "../layers/unread.js";
import type { ValidDoc } from "../manifest/check.js";
import type { Diagnostic, ManifestConfig } from "../manifest/types.js";
import { compilePolicies } from "./compile.js";
import { evaluateObjects } from "./evaluate.js";
import { diskText, type TextOf } from "./position.js";
import type { CompiledPolicy, Violation } from "./types.js";

/** What the policy pass adds to a load. */
export interface PolicyPass {
  policies: CompiledPolicy[];
  diagnostics: Diagnostic[];
  violations: Violation[];
}

export interface PolicyPassOptions {
  cwd?: string | undefined;
  /** Today, for exceptions (default: the clock; PHCTL_NOW, a date, in tests). */
  now?: Date | undefined;
  /** Texts still in memory by file; others are read from disk when a position needs them. */
  texts?: ReadonlyMap<string, string> | undefined;
  /** Objects that did not load (src/layers/unread.ts): a selector may choose them. */
  unread?: readonly UnreadObject[] | undefined;
}

/** Today: PHCTL_NOW (YYYY-MM-DD or an ISO time) when set, for tests of expiring exceptions. */
export function policyNow(env: NodeJS.ProcessEnv = process.env): Date {
  const fixed = env.PHCTL_NOW;
  const t = fixed ? Date.parse(fixed) : NaN;
  return Number.isNaN(t) ? new Date() : new Date(t);
}

/** Compile the policies of `docs` and run their object rules over `docs`. */
export function policyPass(
  docs: readonly ValidDoc[],
  config: ManifestConfig,
  opts: PolicyPassOptions = {},
): PolicyPass {
  if (!docs.some((d) => d.kind === "Policy"))
    return { policies: [], diagnostics: [], violations: [] };
  const now = opts.now ?? policyNow();
  const disk = diskText(opts.cwd);
  const text: TextOf = (file) => opts.texts?.get(file) ?? disk(file);
  const compiled = compilePolicies(docs, { now, text });
  const evaluated = evaluateObjects(compiled.policies, docs, now, {
    ...(config.organization !== undefined ? { organization: config.organization } : {}),
    ...(opts.unread ? { unread: opts.unread } : {}),
  });
  return {
    // What each selects: a pull request that changes a policy touches those (plan --base).
    policies: compiled.policies.map((p) => ({
      ...p,
      selected: evaluated.selected?.get(p.name) ?? [],
    })),
    diagnostics: [...compiled.diagnostics, ...evaluated.diagnostics],
    violations: evaluated.violations,
  };
}
