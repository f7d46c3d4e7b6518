/**
 * `--outage-timeout DURATION`: how long a command waits out a service that stopped answering
 * (no answer, or 5xx/429 across the board) before it gives up with one line and exit 1. An
 * upper bound, counted from the service's last answer: every request (connection, headers,
 * body) ends within it too, so one that accepts and never answers ends the command in that
 * time plus a few seconds (src/api/outage.ts, transport.ts; bench/outage.ts measures it).
 * Every command that talks to the service takes it: plan, apply, drift, export, api and
 * doctor. Without it: phctl.yaml's `outageTimeout:` (the config's for plan, apply and drift;
 * the working directory's for api and export), else the client's 2 minutes; doctor, a probe,
 * waits 15 s. `comment` talks to GitHub or GitLab, not to the service: it has its own
 * bounded retries and no outage gate.
 */
import { Option } from "commander";
import { userError } from "../errors.js";
import { durationOf, parseDurationFlag } from "./flags.js";

/** The option, for `.addOption()`; `fallback` says what applies without it. */
export function outageTimeoutOption(fallback = "outageTimeout: in phctl.yaml, else 2m"): Option {
  return new Option(
    "--outage-timeout <duration>",
    `how long to wait out a service that stopped answering, e.g. 2m (default: ${fallback})`,
  );
}

/**
 * The outage deadline in milliseconds: the flag, else what the command read (`given`: its
 * phctl.yaml's, or its own default), else the working directory's phctl.yaml, else
 * undefined (the client's default).
 */
export async function outageTimeoutOf(
  flag: string | undefined,
  given: number | undefined,
  cwd: string,
): Promise<number | undefined> {
  if (flag !== undefined) return parseDurationFlag("--outage-timeout", flag);
  if (given !== undefined) return given;
  const { workingSetting } = await import("./working-config.js");
  const found = workingSetting(cwd, "outageTimeout");
  if (found?.value === undefined || found.value === null) return undefined;
  const ms = typeof found.value === "string" ? durationOf(found.value) : undefined;
  if (ms === undefined)
    throw userError(
      "BAD_CONFIG",
      `${found.file}: outageTimeout must be a duration such as 90s, 2m or 1h30m (got ${JSON.stringify(found.value)}); run phctl validate`,
    );
  return ms;
}
