/**
 * runConfirmed: a write whose answer was lost is re-read (after a pause) and only what is
 * still undone is sent again, up to AMBIGUOUS_TRIES tries in all.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ApiClient } from "../../src/api/client.js";
import { AmbiguousRequestError } from "../../src/api/errors.js";
import { AMBIGUOUS_TRIES, confirmPauseMs, runConfirmed } from "../../src/engine/run-entry.js";
import type { PlanEntry } from "../../src/engine/plan.js";
import type { WalkOptions } from "../../src/engine/walk.js";
import type { LiveObject, ResourceKind } from "../../src/kinds/kind.js";

const entry: PlanEntry = {
  key: "project/p/repo/r",
  kind: "Repository",
  action: "update",
  before: { description: "old" },
  after: { description: "new" },
  changes: [{ field: "description", before: "old", after: "new" }],
  reason: "",
  source: null,
  dependsOn: [],
  destructive: false,
};
const live: LiveObject = { key: entry.key, fields: { description: "old" }, ids: { gitRepoID: 7 } };

const lost = () =>
  new AmbiguousRequestError({
    target: { method: "PATCH", pathTemplate: "/r", operation: undefined },
    status: 0,
    serverMessage: "other side closed",
    attempts: 1,
  });

/** A kind whose update loses its answer `failures` times, then succeeds. */
function world(failures: number) {
  let sent = 0;
  let rereads = 0;
  const kind = {
    update: async () => {
      sent++;
      if (sent <= failures) throw lost();
    },
  } as unknown as ResourceKind;
  const o: Pick<WalkOptions, "live" | "recheck"> = {
    live: new Map([[entry.key, live]]),
    recheck: async (e: PlanEntry) => {
      rereads++;
      return { entry: e, live };
    },
  };
  return { kind, o, counts: () => ({ sent, rereads }) };
}

async function run(failures: number): Promise<{ error?: unknown; sent: number; rereads: number }> {
  const w = world(failures);
  const p = runConfirmed(w.o, {} as ApiClient, w.kind, entry).then(
    () => undefined,
    (e: unknown) => e,
  );
  await vi.runAllTimersAsync();
  const error = await p;
  return { ...(error ? { error } : {}), ...w.counts() };
}

describe("runConfirmed", () => {
  afterEach(() => vi.useRealTimers());

  it("sends again after each lost answer, re-reading first, until the write lands", async () => {
    vi.useFakeTimers();
    const r = await run(AMBIGUOUS_TRIES - 1);
    expect(r.error).toBeUndefined();
    expect(r.sent).toBe(AMBIGUOUS_TRIES);
    expect(r.rereads).toBe(AMBIGUOUS_TRIES - 1);
  });

  it("gives up with the ambiguous error after AMBIGUOUS_TRIES lost answers", async () => {
    vi.useFakeTimers();
    const r = await run(AMBIGUOUS_TRIES);
    expect(r.error).toBeInstanceOf(AmbiguousRequestError);
    expect(r.sent).toBe(AMBIGUOUS_TRIES);
  });

  it("sends nothing more when the re-read finds the write done", async () => {
    vi.useFakeTimers();
    const w = world(1);
    w.o.recheck = async () => undefined;
    const p = runConfirmed(w.o, {} as ApiClient, w.kind, entry);
    await vi.runAllTimersAsync();
    await p;
    expect(w.counts().sent).toBe(1);
  });

  it("pauses 250 ms doubling up to 4 s, with jitter of at most half", () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => confirmPauseMs(n, () => 1))).toEqual([
      250, 500, 1000, 2000, 4000, 4000,
    ]);
    expect(confirmPauseMs(1, () => 0)).toBe(125);
  });
});
