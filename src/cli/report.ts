/**
 * `phctl report access|delivery [PATH…]`: the access review or the delivery metrics of the
 * service the config names, as html, markdown, csv or json (src/report/ builds the data,
 * src/render/report-*.ts renders it). A section that could not be read (the git host's
 * DORA API, an organization's last-login search) is shown as failed and the command exits
 * 1, unless `--allow-partial`; what depends on it reads "unknown", never 0.
 *
 * Where it goes: stdout, or `--out FILE`. CSV is one file per table: `--out DIR` writes
 * every table as DIR/<table>.csv; `--out <table>.csv` writes that one table.
 */
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { Command } from "commander";
import { userError } from "../errors.js";
import { redactValue } from "../secrets.js";
import type { Report } from "../report/types.js";
import type { GlobalOptions } from "./config.js";
import { outageTimeoutOption } from "./outage-timeout.js";

export const REPORT_FORMATS = ["html", "markdown", "csv", "json"] as const;
/** Usernames that look like service accounts unless --service-account says otherwise. */
export const DEFAULT_SERVICE_ACCOUNTS = ["*-bot", "bot-*", "svc-*", "*-svc", "ci-*", "*[bot]"];

interface ReportOptions {
  issue?: string;
  key: string;
  format: string;
  out?: string;
  inactive: string;
  since?: string;
  period: string;
  allowPartial?: boolean;
  serviceAccount: string[];
  propose?: boolean;
  dryRun?: boolean;
  baseBranch?: string;
  maxRequests: string;
}

function readSince(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw userError(
      "BAD_SINCE",
      `--since ${file}: ${(e as NodeJS.ErrnoException).code ?? "cannot read"}; give the JSON of an earlier phctl report access --format json`,
    );
  }
}

export function registerReport(program: Command): void {
  program
    .command("report")
    .description("an access review, or DORA, CI and usage metrics, from the live service")
    .argument("<kind>", "access or delivery; publish: a saved report (--format json) again")
    .argument("[paths...]", "manifest files or directories (the config)", ["."])
    .option("--format <format>", `${REPORT_FORMATS.join(", ")}`, "markdown")
    .option("--out <file>", "write there instead of stdout (csv: a directory, or <table>.csv)")
    .option(
      "--inactive <span>",
      "access: users without a login for this long are inactive (d, w, m)",
      "90d",
    )
    .option("--since <file>", "access: an earlier report (--format json) to show what changed")
    .option(
      "--period <span>",
      "delivery: the period measured, and the one before it (d, w, m)",
      "3m",
    )
    .option(
      "--service-account <glob>",
      `access: usernames of service accounts (repeatable; default ${DEFAULT_SERVICE_ACCOUNTS.join(" ")})`,
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option("--allow-partial", "exit 0 when a section could not be read (it says so)")
    .option(
      "--propose",
      "access: open one pull/merge request per project that turns findings (and ended grants) into manifest edits",
    )
    .option("--dry-run", "with --propose: print the requests, send nothing")
    .option("--base-branch <name>", "with --propose: the branch requests target (default: CI's)")
    .option(
      "--max-requests <n>",
      "with --propose: open or refresh at most N requests a run; the rest wait for the next",
      "20",
    )
    .option(
      "--issue <where>",
      "publish: github-issue or gitlab-issue, keep the month's access-review issue (report-publish.ts)",
    ) // prettier-ignore
    .option(
      "--key <name>",
      "publish: names the issue when a repository has several configs",
      "default",
    ) // prettier-ignore
    .option("--concurrency <n>", "reads in flight at once (default: phctl.yaml, else 8)")
    .addOption(outageTimeoutOption())
    .addHelpText(
      "after",
      `
Examples:
  phctl report access --format markdown >> "$GITHUB_STEP_SUMMARY"
  phctl report access --format json --out review.json --inactive 60d
  phctl report access --since last-month.json --format html --out review.html
  phctl report access --propose --dry-run   # findings as pull/merge requests, one per project
  phctl report delivery --period 3m --format csv --out metrics/   # one CSV per table
  PHCTL_GIT_TOKEN=… phctl report delivery --git-api-url https://git.example.org/api/v4`,
    )
    .action(async (kind: string, paths: string[], o: ReportOptions, cmd: Command) => {
      if (kind === "publish" && paths.length === 1 && paths[0] !== ".")
        return (await import("./report-publish.js")).runReportPublish(paths[0], o, write);
      if (kind === "publish")
        throw userError("BAD_ARGUMENT", "report publish takes one saved report: phctl report publish review.json --format html --out review.html"); // prettier-ignore
      if (kind !== "access" && kind !== "delivery")
        throw userError("BAD_ARGUMENT", `report access or report delivery (got ${kind})`);
      if (!(REPORT_FORMATS as readonly string[]).includes(o.format))
        throw userError(
          "BAD_FLAG",
          `--format must be one of ${REPORT_FORMATS.join(", ")} (got ${o.format})`,
        );
      if (o.format === "csv" && !o.out)
        throw userError(
          "BAD_FLAG",
          "--format csv writes one file per table: give --out DIR, or --out <table>.csv for one",
        );
      const { parseSpan, spanDays } = await import("../report/span.js");
      const inactive = spanDays(parseSpan("--inactive", o.inactive));
      const period = parseSpan("--period", o.period);
      if (spanDays(period) > 366)
        throw userError(
          "BAD_FLAG",
          "--period may be at most 12m (the git host answers at most 366 days)",
        );
      const { parsePrevious } = await import("../report/since.js");
      const previous = o.since ? parsePrevious(o.since, readSince(o.since)) : undefined;

      const { loadOrFail, openService, readProgress } = await import("./plan-common.js");
      const { makeAccessReport, makeDeliveryReport } = await import("../report/report.js");
      if (o.propose && kind !== "access")
        throw userError("BAD_FLAG", "--propose turns access findings into requests: phctl report access --propose"); // prettier-ignore
      const proposeOnly = ["dryRun", "baseBranch"].filter((k) => o[k as keyof ReportOptions] !== undefined); // prettier-ignore
      if (!o.propose && proposeOnly.length > 0)
        throw userError("BAD_FLAG", `--${proposeOnly[0] === "dryRun" ? "dry-run" : "base-branch"} goes with --propose: phctl report access --propose --dry-run`); // prettier-ignore
      const maxRequests = Number(o.maxRequests);
      if (!Number.isInteger(maxRequests) || maxRequests < 1)
        throw userError("BAD_FLAG", `--max-requests must be a whole number of at least 1 (got ${o.maxRequests})`); // prettier-ignore
      const loaded = await loadOrFail(paths);
      const { state } = loaded;
      const { connection, apiUrl } = await openService(state, cmd);
      const global = cmd.optsWithGlobals<GlobalOptions & { color?: boolean }>();
      let report: Report;
      try {
        const api = connection.client;
        const run = { api, state, apiUrl };
        report = await readProgress(`report ${kind}`, "live state", api, global).around(
          (): Promise<Report> =>
            kind === "access"
              ? makeAccessReport({
                  ...run,
                  inactiveDays: inactive,
                  serviceAccountPatterns:
                    o.serviceAccount.length > 0 ? o.serviceAccount : DEFAULT_SERVICE_ACCOUNTS,
                  ...(previous ? { previous } : {}),
                })
              : makeDeliveryReport({ ...run, period }),
        );
      } finally {
        await connection.close();
      }
      // A live value or an error may hold a credential: masked before any format sees it.
      report = redactValue(report);
      await write(report, o);
      const failed = report.sections.filter((s) => s.status === "failed");
      for (const s of failed)
        process.stderr.write(
          `phctl: report ${kind}: ${s.title} could not be read: ${s.error ?? ""}${s.set?.length ? `; set ${s.set.join(" or ")}` : ""}${s.next ? `; ${s.next}` : ""}${o.allowPartial ? "" : " (--allow-partial exits 0)"}\n`,
        );
      if (failed.length > 0 && !o.allowPartial) process.exitCode = 1;
      if (o.propose && report.kind === "access") {
        if (report.partial)
          throw userError("PARTIAL_REVIEW", "--propose: the review is partial (a section could not be read): nothing proposed; run it again"); // prettier-ignore
        const { runPropose, ownersOf } = await import("./report-propose.js");
        await runPropose(
          report,
          loaded,
          { ...o, maxRequests },
          process.env,
          ownersOf(loaded, paths),
        );
      }
    });
}

async function write(report: Report, o: ReportOptions): Promise<void> {
  const { writeAtomically } = await import("../fs/write-atomically.js");
  if (o.format === "csv") {
    const { renderReportCsv } = await import("../render/report-csv.js");
    const files = renderReportCsv(report);
    const out = o.out!;
    const isDir = (() => {
      try {
        return statSync(out).isDirectory();
      } catch {
        return !out.toLowerCase().endsWith(".csv");
      }
    })();
    if (!isDir) {
      const text = files.get(basename(out));
      if (text === undefined)
        throw userError(
          "BAD_FLAG",
          `--out ${out}: no table ${basename(out)}; name one of ${[...files.keys()].join(", ")}, or give a directory for all`,
        );
      writeAtomically(out, text);
      return;
    }
    mkdirSync(out, { recursive: true });
    for (const [name, text] of files) writeAtomically(join(out, name), text);
    process.stderr.write(`phctl: wrote ${files.size} CSV files to ${out}\n`);
    return;
  }
  let text: string;
  if (o.format === "json")
    text = (await import("../render/report-json.js")).renderReportJson(report);
  else if (o.format === "html")
    text = (await import("../render/report-html.js")).renderReportHtml(report);
  else text = (await import("../render/report-markdown.js")).renderReportMarkdown(report);
  if (o.out) writeAtomically(o.out, text);
  else process.stdout.write(text);
}
