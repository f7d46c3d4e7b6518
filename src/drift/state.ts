/**
 * The drift state file (`phctl drift --notify … --state FILE`, default
 * `.phctl/drift-state.json`): what the last run of each key found, so that a run without a
 * tracking issue still knows whether it is a recovery (in sync after drift) and whether the
 * drift changed. CI keeps it between runs as it keeps the journal (a cache); without it every
 * run is a first run. A file that cannot be read counts as none, and says so.
 */
import { existsSync, readFileSync } from "node:fs";
import { writeAtomically } from "../fs/write-atomically.js";

/** What the last run of a key found. */
export interface KeyState {
  status: "drift" | "in-sync";
  /** changesDigest of the drift (status drift). */
  digest?: string;
  /** liveDigest of the drift (status drift; absent in a file an earlier phctl wrote). */
  live?: string;
  /** ISO time of that run. */
  time: string;
}

interface StateFile {
  formatVersion: 1;
  keys: Record<string, KeyState>;
}

export const DEFAULT_STATE_FILE = ".phctl/drift-state.json";

function readAll(file: string): StateFile {
  if (!existsSync(file)) return { formatVersion: 1, keys: {} };
  const data = JSON.parse(readFileSync(file, "utf8")) as Partial<StateFile>;
  if (data?.formatVersion !== 1 || typeof data.keys !== "object" || data.keys === null)
    throw new Error("not a phctl drift state file (formatVersion 1)");
  return { formatVersion: 1, keys: data.keys };
}

/** The last state of `key`; `problem` says why the file could not be read. */
export function readKeyState(file: string, key: string): { state?: KeyState; problem?: string } {
  try {
    const s = readAll(file).keys[key];
    return s && (s.status === "drift" || s.status === "in-sync") ? { state: s } : {};
  } catch (e) {
    return { problem: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
  }
}

/** Record this run's state of `key`, keeping the other keys' (whole file or nothing). */
export function writeKeyState(file: string, key: string, state: KeyState): void {
  let all: StateFile;
  try {
    all = readAll(file);
  } catch {
    all = { formatVersion: 1, keys: {} };
  }
  all.keys[key] = state;
  writeAtomically(file, `${JSON.stringify(all, null, 2)}\n`);
}
