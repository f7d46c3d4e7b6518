/**
 * The tracking issues of one drift run, from the CI variables (`--report github-issue` reads
 * GitHub's, `gitlab-issue` GitLab's, as `phctl comment` does): open the platform's client,
 * keep the drift issue (report.ts) and the expiry issue (expiry-run.ts), and say what
 * happened to each in one line — or, when it could not, what the platform said and what to
 * do about it. Never throws.
 */
import type { Plan } from "../engine/plan.js";
import { openIssueClient, type IssueApi } from "../ci/issues.js";
import { contextFor, type CiContext } from "../ci/platform.js";
import { expiryRun } from "./expiry-run.js";
import { sayIssue } from "./issue-lines.js";
import { platformProblem } from "./platform-problem.js";
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
  /** phctl.yaml's `expiry.warnDays` (the expiry issue's window). */
  warnDays: number;
  say: (line: string) => void;
  scrub: (s: string) => string;
}

/** The drift issue; undefined when it could not be kept (said through `say`). */
async function driftIssue(
  client: IssueApi,
  ctx: CiContext,
  i: IssueRun,
): Promise<ReportResult | undefined> {
  const { key, plan } = i;
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
    sayIssue(i.say, ctx, r, {
      what: "drift issue",
      label: DRIFT_LABEL,
      key,
      none: `in sync: no open drift issue (key ${key})`,
      closed: "in sync again",
      changed: "the drift changed",
    });
    return r;
  } catch (e) {
    i.say(`cannot report drift on ${ctx.name} (key ${key}): ${platformProblem(ctx, e)}`);
    return undefined;
  }
}

/**
 * Keep the key's drift issue, then its expiry issue (expiry-run.ts), on one client; the
 * drift issue's result (undefined when it could not be kept: said through `say`).
 */
export async function reportRun(i: IssueRun): Promise<ReportResult | undefined> {
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
    const r = await driftIssue(client, ctx, i);
    await expiryRun(client, ctx, i);
    return r;
  } finally {
    await client.close();
  }
}
