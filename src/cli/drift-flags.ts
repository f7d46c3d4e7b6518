/**
 * The flags that say where `phctl drift` reports (`--report`, `--key`, `--notify`,
 * `--heartbeat`, `--notify-timeout`, `--state`, `--metrics-file`), checked before anything
 * is planned: a bad one is a usage error (exit 1) naming the flag. What src/drift/ gets is
 * the checked result (DriftOutputs), plain values.
 */
import { userError } from "../errors.js";
import { DEFAULT_KEY, pathKey, type DriftOutputs } from "../drift/options.js";
import { DEFAULT_STATE_FILE } from "../drift/state.js";
import { parseNumberFlag } from "./flags.js";

/** The flags as commander gives them. */
export interface DriftFlags {
  report?: string;
  key?: string;
  notify?: string[];
  heartbeat?: boolean;
  notifyTimeout?: string;
  state?: string;
  metricsFile?: string;
}

/** `--report` values and the platform each reports on. */
const REPORTS = { "github-issue": "github", "gitlab-issue": "gitlab" } as const;
const KEY = /^[A-Za-z0-9._/+-]{1,100}$/;

/** The flags checked: a bad one is a BAD_FLAG user error naming it. */
export function checkDriftFlags(
  paths: readonly string[],
  f: DriftFlags,
  cwd: string = process.cwd(),
): DriftOutputs {
  let report: DriftOutputs["report"];
  if (f.report !== undefined) {
    if (!(f.report in REPORTS))
      throw userError(
        "BAD_FLAG",
        `--report must be ${Object.keys(REPORTS).join(" or ")} (got "${f.report}")`,
      );
    report = REPORTS[f.report as keyof typeof REPORTS];
  }
  const key = f.key ?? DEFAULT_KEY;
  if (!KEY.test(key))
    throw userError(
      "BAD_FLAG",
      `--key must be 1–100 letters, digits, '.', '_', '/', '+' or '-' (got "${key}")`,
    );
  // Without --key, what an earlier phctl keyed by the config path is this run's too.
  const former = f.key === undefined ? pathKey(paths, cwd) : undefined;
  const formerKeys = former !== undefined && former !== key && KEY.test(former) ? [former] : [];
  const notify = f.notify ?? [];
  for (const u of notify) {
    const url = URL.canParse(u) ? new URL(u) : undefined;
    if (!url || (url.protocol !== "https:" && url.protocol !== "http:"))
      throw userError("BAD_FLAG", "--notify must be an http(s) URL (a webhook)");
  }
  const seconds = parseNumberFlag("--notify-timeout", f.notifyTimeout ?? "10", {
    min: 0.1,
    max: 300,
    unit: "seconds",
  });
  if (f.heartbeat && notify.length === 0)
    throw userError("BAD_FLAG", "--heartbeat needs --notify URL (where to post every run)");
  return {
    ...(report ? { report } : {}),
    key,
    formerKeys,
    notify,
    heartbeat: f.heartbeat === true,
    timeoutMs: Math.round(seconds * 1000),
    stateFile: f.state ?? DEFAULT_STATE_FILE,
    ...(f.metricsFile !== undefined ? { metricsFile: f.metricsFile } : {}),
  };
}
