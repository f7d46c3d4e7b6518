/**
 * When a lock in the way is taken over (lock-verdict.ts): one case per rule, the holder, where
 * this process stands, the lock file's times and what its pid is here all given.
 */
import { describe, expect, it } from "vitest";
import type { Here, LockHolder } from "../../src/engine/lock-holder.js";
import { judgeLock, type FileTimes, type ProcessSeen } from "../../src/engine/lock-verdict.js";

const NOW = Date.parse("2025-03-01T12:00:00Z");
const here: Here = { host: "runner-a", bootId: "boot-1", pidNs: "pid:[4026531836]" };
const holder: LockHolder = {
  id: "lock-1",
  host: "runner-a",
  pid: 4242,
  startedAt: new Date(NOW - 60_000).toISOString(),
  command: "phctl apply",
  pidStart: "1000",
  bootId: "boot-1",
  pidNs: "pid:[4026531836]",
};
const job = { id: "gitlab job 991", url: "https://gitlab.example.org/g/p/-/jobs/991" };
/** Written when taken: mtime and ctime at the holder's start. */
const taken: FileTimes = { mtimeMs: NOW - 60_000, ctimeMs: NOW - 60_000 };
/** Restored by a CI cache (zip/tar keep mtime; ctime is the restore). */
const restored: FileTimes = { mtimeMs: NOW - 60_000, ctimeMs: NOW - 1_000 };

const gone = (): ProcessSeen => ({ running: false });
const running =
  (start = "1000") =>
  (): ProcessSeen => ({ running: true, start });

const cases: {
  name: string;
  h: { [K in keyof LockHolder]?: LockHolder[K] | undefined } | undefined;
  here?: Partial<Here>;
  times?: FileTimes;
  seen: (pid: number) => ProcessSeen;
  takeOver: boolean;
  says: RegExp;
}[] = [
  { name: "same host and boot, no such pid", h: {}, seen: gone, takeOver: true, says: /^which is no longer running$/ }, // prettier-ignore
  { name: "same host and boot, the pid reused by a later process", h: {}, seen: running("2000"), takeOver: true, says: /pid 4242 is another process now/ }, // prettier-ignore
  { name: "same host and boot, the holder itself running", h: {}, seen: running("1000"), takeOver: false, says: /still running on this host/ }, // prettier-ignore
  { name: "an older lock (no start time) whose pid runs", h: { pidStart: undefined }, seen: running("2000"), takeOver: false, says: /still running/ }, // prettier-ignore
  { name: "an older lock (no boot ID) of this host, pid gone", h: { bootId: undefined, pidNs: undefined }, seen: gone, takeOver: true, says: /no longer running/ }, // prettier-ignore
  { name: "same host, an earlier boot (even if the pid runs now)", h: { bootId: "boot-0" }, seen: running("1000"), takeOver: true, says: /before this machine restarted/ }, // prettier-ignore
  { name: "same host and boot, another container: not seen", h: { pidNs: "pid:[4026532000]" }, seen: gone, takeOver: false, says: /another container of this host/ }, // prettier-ignore
  { name: "another host", h: { host: "runner-b", bootId: "boot-9" }, seen: gone, takeOver: false, says: /another host/ }, // prettier-ignore
  { name: "another host, same boot ID reported (a clone): still another host", h: { host: "runner-b" }, seen: gone, takeOver: false, says: /another host/ }, // prettier-ignore
  { name: "another host's CI job, the file taken there (shared filesystem)", h: { host: "runner-b", ci: job }, times: taken, seen: gone, takeOver: false, says: /another host/ }, // prettier-ignore
  { name: "another host's CI job, the file restored from a cache", h: { host: "runner-b", ci: job }, times: restored, seen: gone, takeOver: true, says: /copy .*jobs\/991 never held it/ }, // prettier-ignore
  { name: "another host's CI job, the file copied afresh long after", h: { host: "runner-b", ci: job }, times: { mtimeMs: NOW + 60_000, ctimeMs: NOW + 60_000 }, seen: gone, takeOver: true, says: /copy/ }, // prettier-ignore
  { name: "another container's CI job, restored from a cache", h: { pidNs: "pid:[4026532000]", ci: job }, times: restored, seen: gone, takeOver: true, says: /copy/ }, // prettier-ignore
  { name: "a restored copy that names this very job: not a copy of someone else's", h: { host: "runner-b", ci: job }, here: { ci: job }, times: restored, seen: gone, takeOver: false, says: /another host/ }, // prettier-ignore
  { name: "a restored copy without a CI job: a person decides", h: { host: "runner-b" }, times: restored, seen: gone, takeOver: false, says: /another host/ }, // prettier-ignore
  { name: "a restored copy of a holder running here: running wins", h: { ci: job }, times: restored, seen: running("1000"), takeOver: false, says: /still running/ }, // prettier-ignore
  { name: "a file that names no holder", h: undefined, seen: gone, takeOver: false, says: /names no holder/ }, // prettier-ignore
];

describe("judgeLock: taken over only when the holder is provably gone", () => {
  it.each(cases)("$name", (c) => {
    const h = c.h === undefined ? undefined : ({ ...holder, ...c.h } as LockHolder);
    for (const k of ["pidStart", "bootId", "pidNs"] as const) if (h && h[k] === undefined) delete h[k]; // prettier-ignore
    const v = judgeLock(h, { ...here, ...c.here }, c.times ?? taken, c.seen);
    expect(v.takeOver).toBe(c.takeOver);
    expect(v.takeOver ? v.because : v.why).toMatch(c.says);
  });
});
