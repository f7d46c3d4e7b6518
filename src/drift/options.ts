/**
 * Where one `phctl drift` run reports, as the command line checked it (src/cli/drift-flags.ts),
 * and the key that names its issue, messages and metric series: by default the config
 * directory as given, normalised (`./examples/` → `examples`; several paths joined with `+`).
 */
import { isAbsolute, normalize, relative } from "node:path";

/** Where this run reports, checked. */
export interface DriftOutputs {
  report?: "github" | "gitlab";
  key: string;
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

/** The default key: the config directories as given, normalised, joined with `+`. */
export function defaultKey(paths: readonly string[], cwd: string = process.cwd()): string {
  const all = (paths.length > 0 ? paths : ["."]).map((p) => normalisePath(p, cwd));
  return [...new Set(all)].join("+");
}
