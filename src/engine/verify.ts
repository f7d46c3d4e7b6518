/**
 * After apply, re-plan the keys it touched: whatever still differs is reported as an
 * "inconsistent result after apply" (Terraform's words) — the API accepted the change but
 * live state does not show it, which a second apply would not fix either. Ticket and
 * blocked entries that the original plan already had are expected and not reported.
 */
import type { ApiClient } from "../api/client.js";
import type { ResourceKind } from "../kinds/kind.js";
import type { DesiredState } from "../manifest/types.js";
import type { Inconsistency } from "./apply-events.js";
import type { PlanEntry } from "./plan.js";
import { runPlanWithLive } from "./run-plan.js";
import { scopeState, topKeyOf } from "./scope.js";

const signature = (e: PlanEntry) =>
  `${e.action} ${e.key} ${e.changes.map((c) => `${c.field}=${JSON.stringify(c.after)}`).join(",")}`;

export interface VerifyOptions {
  api: ApiClient;
  state: DesiredState;
  apiUrl: string;
  /** Keys of the actions that were done. */
  touched: readonly string[];
  /** The entries that were applied (their ticket/blocked entries are expected to remain). */
  original: readonly PlanEntry[];
  kinds?: readonly ResourceKind[];
}

/**
 * The desired state narrowed to the objects apply touched (and their parents), so the
 * verification reads only those: a project's reads, not every project's. References were
 * checked by the plan itself and are not checked again. (Kept here for the callers that
 * import it from this module; it lives in scope.ts.)
 */
export { scopeState };

export async function verifyApply(o: VerifyOptions): Promise<Inconsistency[]> {
  const touched = new Set(o.touched);
  // Scoped by the touched keys' top-level objects (a scope, not `targets`: matching every
  // touched key against every declared key as a target costs keys² — 11 s at 18,000 keys).
  const scope = [...new Set(o.touched.map(topKeyOf))];
  const { plan } = await runPlanWithLive({
    api: o.api,
    state: scopeState(o.state, scope),
    apiUrl: o.apiUrl,
    scope,
    ...(o.kinds ? { kinds: o.kinds } : {}),
  });
  const expected = new Set(
    o.original.filter((e) => e.action === "ticket" || e.action === "blocked").map(signature),
  );
  // The scope plans whole top-level objects: keep exactly the touched keys.
  return plan.entries
    .filter((e) => touched.has(e.key) && !expected.has(signature(e)))
    .map((e) => ({
      key: e.key,
      kind: e.kind,
      action: e.action,
      changes: e.changes,
      reason: e.reason,
    }));
}
