/**
 * `phctl comment PLAN.json`: publish a saved plan as ONE pull-request (GitHub) or
 * merge-request (GitLab) comment, found again by its hidden marker and updated in place on
 * every run (`--key` for several config directories in one repository); `--outcome` adds
 * how the apply after merge went (each failed object with its error and next step), and
 * `--follow-up` keeps the follow-up issue of an apply that did not finish. `--stale ERRORS`
 * (no plan) marks the comment stale after a plan job that failed; `--unreviewed` (no plan)
 * keeps the follow-up issue of a commit the apply job found no reviewed plan for (a direct
 * push): nothing was applied, and the issue says how to carry it reviewed. The markdown also goes to
 * $GITHUB_STEP_SUMMARY. Without a token that can comment (a pull request from a fork, or
 * outside CI: then the markdown goes to stdout) it says so and exits 0; a platform that
 * refuses exits 1 with its message. The platform code lives in src/ci.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import type { Command } from "commander";
import type { CiContext } from "../ci/platform.js";
import type { ApplyOutcome } from "../engine/apply-outcome.js";
import { PhctlError, userError } from "../errors.js";
import { redact, redactValue } from "../secrets.js";
import { parseNumberFlag } from "./flags.js";
import { escapeHiddenLines } from "../visible.js";

interface CommentOptions {
  key: string;
  pr?: string;
  outcome?: string;
  artifactHint?: string;
  stale?: string;
  followUp?: boolean;
  unreviewed?: boolean;
}

const KEY = /^[A-Za-z0-9._/-]{1,100}$/;

function say(line: string): void {
  process.stderr.write(`phctl: ${escapeHiddenLines(redact(line))}\n`);
}

export function registerComment(program: Command): void {
  program
    .command("comment")
    .description(
      "publish a saved plan as one pull-request (GitHub) or merge-request (GitLab) comment, updated in place on every run",
    )
    .argument("[plan]", "the saved plan (phctl plan --out plan.json); none with --stale")
    .option(
      "--key <name>",
      "which comment: one per key on a pull request (several config directories)",
      "default",
    )
    .option(
      "--pr <n>",
      "the pull/merge request number (default: the CI event's, else the merged one of the commit)",
    )
    .option("--outcome <file>", "the apply result (phctl apply --result FILE): say how it went")
    .option(
      "--follow-up",
      "with --outcome: keep one follow-up issue (label phctl-follow-up) while an apply is refused or fails, closed once one applies everything",
    )
    .option(
      "--unreviewed",
      "the apply job found no reviewed plan for this commit (a direct push): keep the follow-up issue saying so, and how to carry the changes reviewed",
    )
    .option(
      "--stale <errors-file>",
      "the plan job failed (its error output in this file): mark the comment stale, with the error, keeping the earlier plan below",
    )
    .option(
      "--artifact-hint <text>",
      "where readers find the whole plan when the comment is cut (default: the plan file in the run's artifacts)",
    )
    .addHelpText(
      "after",
      `
Environment:
  GitHub Actions  GITHUB_TOKEN (a token with pull-requests: write), GITHUB_REPOSITORY,
                  GITHUB_EVENT_PATH, GITHUB_SHA, GITHUB_API_URL (Enterprise Server);
                  the markdown is also appended to GITHUB_STEP_SUMMARY
  GitLab CI       PHCTL_GITLAB_TOKEN or GITLAB_TOKEN (api scope), CI_API_V4_URL,
                  CI_PROJECT_ID, CI_MERGE_REQUEST_IID, CI_COMMIT_SHA
Without a token that can comment (e.g. a pull request from a fork) the plan goes to the
step summary (else stdout) and phctl exits 0; a platform that refuses exits 1.

Examples:
  phctl plan . --base ../base --out plan.json && phctl comment plan.json
  phctl comment plan.json --key infra/prod          # one comment per config directory
  phctl comment plan.json --outcome result.json     # after merge: the apply's outcome
  phctl comment plan.json --outcome result.json --follow-up   # and the follow-up issue
  phctl comment --stale plan-errors.txt             # the plan job failed: the comment is stale
  phctl comment --unreviewed                        # a direct push: nothing applied, follow-up issue`,
    )
    .action(async (file: string | undefined, o: CommentOptions) => {
      if (!KEY.test(o.key))
        throw userError(
          "BAD_FLAG",
          `--key must be 1–100 letters, digits, '.', '_', '/' or '-' (got "${o.key}")`,
        );
      if (o.pr !== undefined && !/^[1-9]\d{0,9}$/.test(o.pr))
        throw userError("BAD_FLAG", `--pr must be a pull/merge request number (got "${o.pr}")`);
      if (o.unreviewed) {
        if (file !== undefined || o.outcome !== undefined || o.stale !== undefined || o.followUp)
          throw userError("BAD_ARGUMENTS", "--unreviewed keeps the follow-up issue of a commit nothing reviewed: give it no plan, no --outcome, --stale or --follow-up"); // prettier-ignore
        return unreviewed(o.key);
      }
      if (o.stale !== undefined) {
        if (file !== undefined || o.outcome !== undefined)
          throw userError("BAD_ARGUMENTS", "--stale marks the standing comment stale: give it no plan and no --outcome"); // prettier-ignore
        return markStale(o.stale, o);
      }
      if (file === undefined)
        throw userError("BAD_ARGUMENTS", "name the saved plan (phctl plan --out plan.json), or pass --stale ERRORS after a failed plan"); // prettier-ignore
      if (o.followUp && o.outcome === undefined)
        throw userError("BAD_FLAG", "--follow-up needs --outcome (the apply result it follows up)");
      // Loaded when the command runs: `--help` needs none of it.
      const [
        { readSavedPlan },
        { renderMarkdown },
        { detectContext, inCi, localContext, requestWord },
        ci,
        out,
        sticky,
      ] = await Promise.all([
        import("./saved-plan.js"),
        import("../render/markdown.js"),
        import("../ci/platform.js"),
        import("../ci/publish.js"),
        import("../ci/outcome.js"),
        import("../ci/sticky.js"),
      ]);
      // Masked value by value (a plan made by an older phctl holds live values raw), so that
      // a value cut to fit (`ghp_abc…`) cannot show part of a token.
      const plan = redactValue(readSavedPlan(file));
      const result = o.outcome !== undefined ? out.readOutcome(o.outcome) : undefined;
      // Outside CI the plan goes to stdout, as the help says (exit 0).
      const ctx = inCi(process.env) ? detectContext(process.env) : localContext();
      const marker = sticky.planMarker(o.key);
      const outcome = result ? out.outcomeText(result, ctx.run) : undefined;
      const hint =
        o.artifactHint ??
        `\`${basename(file)}\` in the artifacts of ${ctx.run?.label ?? "the CI run"}`;
      // A pull request is read by many: a secret a live value holds is never posted
      // (redaction only shortens, so the body stays within the limit).
      const body = redact(
        renderMarkdown(plan, {
          maxChars: ctx.maxChars,
          artifactHint: hint,
          marker,
          footer: ctx.footer,
          request: requestWord(ctx.platform),
          ...(outcome ? { outcome } : {}),
        }),
      );
      // A body without its marker could never be found again: one comment per run.
      if (!sticky.carriesMarker(body, marker))
        throw new PhctlError("MARKER_MISSING", "the rendered comment does not start with its marker", { source: "internal" }); // prettier-ignore

      let summarised = false;
      if (ctx.stepSummary) {
        try {
          appendFileSync(ctx.stepSummary, `${body}\n`);
          summarised = true;
        } catch (e) {
          say(
            `cannot write the step summary ${ctx.stepSummary}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
          );
        }
      }
      if (!ctx.token) {
        say(
          `no token to comment with (${ctx.noToken ?? "none set"}): the plan is ${summarised ? "in the step summary" : "on stdout"}`,
        );
        if (!summarised) process.stdout.write(`${body}\n`);
        return;
      }
      const pr =
        o.pr !== undefined
          ? parseNumberFlag("--pr", o.pr, { min: 1, max: 2_147_483_647, integer: true })
          : undefined;
      let done;
      try {
        done = await ci.publishSticky(ctx, ctx.token, {
          ...(pr !== undefined ? { pr } : {}),
          marker,
          body,
        });
      } finally {
        // The follow-up issue is kept whatever became of the comment.
        if (o.followUp && result) await followUp(ctx, ctx.token, o.key, result, pr);
      }
      const which = o.key === "default" ? "the plan comment" : `the plan comment (key ${o.key})`;
      if (done.others > 0)
        say(
          `${done.others + 1} comments on ${done.where} carry the marker of ${which} (left by earlier runs): updated the newest, left the other${done.others === 1 ? "" : "s"} as they were`,
        );
      const url = done.comment.url ? ` (${done.comment.url})` : "";
      say(
        done.action === "unchanged"
          ? `${which} on ${done.where} is already up to date${url}`
          : `${done.action} ${which} on ${done.where}${url}${done.recovered ? " — the first attempt got no answer but had landed; it was not sent twice" : ""}`,
      );
    });
}

/** A commit no reviewed plan carries (a direct push): its follow-up issue, and nothing applied. */
async function unreviewed(key: string): Promise<void> {
  const { detectContext, requestWord } = await import("../ci/platform.js");
  const ctx = detectContext(process.env);
  if (!ctx.token) {
    say(`no token to keep the follow-up issue with (${ctx.noToken ?? "none set"})`);
    return;
  }
  const sha = ctx.sha ? ctx.sha.slice(0, 7) : "this commit";
  const outcome: ApplyOutcome = {
    formatVersion: 1,
    status: "refused",
    planHash: "",
    done: 0,
    failed: 0,
    skipped: 0,
    message: `${sha} is not the merge of a reviewed ${requestWord(ctx.platform)} (a direct push?), so there was no reviewed plan to apply.`,
  };
  await followUp(ctx, ctx.token, key, outcome, undefined, true);
}

/**
 * Keep the key's follow-up issue. Its failures are said and never change the exit code: the
 * comment, and the apply job's own status, already say how the apply went.
 */
async function followUp(
  ctx: CiContext,
  token: string,
  key: string,
  outcome: ApplyOutcome,
  pr?: number,
  unreviewedCommit = false,
) {
  const [{ openIssueClient }, { keepFollowUp }, { platformError }] = await Promise.all([
    import("../ci/issues.js"),
    import("../ci/follow-up.js"),
    import("../ci/publish.js"),
  ]);
  const client = openIssueClient(ctx, token);
  try {
    const r = await keepFollowUp(client, {
      key,
      outcome,
      platform: ctx.platform,
      ...(pr !== undefined
        ? { pr }
        : ctx.number !== undefined && !unreviewedCommit
          ? { pr: ctx.number }
          : {}),
      ...(unreviewedCommit ? { unreviewed: true as const } : {}),
      ...(ctx.sha ? { commit: ctx.sha } : {}),
      ...(ctx.run ? { run: ctx.run } : {}),
    });
    const url = r.issue?.url ? ` (${r.issue.url})` : "";
    if (r.action !== "none")
      say(`${r.action} the follow-up issue #${r.issue?.number ?? "?"} of key ${key}${url}`);
  } catch (e) {
    const err = platformError(ctx, "keep the follow-up issue", e);
    say(
      `${(err as Error).message} (the job needs \`issues: write\`; the comment says how the apply went)`,
    );
  } finally {
    await client.close();
  }
}

/** `--stale FILE`: the plan job failed; the standing comment says so, with the error. */
async function markStale(errorsFile: string, o: CommentOptions): Promise<void> {
  const [{ detectContext, requestWord }, ci, sticky, stale] = await Promise.all([
    import("../ci/platform.js"),
    import("../ci/publish.js"),
    import("../ci/sticky.js"),
    import("../ci/stale.js"),
  ]);
  let text = "";
  try {
    text = readFileSync(errorsFile, "utf8");
  } catch (e) {
    say(`no error output in ${errorsFile} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}): the comment points at the job's log`); // prettier-ignore
  }
  const ctx = detectContext(process.env);
  const marker = sticky.planMarker(o.key);
  const input = {
    errors: stale.errorExcerpt(text),
    request: requestWord(ctx.platform),
    ...(ctx.footer.headCommit ? { commit: ctx.footer.headCommit } : {}),
    ...(ctx.run ? { run: ctx.run } : {}),
  };
  if (ctx.stepSummary) appendFileSync(ctx.stepSummary, `${stale.staleBanner(input, false)}\n`);
  if (!ctx.token) {
    say(`no token to comment with (${ctx.noToken ?? "none set"}): the comment is not marked stale`);
    return;
  }
  const pr =
    o.pr !== undefined
      ? parseNumberFlag("--pr", o.pr, { min: 1, max: 2_147_483_647, integer: true })
      : undefined;
  const done = await ci.publishSticky(ctx, ctx.token, {
    ...(pr !== undefined ? { pr } : {}),
    marker,
    body: (previous) => redact(stale.staleBody(previous, marker, input, ctx.maxChars)),
  });
  const url = done.comment.url ? ` (${done.comment.url})` : "";
  say(`marked the plan comment on ${done.where} stale: the plan failed${url}`);
}
