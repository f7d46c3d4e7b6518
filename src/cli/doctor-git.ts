/**
 * `phctl doctor`'s check of the git host's delivery-metrics API, which `phctl report
 * delivery` reads (with PHCTL_GIT_TOKEN, at --git-api-url / PHCTL_GIT_API_URL): one DORA read
 * — deployment frequency over the last week, in all — of the git group the project reads
 * found, so that a wrong token or address shows here rather than when the monthly report
 * job fails. Without a git token it is not checked, and says how to check it.
 */
import type { ApiClient } from "../api/client.js";
import { ApiError } from "../api/errors.js";
import type { ApiProfile } from "../api/profile.js";
import { checkResponse } from "../api/strict.js";
import { PhctlError } from "../errors.js";
import type { GitGroupFound } from "./doctor-project-reads.js";
import { ms, Prober, type Answer, type Refusal } from "./doctor-probe.js";
import type { Check } from "./doctor-report.js";

const NAME = "delivery-metrics API";
const METRIC = "deployment_frequency";
/** Days read, today included: short, so that the read is cheap on any git host. */
const DAYS = 7;

/** What the command line and environment say about the delivery-metrics API. */
export interface GitSettings {
  /** PHCTL_GIT_TOKEN is set. */
  token: boolean;
  /** --git-api-url or PHCTL_GIT_API_URL is set (else the default address is used). */
  url: boolean;
}

const URL_FIX =
  "set PHCTL_GIT_API_URL (or --git-api-url) to the delivery-metrics API's own address (a GitLab host's is https://HOST/api/v4)";

/** `YYYY-MM-DD` of a time, UTC. */
const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The check's row for an answer (or refusal) of the DORA read. */
function rowOf(
  a: Answer | Refusal,
  base: string,
  group: { projectSlug: string; id: number | string },
  what: string,
  profile: ApiProfile,
): Check {
  const fail = (detail: string, fix: string): Check => ({
    name: NAME,
    status: "fail",
    detail,
    fix,
  });
  if (a.ok) {
    const [m] = checkResponse("dora.group", a.body, profile);
    if (m)
      return fail(
        `${base} answers (${a.status}), but not as the delivery-metrics API: ${m.path ? `${m.path} ` : ""}expected ${m.expected}, got ${m.got}`,
        URL_FIX,
      );
    const n = Array.isArray(a.body) ? a.body.length : 0;
    return {
      name: NAME,
      status: "ok",
      detail: `${base} answers: ${what}, ${n} point${n === 1 ? "" : "s"} in ${ms(a.ms)}`,
    };
  }
  const e = a.error;
  const said = e instanceof ApiError ? e.serverMessage : e.message;
  const code = e instanceof PhctlError ? e.code : "";
  if (a.status === 0) return fail(`${base} not reachable: ${said}`, URL_FIX);
  if (code === "NOT_THE_API")
    return fail(
      `${base} answers (${a.status}), but not as the delivery-metrics API: ${said}`,
      URL_FIX,
    );
  if (a.status === 401)
    return fail(
      `the git token was not accepted (401 ${said})`,
      "set a valid token of the git host in PHCTL_GIT_TOKEN",
    );
  if (a.status === 403)
    return fail(
      `the git token may not read the metrics of git group ${group.id} (403 ${said})`,
      "set PHCTL_GIT_TOKEN to a token that may read the metrics of the service's git groups",
    );
  if (a.status === 404)
    return fail(
      `git group ${group.id} (of project ${group.projectSlug}) not found at ${base} (404 ${said}): the git host may not know the service's groups`,
      "check that PHCTL_GIT_API_URL (or --git-api-url) is the address of the git host this service's groups live on, API prefix included",
    );
  const trouble = a.status === 429 || a.status >= 500;
  return fail(
    `${base} answered ${a.status} ${code}: ${said}`,
    trouble
      ? `the git host is in trouble: run phctl doctor again later; if it stays, ${URL_FIX}`
      : URL_FIX,
  );
}

/**
 * The delivery-metrics row: not checked without a git token; else one DORA read of `group`
 * (through a prober of its own, so the git host's Date and rate-limit headers are not
 * taken for the service's).
 */
export async function deliveryMetricsCheck(
  client: ApiClient,
  profile: ApiProfile,
  git: GitSettings,
  group: GitGroupFound | undefined,
  now = Date.now(),
): Promise<Check> {
  const base = client.gitApiUrl;
  if (!git.token)
    return git.url
      ? {
          name: NAME,
          status: "warn",
          detail: `not checked: PHCTL_GIT_API_URL (or --git-api-url) is ${base}, but PHCTL_GIT_TOKEN is not set`,
          fix: "set PHCTL_GIT_TOKEN to check it (phctl report delivery needs both)",
        }
      : {
          name: NAME,
          status: "skip",
          detail: `not checked: PHCTL_GIT_TOKEN is not set — set it (and PHCTL_GIT_API_URL, if the git host is not at ${base}) to check the API phctl report delivery reads`,
        };
  if (!group || "none" in group)
    return {
      name: NAME,
      status: "skip",
      detail: `not checked: ${group ? group.none : "the service's projects were not read"}`,
    };
  const [start, end] = [day(now - (DAYS - 1) * 86_400_000), day(now)];
  const what = `${METRIC} of git group ${group.id} (project ${group.projectSlug}), ${start} to ${end}`;
  const p = new Prober(client, profile);
  let a: Answer | Refusal;
  try {
    a = await p.get(
      "dora.group",
      { id: group.id },
      { metric: METRIC, interval: "all", start_date: start, end_date: end },
    );
  } catch (e) {
    // The git host's outage gate gave up (OutageError): no answer, like a refused connection.
    if (!(e instanceof PhctlError) || e.source === "internal") throw e;
    a = { ok: false, status: 0, error: e, ms: 0 };
  }
  return rowOf(a, base, group, what, profile);
}
