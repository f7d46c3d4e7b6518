/**
 * Bring a server to a desired state without the apply command: plan with the kinds, then
 * carry out creates and updates kind by kind in the table's dependency order (forks after
 * the repositories they come from). A test fixture for plan/drift tests, not the executor.
 */
import type { ApiClient } from "../../src/api/client.js";
import { runPlanWithLive } from "../../src/engine/run-plan.js";
import { kinds } from "../../src/kinds/index.js";
import type { DesiredState } from "../../src/manifest/types.js";

export async function populate(api: ApiClient, state: DesiredState): Promise<void> {
  const { plan, live } = await runPlanWithLive({ api, state, apiUrl: "test" });
  for (const k of kinds) {
    const mine = plan.entries.filter(
      (e) => e.kind === k.kind && (e.action === "create" || e.action === "update"),
    );
    const ordered = [...mine.filter((e) => !e.after?.fork), ...mine.filter((e) => e.after?.fork)];
    for (const e of ordered) {
      if (e.action === "create") await k.create!(api, e, live.get(e.key));
      else await k.update!(api, e, live.get(e.key)!);
    }
  }
}
