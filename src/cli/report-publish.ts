/**
 * `phctl report publish REPORT.json`: a report read once (`phctl report access . --format
 * json`) written again from that file with no other read — as HTML (the CI artifact), as
 * markdown (the job summary) — and, for the access review with `--issue`, one issue per key
 * and month — "Access review 2026-06" — kept with the drift issue's clients
 * (src/ci/issues.ts, src/ci/monthly-issue.ts): opened the first time, brought up to date by
 * every later run of the month, never a second. A failure of the issue is one line on stderr
 * and exit 1 (the files are written first); the token never reaches any output.
 */
import { readFileSync } from "node:fs";
import { userError } from "../errors.js";
import { redact, redactValue } from "../secrets.js";
import { createRequire } from "node:module";
import type { Ajv } from "ajv";
import { Report, type AccessReport } from "../report/types.js";
import { escapeHiddenLines } from "../visible.js";

/** A report's markdown within a number of characters (src/render/report-markdown.ts). */
export type ReportMarkdown = (report: Report, limit?: number) => string;

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
  // ajv as saved-plan.ts loads it (a bundle keeps no import()).
  const mod = createRequire(import.meta.url)("ajv") as { default: new (o: object) => Ajv };
  const validate = new mod.default({ strict: false, allErrors: false }).compile(Report);
  // A plain boolean: whether ajv's type guard narrows `data` depends on how deep TypeScript
  // follows the report's schema type, which the type-aware lint did not always agree on.
  const valid: boolean = validate(data);
  if (!valid) {
    const first = validate.errors?.[0];
    const where = first
      ? `${first.instancePath || "/"} ${first.message ?? ""}`
      : "unexpected shape";
    throw userError("BAD_REPORT", `${file} is not a phctl report (${where}); write it with phctl report access|delivery --format json`); // prettier-ignore
  }
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

/** What `phctl report publish` takes: report.ts's --format and --out, and the issue. */
export interface PublishOptions {
  format: string;
  out?: string;
  issue?: string;
  key: string;
}

/**
 * `phctl report publish REPORT.json [--format F --out FILE] [--issue github-issue]`: the
 * saved report written in the format asked (`write`: report.ts's, as a live report is) and,
 * with --issue, this month's access-review issue kept.
 */
export async function runReportPublish<O extends PublishOptions>(
  file: string,
  o: O,
  write: (report: Report, o: O) => Promise<void>,
): Promise<void> {
  if (!KEY.test(o.key))
    throw userError("BAD_FLAG", `--key must be 1–100 letters, digits, '.', '_', '/' or '-' (got "${o.key}")`); // prettier-ignore
  const platform = o.issue === undefined ? undefined : ({ "github-issue": "github", "gitlab-issue": "gitlab" } as const)[o.issue]; // prettier-ignore
  if (o.issue !== undefined && !platform)
    throw userError("BAD_FLAG", `--issue must be github-issue or gitlab-issue (got "${o.issue}")`); // prettier-ignore
  // A value in a saved report may hold a credential: masked before any format sees it.
  const report = redactValue(await readReportFile(file));
  if (platform && report.kind !== "access")
    throw userError("BAD_FLAG", `--issue keeps the access review's issue: ${file} is a ${report.kind} report; publish an access report (phctl report access --format json)`); // prettier-ignore
  await write(report, o);
  if (platform && report.kind === "access") {
    const { renderReportMarkdown } = await import("../render/report-markdown.js");
    say(await publishAccessIssue({ platform, key: o.key, report, markdown: renderReportMarkdown, env: process.env })); // prettier-ignore
  }
}
