/**
 * The client's concurrency slots (limit.ts FlowControl) without p-limit: an attempt starts at
 * once while a slot is free, waits first come first served while none is, a freed slot goes
 * to the first waiting attempt (never to a later caller that jumps the queue), and a failed
 * attempt frees its slot like a successful one.
 */
import { describe, expect, it } from "vitest";
import { FlowControl } from "../../src/api/limit.js";

/** A promise and its settlers. */
function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("FlowControl slots", () => {
  it("starts an attempt at once while a slot is free, with nothing queued", () => {
    const flow = new FlowControl(2, 0);
    let started = 0;
    const d = deferred();
    void flow.run(() => {
      started++;
      return d.promise;
    });
    // Synchronously: no microtask between run() and the attempt's start.
    expect(started).toBe(1);
    expect(flow.stats).toEqual({ running: 1, queued: 0 });
    d.resolve();
  });

  it("hands a freed slot to the first waiting attempt, in order, never to a later caller", async () => {
    const flow = new FlowControl(1, 0);
    const order: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred<void>>>();
    const run = (name: string) =>
      flow.run((queuedMs) => {
        expect(queuedMs).toBeGreaterThanOrEqual(0);
        order.push(name);
        const g = deferred();
        gates.set(name, g);
        return g.promise.then(() => name);
      });
    const a = run("a");
    const b = run("b");
    const c = run("c");
    expect(order).toEqual(["a"]);
    expect(flow.stats).toEqual({ running: 1, queued: 2 });
    gates.get("a")!.resolve();
    await expect(a).resolves.toBe("a");
    await tick();
    expect(order).toEqual(["a", "b"]);
    // A caller arriving now waits behind c: the slot b frees is c's.
    const d = run("d");
    expect(order).toEqual(["a", "b"]);
    gates.get("b")!.resolve();
    await b;
    await tick();
    expect(order).toEqual(["a", "b", "c"]);
    gates.get("c")!.resolve();
    await c;
    await tick();
    gates.get("d")!.resolve();
    await expect(d).resolves.toBe("d");
    expect(order).toEqual(["a", "b", "c", "d"]);
    expect(flow.stats).toEqual({ running: 0, queued: 0 });
  });

  it("frees the slot of a failed attempt, and passes its error to the caller", async () => {
    const flow = new FlowControl(1, 0);
    const failed = flow.run(() => Promise.reject(new Error("lost")));
    const next = flow.run(() => Promise.resolve("next"));
    await expect(failed).rejects.toThrow("lost");
    await expect(next).resolves.toBe("next");
    // An attempt that throws before returning a promise fails the same way.
    await expect(
      flow.run(() => {
        throw new Error("at once");
      }),
    ).rejects.toThrow("at once");
    await expect(flow.run(() => Promise.resolve(1))).resolves.toBe(1);
    expect(flow.stats).toEqual({ running: 0, queued: 0 });
  });

  it("never runs more than the limit at once over thousands of attempts", async () => {
    const flow = new FlowControl(16, 0);
    let active = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 3000 }, (_, i) =>
        flow.run(async () => {
          active++;
          peak = Math.max(peak, active);
          await (i % 3 === 0 ? tick() : Promise.resolve());
          active--;
          return i;
        }),
      ),
    );
    expect(peak).toBe(16);
    expect(results[2999]).toBe(2999);
    expect(flow.stats).toEqual({ running: 0, queued: 0 });
  });
});
