/**
 * `phctl drift [PATH…]`: the plan, for a scheduled job. Exit 0 in sync, 2 when live state
 * differs from the manifests (pending ticket and blocked entries included), 1 on error —
 * whatever the reporting does. The report names every drifted object and field.
 *
 * Where else it reports (src/drift): one tracking issue per key on GitHub or GitLab, and one
 * listing access that expires (`--report`), webhook messages (`--notify`, `--heartbeat`),
 * an OpenMetrics file (`--metrics-file`). A reporting failure is one line on stderr and leaves the exit code as
 * the drift says; a failed check still posts its error and writes its metrics.
 */
import type { Command } from "commander";
import type { GlobalOptions } from "./config.js";
import { redact, redactValue, registerSecret } from "../secrets.js";
import { outageTimeoutOption } from "./outage-timeout.js";
import type { DriftFlags } from "./drift-flags.js";
import { escapeHiddenLines } from "../visible.js";
import { join } from "node:path";

const collect = (v: string, all: string[] | undefined) => [...(all ?? []), v];
const shellWord = (s: string) => (/^[\w./+@=:-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);
const say = (line: string) => process.stderr.write(`phctl: ${escapeHiddenLines(redact(line))}\n`);
const messageOf = (x: unknown) =>
  x instanceof Error ? x.message : typeof x === "string" ? x : "an unknown error";

export function registerDrift(program: Command): void {
  program
    .command("drift")
    .description("report drift: exit 0 in sync, 2 when live state moved away from the manifests")
    .argument("[paths...]", "manifest files or directories", ["."])
    .option("--concurrency <n>", "reads in flight at once (default: phctl.yaml, else 8)")
    .addOption(outageTimeoutOption())
    .option("--format <format>", "text, markdown or json", "text")
    .option(
      "--report <where>",
      "github-issue or gitlab-issue: keep one tracking issue per key (opened on drift, updated, closed when in sync), and one listing access that expires",
    )
    .option(
      "--key <name>",
      "names the issue, the messages and the metric series (default: default, as for phctl comment)",
    )
    .option(
      "--notify <url>",
      "POST a JSON message to this webhook on every drifted run, on recovery and on errors (repeatable)",
      collect,
    )
    .option("--heartbeat", "with --notify: post on every run, in sync too")
    .option("--notify-timeout <seconds>", "per webhook attempt", "10")
    .option(
      "--state <file>",
      "with --notify and no --report: what the last run found, for recoveries (default: .phctl/drift-state.json beside phctl.yaml)",
    )
    .option(
      "--journal <file>",
      "the apply journal to read (welcome mails earlier applies owe, and that they sent the others): CI restores the apply job's; default: phctl.yaml's, else .phctl/journal.jsonl",
    )
    .option(
      "--adopt",
      "accept live changes: write the live values of what drifted into the manifests, in place (exit code unchanged: 2)",
    )
    .option(
      "--applied <dir>",
      "with --adopt: the config of the last commit an apply carried out (a checkout of it): adopt deletions made live, and leave changes merged since and not applied yet alone",
    )
    .option(
      "--metrics-file <path>",
      "write OpenMetrics text there, atomically (node_exporter textfile collector, Pushgateway)",
    )
    .addHelpText(
      "after",
      `
The tracking issue (--report) uses the variables of \`phctl comment\`: GITHUB_TOKEN (with
issues: write), GITHUB_REPOSITORY, GITHUB_API_URL; or PHCTL_GITLAB_TOKEN / GITLAB_TOKEN
(api scope), CI_API_V4_URL, CI_PROJECT_ID. It carries the label phctl-drift and is found
again by a hidden marker: reopened, never duplicated. Every run also keeps a second issue,
labelled phctl-expiry, open while a grant has expired or ends within expiry.warnDays
(phctl.yaml, default 14), drift or not. Failures of the issues, a webhook or the metrics
file are printed and leave the exit code as the drift says.

Examples:
  phctl drift examples/                       # nightly: exit 2 pages someone
  phctl drift --format json > drift.json
  phctl drift . --report github-issue --metrics-file drift.prom
  phctl drift . --notify "$SLACK_WEBHOOK_URL" --heartbeat
  phctl drift . --adopt && git diff             # accept live changes as a pull request
  phctl drift . --adopt --applied ../applied    # …and deletions made live (last applied commit)`,
    )
    .action(
      async (
        paths: string[],
        o: DriftFlags & { format: string; adopt?: boolean; applied?: string; journal?: string },
        cmd: Command,
      ) => {
        const started = Date.now();
        // Loaded when the command runs: `validate` and `--help` need none of the engine.
        const { checkFormat, makePlan, render } = await import("./plan-common.js");
        const { checkDriftFlags } = await import("./drift-flags.js");
        const format = checkFormat(o.format);
        const outputs = checkDriftFlags(paths, o);
        if (o.applied !== undefined && !o.adopt) {
          const { userError } = await import("../errors.js");
          throw userError(
            "BAD_FLAG",
            "--applied goes with --adopt (it tells deletions made live from declarations not applied yet)",
          );
        }
        const prep = o.adopt ? (await import("./drift-adopt.js")).prepareAdopt(o) : undefined;
        // The state file is the config's, like the journal: beside phctl.yaml.
        if (o.state === undefined) {
          const [{ configDirOf }, { DEFAULT_STATE_FILE }] = await Promise.all([
            import("../manifest/config-root.js"),
            import("../drift/state.js"),
          ]);
          const dir = configDirOf(paths, process.cwd()) ?? process.cwd();
          outputs.stateFile = join(dir, DEFAULT_STATE_FILE);
        }
        for (const u of outputs.notify) registerSecret(u);
        const delivering = outputs.report || outputs.notify.length > 0 || outputs.metricsFile;
        const deliver = async (
          plan?: Awaited<ReturnType<typeof makePlan>>["plan"],
          e?: unknown,
          warnDays?: number,
        ) => {
          if (!delivering) return;
          const { deliver } = await import("../drift/deliver.js");
          // Reporting never changes what the exit code says, not even through a bug of its own.
          await deliver({
            outputs,
            ...(plan ? { plan } : {}),
            ...(e !== undefined ? { error: redact(messageOf(e)) } : {}),
            started,
            applyCommand: `phctl apply ${paths.map(shellWord).join(" ")}`,
            ...(warnDays !== undefined ? { warnDays } : {}),
            env: process.env,
            say,
            scrub: redact,
          }).catch((x: unknown) => say(`reporting failed: ${messageOf(x)}`));
        };

        const global = cmd.optsWithGlobals<GlobalOptions & { color?: boolean }>();
        let run;
        try {
          // Live rules too: every live object, managed or not.
          run = await makePlan(paths, cmd, undefined, {
            liveRules: true,
            ...(prep ? { alongside: (state) => prep.alongside(state) } : {}),
          });
        } catch (e) {
          prep?.release();
          await deliver(undefined, e);
          throw e;
        }
        await run.close();
        // Live values may hold a credential: what drift prints, posts and writes is the plan
        // masked (src/secrets.ts); --adopt works on the real values (and adopts no credential).
        const plan = redactValue(run.plan);
        process.stdout.write(
          render(plan, format, {
            mode: "drift",
            ...(global.verbose ? { verbose: true } : {}),
            ...(global.color === false ? { color: false } : {}),
          }),
        );
        if (plan.entries.length > 0) {
          if (format === "text") {
            process.stderr.write(
              `phctl: drift: ${plan.entries.length.toLocaleString("en-US")} difference${plan.entries.length === 1 ? "" : "s"} between the manifests and live state\n`,
            );
          }
          process.exitCode = 2;
          if (o.adopt) {
            const { adoptStep } = await import("./drift-adopt.js");
            await adoptStep(run, {
              json: format === "json",
              ...(prep ? { evidence: prep.evidence(run, run.alongside) } : {}),
            });
          }
        }
        prep?.release();
        await deliver(plan, undefined, run.state.config.expiry?.warnDays);
      },
    );
}
