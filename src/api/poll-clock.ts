/**
 * The sleeps between a queued job's polls, on a shared 10 ms grid: a sleep ends at the next
 * multiple of 10 ms after it is due, with every other sleep due in that slot — one timer
 * and one wake of the process for all of them. An apply of 18,000 actions polls 4,500 jobs
 * about 200 ms after each was queued: with a timer each, each poll woke the process on its
 * own (a wake costs as much CPU as the poll's own work, caches cold). A poll comes at most
 * 10 ms later; sleeps under 100 ms (tests) are plain timers.
 */
import { sleep } from "./limit.js";

/** Width of a slot, ms. */
export const POLL_GRID_MS = 10;
/** Sleeps shorter than this are plain timers. */
const GRID_FROM_MS = 100;

interface Slot {
  sleepers: Set<() => void>;
  timer: NodeJS.Timeout;
}

/** The slots with sleepers, by their end (ms on `performance.now()`'s clock). */
const slots = new Map<number, Slot>();

/** Sleepers in slots now (tests). */
export function pollSleepers(): number {
  let n = 0;
  for (const s of slots.values()) n += s.sleepers.size;
  return n;
}

/** Sleep about `ms` (to the grid), or reject with the signal's reason when it aborts first. */
export function pollSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms < GRID_FROM_MS || signal?.aborted) return sleep(ms, signal);
  const now = performance.now();
  const due = Math.ceil((now + ms) / POLL_GRID_MS) * POLL_GRID_MS;
  let slot = slots.get(due);
  if (!slot) {
    const sleepers = new Set<() => void>();
    const timer = setTimeout(() => {
      slots.delete(due);
      for (const wake of sleepers) wake();
    }, due - now);
    slot = { sleepers, timer };
    slots.set(due, slot);
  }
  const { sleepers } = slot;
  return new Promise<void>((resolve, reject) => {
    if (!signal) {
      sleepers.add(resolve);
      return;
    }
    const onAbort = () => {
      sleepers.delete(wake);
      // The last sleeper of a slot gone: its timer must not hold the process.
      if (sleepers.size === 0 && slots.get(due)?.sleepers === sleepers) {
        clearTimeout(slots.get(due)!.timer);
        slots.delete(due);
      }
      reject(signal.reason as Error);
    };
    const wake = () => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    };
    sleepers.add(wake);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
