/**
 * `phctl report publish REPORT.json`: the monthly publishing of a report read once
 * (`phctl report access . --format json`), from that file and no other read: the HTML file
 * (the CI artifact), the markdown (the job summary) and, for the access review, one issue
 * per key and month — "Access review 2026-06" — kept with the drift issue's clients
 * (src/ci/issues.ts, src/ci/monthly-issue.ts): opened the first time, brought up to date by
 * every later run of the month, never a second. A failure of the issue is one line on stderr
 * and exit 1 (the files are written first); the token never reaches any output.
 */
import { readFileSync, writeFileSync } from "node:fs";
import type { Command } from "commander";
import { userError } from "../errors.js";
import { redact, redactValue } from "../secrets.js";
import type { AccessReport, Report } from "../report/types.js";
import { escapeHiddenLines } from "../visible.js";

/** A report's markdown within a number of characters (src/render/report-markdown.ts). */
export type ReportMarkdown = (report: Report, limit?: number) => string;

interface PublishOptions {
  html?: string;
  markdown?: string;
  issue?: string;
  key: string;
}

const KEY = /^[A-Za-z0-9._/-]{1,100}$/;
const say = (line: string) => process.stderr.write(`phctl: ${escapeHiddenLines(redact(line))}\n`);

/** The issue's title: "Access review 2026-06", the key after it when there are several. */
export const accessReviewTitle = (month: string, key: string): string =>
  `Access review ${month}${key === "default" ? "" : ` (${key})`}`;

/** A saved report, checked against the published schema; one line naming the file when not. */
export async function readReportFile(file: string): Promise<Report> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw userError("BAD_REPORT", `cannot read the report ${file}: ${why}; write it with phctl report access|delivery --format json`); // prettier-ignore
  }
  const [{ Value }, { Report }] = await Promise.all([import("@sinclair/typebox/value"), import("../report/types.js")]); // prettier-ignore
  const first = Value.Errors(Report, data).First();
  if (first)
    throw userError("BAD_REPORT", `${file} is not a phctl report (${first.path || "/"}: ${first.message}); write it with phctl report access|delivery --format json`); // prettier-ignore
  return data as Report;
}

/**
 * The issue's body within the platform's limit: the markdown cut between whole lines, and
 * where the whole report is.
 */
export function fitBody(markdown: string, maxChars: number, whole: string): string {
  if (markdown.length <= maxChars) return markdown;
  const tail = `\n\n_Cut to fit the issue: the whole review is ${whole}._\n`;
  const head = markdown.slice(0, Math.max(0, maxChars - tail.length));
  return `${head.slice(0, Math.max(0, head.lastIndexOf("\n")))}${tail}`;
}

/** Keep this month's access-review issue; the line to say, or a thrown user error. */
export async function publishAccessIssue(i: {
  platform: "github" | "gitlab";
  key: string;
  report: AccessReport;
  markdown: ReportMarkdown;
  env: NodeJS.ProcessEnv;
}): Promise<string> {
  const [{ contextFor }, { openIssueClient }, { keepMonthlyIssue, ACCESS_REVIEW_LABEL, monthlyMarker }, { platformError }] = await Promise.all([import("../ci/platform.js"), import("../ci/issues.js"), import("../ci/monthly-issue.js"), import("../ci/publish.js")]); // prettier-ignore
  const ctx = contextFor(i.platform, i.env);
  if (!ctx.token)
    throw userError("NO_CI_TOKEN", `cannot keep the access-review issue on ${ctx.name}: no token (${ctx.noToken ?? "none set"})`); // prettier-ignore
  const month = i.report.generatedAt.slice(0, 7);
  const room = ctx.maxChars - monthlyMarker("access-review", i.key, month).length - 1;
  const whole = `in the HTML and JSON reports of ${ctx.run?.url ?? ctx.run?.label ?? "the CI run"}`;
  // The data is scrubbed before it is rendered: markdown escapes a token's `_` and the
  // rendered text would no longer match it.
  const body = redact(fitBody(i.markdown(redactValue(i.report), room), room, whole));
  const client = openIssueClient(ctx, ctx.token);
  try {
    const r = await keepMonthlyIssue(client, {
      kind: "access-review",
      key: i.key,
      month,
      title: accessReviewTitle(month, i.key),
      body,
      label: ACCESS_REVIEW_LABEL,
    });
    const url = r.issue.url ? ` (${r.issue.url})` : "";
    const notes = [
      ...r.duplicates.map((d) => `closed #${d} as its duplicate`),
      ...(r.labelDropped ? [`${ctx.name} did not set the label ${ACCESS_REVIEW_LABEL}: the next run cannot find the issue; give the token the right to set labels (issues: write)`] : []), // prettier-ignore
    ];
    return `${r.action} access-review issue #${r.issue.number} for ${month}${url}${notes.length ? `; ${notes.join("; ")}` : ""}`; // prettier-ignore
  } catch (e) {
    throw platformError(ctx, `keep the access-review issue on ${ctx.name}`, e);
  } finally {
    await client.close();
  }
}

/** Add `publish` to the `report` command. */
export function registerReportPublish(report: Command): void {
  report
    .command("publish")
    .description(
      "write a saved report as HTML and markdown, and keep the month's access-review issue (CI)",
    )
    .argument("<report>", "the saved report (phctl report access|delivery --format json)")
    .option("--html <file>", "write the self-contained HTML report here")
    .option(
      "--markdown <file>",
      'write the markdown here ("-": stdout, e.g. >> $GITHUB_STEP_SUMMARY)',
    ) // prettier-ignore
    .option(
      "--issue <where>",
      "github-issue or gitlab-issue: keep one access-review issue per key and month",
    ) // prettier-ignore
    .option(
      "--key <name>",
      "names the issue when a repository has several config directories",
      "default",
    ) // prettier-ignore
    .addHelpText(
      "after",
      `
The issue ("Access review YYYY-MM", label phctl-access-review) uses the variables of
\`phctl comment\`: GITHUB_TOKEN (with issues: write), GITHUB_REPOSITORY, GITHUB_API_URL; or
PHCTL_GITLAB_TOKEN / GITLAB_TOKEN (api scope), CI_API_V4_URL, CI_PROJECT_ID. A later run in
the same month updates that issue; one the reviewers closed stays closed.

Examples:
  phctl report access . --format json > review.json
  phctl report publish review.json --html review.html --markdown - --issue github-issue`,
    )
    .action(async (file: string, o: PublishOptions) => {
      if (!KEY.test(o.key))
        throw userError("BAD_FLAG", `--key must be 1–100 letters, digits, '.', '_', '/' or '-' (got "${o.key}")`); // prettier-ignore
      const platform = o.issue === undefined ? undefined : ({ "github-issue": "github", "gitlab-issue": "gitlab" } as const)[o.issue]; // prettier-ignore
      if (o.issue !== undefined && !platform)
        throw userError("BAD_FLAG", `--issue must be github-issue or gitlab-issue (got "${o.issue}")`); // prettier-ignore
      const report = redactValue(await readReportFile(file));
      const { renderReportMarkdown: markdown } = await import("../render/report-markdown.js");
      if (platform && report.kind !== "access")
        throw userError("BAD_FLAG", `--issue keeps the access review's issue: ${file} is a ${report.kind} report; publish an access report (phctl report access --format json)`); // prettier-ignore
      if (o.html) {
        const { renderReportHtml } = await import("../render/report-html.js");
        writeFileSync(o.html, renderReportHtml(report));
      }
      if (o.markdown === "-") process.stdout.write(markdown(report));
      else if (o.markdown) writeFileSync(o.markdown, markdown(report));
      if (platform && report.kind === "access")
        say(await publishAccessIssue({ platform, key: o.key, report, markdown, env: process.env }));
    });
}
