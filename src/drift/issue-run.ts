/**
 * The tracking issue of one drift run, from the CI variables (`--report github-issue` reads
 * GitHub's, `gitlab-issue` GitLab's, as `phctl comment` does): open the platform's client,
 * keep the issue (report.ts), and say what happened in one line — or, when it could not,
 * what the platform said and what to do about it. Never throws.
 */
import type { Plan } from "../engine/plan.js";
import { openIssueClient } from "../ci/issues.js";
import { contextFor, type CiContext } from "../ci/platform.js";
import { CiHttpError } from "../ci/retry.js";
import { DRIFT_LABEL, issueBody } from "./issue-body.js";
import { reportDrift, type ReportResult } from "./report.js";
import { countsOf } from "./summary.js";

/** What the run tells the issue part. */
export interface IssueRun {
  platform: "github" | "gitlab";
  key: string;
  /** Keys an earlier phctl used for this scope (their issue is taken over). */
  formerKeys?: readonly string[];
  plan: Plan;
  /** "phctl apply examples", for the body. */
  applyCommand: string;
  env: NodeJS.ProcessEnv;
  say: (line: string) => void;
  scrub: (s: string) => string;
}

function problem(ctx: CiContext, e: unknown): string {
  if (!(e instanceof CiHttpError)) return e instanceof Error ? e.message : String(e);
  const s = e.status;
  const said =
    s === undefined || e.platformMessage.startsWith(`${s} `)
      ? e.platformMessage
      : `${s} ${e.platformMessage}`;
  const gh = ctx.platform === "github";
  const hint =
    s === 401
      ? gh
        ? "the token was refused: pass the job's token as GITHUB_TOKEN"
        : "set PHCTL_GITLAB_TOKEN to a token with api scope"
      : s === 403
        ? gh
          ? "give the job `issues: write` in its permissions"
          : "PHCTL_GITLAB_TOKEN needs api scope and the Reporter role or more"
        : s === 404 || s === 410
          ? `check ${gh ? "GITHUB_REPOSITORY" : "CI_PROJECT_ID"} (${ctx.project}) and that its issues are enabled`
          : s !== undefined && s < 500 && s !== 429
            ? "this is likely a phctl bug: please report it"
            : `${ctx.name} may be having trouble: the next run tries again`;
  return `${said} — ${hint}`;
}

/** Keep the key's issue; undefined when it could not (said through `say`). */
export async function reportRun(i: IssueRun): Promise<ReportResult | undefined> {
  const { key, plan } = i;
  let ctx: CiContext;
  try {
    ctx = contextFor(i.platform, i.env);
  } catch (e) {
    i.say(`cannot report drift: ${(e as Error).message}`);
    return undefined;
  }
  if (!ctx.token) {
    i.say(`cannot report drift on ${ctx.name}: no token (${ctx.noToken ?? "none set"})`);
    return undefined;
  }
  const client = openIssueClient(ctx, ctx.token);
  try {
    const r = await reportDrift(client, {
      key,
      ...(i.formerKeys ? { formerKeys: i.formerKeys } : {}),
      plan,
      ...(ctx.run ? { run: ctx.run } : {}),
      scrub: i.scrub,
      render: (meta) =>
        issueBody({
          key,
          plan,
          counts: countsOf(plan),
          meta,
          applyCommand: i.applyCommand,
          ...(ctx.run ? { run: ctx.run } : {}),
          footer: ctx.footer,
          maxChars: ctx.maxChars,
          artifactHint: `the output of \`phctl drift --format json\` in ${ctx.run?.label ?? "the CI run"}`,
        }),
    });
    const n = r.issue ? `#${r.issue.number}` : "";
    const url = r.issue?.url ? ` (${r.issue.url})` : "";
    for (const d of r.duplicates)
      i.say(
        `closed drift issue #${d} as a duplicate of ${n} (two runs opened one at the same time)`,
      );
    if (r.action === "none") i.say(`in sync: no open drift issue (key ${key})`);
    else if (r.action === "closed")
      i.say(`closed drift issue ${n} (key ${key}): in sync again${url}`);
    else
      i.say(
        `${r.action} drift issue ${n} (key ${key})${url}${r.action === "updated" && r.changed ? "; the drift changed: commented" : ""}${r.recovered ? " — the first attempt got no answer but had landed; it was not sent twice" : ""}`,
      );
    if (r.labelDropped)
      i.say(
        `${ctx.name} did not set the label ${DRIFT_LABEL} on ${n}: the next run cannot find it; give the token the right to set labels (issues: write)`,
      );
    return r;
  } catch (e) {
    i.say(`cannot report drift on ${ctx.name} (key ${key}): ${problem(ctx, e)}`);
    return undefined;
  } finally {
    await client.close();
  }
}
