/**
 * The expiry issue of one drift run, on the client the drift issue used (issue-run.ts): keep
 * it (expiry-report.ts) and say what happened in one line — or, when it could not, what the
 * platform said and what to do. Never throws: like the drift issue's, its failure leaves the
 * exit code as the drift says.
 */
import type { Plan } from "../engine/plan.js";
import type { IssueApi } from "../ci/issues.js";
import type { CiContext } from "../ci/platform.js";
import { describeExpiry, EXPIRY_LABEL, withinDays } from "./expiry-issue.js";
import { keepExpiryIssue, type ExpiryResult } from "./expiry-report.js";
import { sayIssue } from "./issue-lines.js";
import { platformProblem } from "./platform-problem.js";

export interface ExpiryRun {
  key: string;
  plan: Plan;
  warnDays: number;
  say: (line: string) => void;
  scrub: (s: string) => string;
}

/** Keep the key's expiry issue; undefined when it could not (said through `say`). */
export async function expiryRun(
  api: IssueApi,
  ctx: CiContext,
  i: ExpiryRun,
): Promise<ExpiryResult | undefined> {
  const { key, warnDays } = i;
  try {
    const r = await keepExpiryIssue(api, {
      key,
      plan: i.plan,
      warnDays,
      ...(ctx.run ? { run: ctx.run } : {}),
      maxChars: ctx.maxChars,
      scrub: i.scrub,
    });
    sayIssue(i.say, ctx, r, {
      what: "expiry issue",
      label: EXPIRY_LABEL,
      key,
      none: `no access expired or ending ${withinDays(warnDays)}: no open expiry issue (key ${key})`,
      closed: `no access expired or ending ${withinDays(warnDays)}`,
      detail: `: ${describeExpiry(r.counts, warnDays)}`,
      changed: "the list changed",
    });
    return r;
  } catch (e) {
    i.say(`cannot keep the expiry issue on ${ctx.name} (key ${key}): ${platformProblem(ctx, e)}`);
    return undefined;
  }
}
