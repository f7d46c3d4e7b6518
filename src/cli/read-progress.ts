/**
 * The read progress of `plan`, `drift`, `export` and apply's planning, fed from the client:
 * the command line takes plain counts from it (objects read, calls made, requests running
 * and queued) and gives them to the renderer (src/render/read-progress.ts), which never
 * sees the client.
 */
import type { ApiClient } from "../api/client.js";
import type { FlowStats } from "../api/limit.js";
import { readTally } from "../engine/read-context.js";
import { processTerminal } from "../render/live-line.js";
import { ReadProgress } from "../render/read-progress.js";
import { COLOR, PLAIN, useColor } from "../render/style.js";

/** The client's requests running and queued, when it says (`ApiClient.flowStats`). */
export function flowOf(api: ApiClient): FlowStats | undefined {
  const f = (api as { flowStats?: () => FlowStats }).flowStats;
  return typeof f === "function" ? f.call(api) : undefined;
}

/**
 * Progress of the reads made through `api` from now on, on this process's terminal (stderr)
 * or, with `json`, as events on stderr.
 */
export function clientReadProgress(o: {
  command: string;
  what: string;
  api: ApiClient;
  json: boolean;
  /** `--no-color` gives false. */
  color?: boolean;
}): ReadProgress {
  const { api } = o;
  const objects = readTally(api).objects;
  const calls = api.metrics.snapshot().calls;
  return new ReadProgress({
    command: o.command,
    what: o.what,
    counts: () => ({
      objects: readTally(api).objects - objects,
      calls: api.metrics.snapshot().calls - calls,
      ...flowOf(api),
    }),
    terminal: o.json ? undefined : processTerminal(),
    json: o.json ? (line) => process.stderr.write(line) : undefined,
    style: useColor(process.stderr, o.color) ? COLOR : PLAIN,
  });
}
