/**
 * Carrying out one plan entry with its kind: create, update or delete (ticket and blocked
 * entries are never sent), and — when a write's answer was lost — re-read and run what is
 * still left (`runConfirmed`). Used by the walk (walk.ts).
 */
import type { ApiClient } from "../api/client.js";
import { AmbiguousRequestError } from "../api/errors.js";
import { PhctlError } from "../errors.js";
import type { LiveObject, ResourceKind } from "../kinds/kind.js";
import type { PlanEntry } from "./plan.js";
import type { WalkOptions } from "./walk.js";

function notSupported(entry: PlanEntry): PhctlError {
  return new PhctlError(
    "NOT_SUPPORTED",
    `${entry.kind} ${entry.key}: phctl cannot ${entry.action} a ${entry.kind} (no API operation is wired for it)`,
    { source: "internal" },
  );
}

/** Carry out one entry with its kind. */
async function runEntry(
  api: ApiClient,
  kind: ResourceKind | undefined,
  entry: PlanEntry,
  live: LiveObject | undefined,
): Promise<void> {
  if (!kind) throw new PhctlError("UNKNOWN_KIND", `unknown kind ${entry.kind} in the plan`);
  switch (entry.action) {
    case "create":
      if (!kind.create) throw notSupported(entry);
      return kind.create(api, entry, live);
    case "update":
      if (!kind.update) throw notSupported(entry);
      if (!live)
        throw new PhctlError("GONE", `${entry.key} no longer exists live: nothing to update`);
      return kind.update(api, entry, live);
    case "delete":
      if (!kind.delete) throw notSupported(entry);
      // Already gone is what a delete wants.
      return live ? kind.delete(api, entry, live) : undefined;
    case "ticket":
    case "blocked":
      throw new Error(`internal: ${entry.action} entries are never sent`);
  }
}

/**
 * How often an action is tried in all when its answers are lost. A re-send follows a re-read
 * that found the write still undone, so it is as safe as retrying an idempotent request: at
 * a 35 % fault rate (three in four of them answer-losing for a write) an action still fails
 * only when 6 tries in a row do, 0.26^6 ≈ 3e-4, where 3 tries failed 2 % of the actions.
 */
export const AMBIGUOUS_TRIES = 6;
/** The pause before the n-th re-read: 250 ms doubling, at most 4 s, with jitter. */
export const confirmPauseMs = (n: number, random: () => number = Math.random): number =>
  Math.round(Math.min(4_000, 250 * 2 ** (n - 1)) * (0.5 + random() / 2));

/**
 * Run an entry; when a write's answer was lost, pause, re-read and run what is still left (at
 * most AMBIGUOUS_TRIES tries in all). The pause lets a gateway recover and a queued change
 * show. Side effects, which cannot be read back, handle that themselves.
 */
export async function runConfirmed(
  o: Pick<WalkOptions, "live" | "recheck">,
  api: ApiClient,
  kind: ResourceKind | undefined,
  entry: PlanEntry,
): Promise<void> {
  let current = entry;
  let live = o.live.get(entry.key);
  for (let attempt = 1; ; attempt++) {
    try {
      return await runEntry(api, kind, current, live);
    } catch (e) {
      if (!(e instanceof AmbiguousRequestError) || !o.recheck || kind?.sideEffect) throw e;
      if (attempt >= AMBIGUOUS_TRIES) throw e;
      await new Promise((r) => setTimeout(r, confirmPauseMs(attempt)));
      const left = await o.recheck(current);
      if (!left) return;
      if (left.entry.action !== current.action && left.entry.action !== "update") throw e;
      current = left.entry;
      live = left.live;
    }
  }
}
