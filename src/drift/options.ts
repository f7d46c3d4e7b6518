/**
 * Where one `phctl drift` run reports, as the command line checked it (src/cli/drift-flags.ts),
 * and the key that names its issue, messages and metric series: `--key`, by default
 * `default` — the key `phctl comment` and apply use, so one config directory has one name
 * across the CI loop. Earlier phctl versions keyed drift by the config directory as given
 * (`pathKey`): an issue or state kept under that key is taken over, never duplicated.
 */
import { isAbsolute, normalize, relative } from "node:path";

/** The key when none is given (as `phctl comment --key` and the CI kit default to). */
export const DEFAULT_KEY = "default";

/** Where this run reports, checked. */
export interface DriftOutputs {
  report?: "github" | "gitlab";
  key: string;
  /** Keys earlier phctl versions gave this run by default: their issue and state are taken over. */
  formerKeys: string[];
  notify: string[];
  heartbeat: boolean;
  /** Per webhook attempt (`--notify-timeout`). */
  timeoutMs: number;
  stateFile: string;
  metricsFile?: string;
}

/** `./examples/` → `examples`, an absolute path inside the working directory → relative. */
function normalisePath(p: string, cwd: string): string {
  const rel = isAbsolute(p) ? relative(cwd, p) || "." : p;
  const n = normalize(rel).replace(/\\/g, "/").replace(/\/+$/, "");
  return n === "" ? "/" : n;
}

/**
 * The key earlier phctl versions used by default: the config directories as given,
 * normalised, joined with `+` (`.` for the working directory).
 */
export function pathKey(paths: readonly string[], cwd: string = process.cwd()): string {
  const all = (paths.length > 0 ? paths : ["."]).map((p) => normalisePath(p, cwd));
  return [...new Set(all)].join("+");
}
