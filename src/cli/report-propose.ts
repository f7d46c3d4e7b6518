/**
 * `phctl report access --propose`: the review's findings, and the entries of grants whose
 * `expires:` has passed, as pull requests (GitHub) or merge requests (GitLab), one per project, with the project's owners as reviewers and each
 * finding as the reason (src/propose/). The edits are computed as `drift --adopt` computes
 * them — the right file, the right layer, every other line kept — and checked by loading the
 * config again; nothing in the working tree is written. `--dry-run` prints what would be
 * proposed and sends nothing. Running it again opens nothing new: an open request that
 * already proposes the same files is left alone, one that proposes other edits is refreshed.
 */
import { relative, resolve, sep } from "node:path";
import { userError } from "../errors.js";
import { redact } from "../secrets.js";
import { escapeHiddenLines } from "../visible.js";
import type { DesiredState, Source } from "../manifest/types.js";
import { handlesOf, OwnerIndex, ownersOf as namedOwnersOf } from "../owners/index.js";
import type { AccessReport } from "../report/types.js";
import { checkoutTop, configRootOf } from "./owners-file.js";

export interface ProposeOptions {
  dryRun?: boolean;
  baseBranch?: string;
  /** Requests opened or refreshed at most in one run (--max-requests). */
  maxRequests: number;
}

/**
 * The projects' owners (src/owners: `metadata.owners`, Project layers' `spec.owners`, else
 * the admins) as the platform's reviewers: users by login, teams as `group/team`.
 */
export function ownersOf(
  loaded: {
    state: DesiredState;
    files: readonly string[];
    policies: { policies: readonly { source: Source }[] };
  },
  paths: readonly string[],
): (projects: readonly string[]) => string[] {
  const index = new OwnerIndex({
    state: loaded.state,
    files: loaded.files,
    root: configRootOf(loaded.state, paths),
    policies: loaded.policies.policies,
  });
  return (projects) =>
    [
      ...new Set(
        projects.flatMap((p) =>
          handlesOf(namedOwnersOf(index, `project/${p}`)).map((h) => h.replace(/^@/, "")),
        ),
      ),
    ].sort();
}

export async function runPropose(
  report: AccessReport,
  loaded: { state: DesiredState; files: readonly string[] },
  o: ProposeOptions,
  env: NodeJS.ProcessEnv = process.env,
  reviewersOf: (projects: readonly string[]) => string[],
): Promise<void> {
  const [
    { accessEdits, expiredEdits, sorted },
    { proposalFiles },
    { requestOf, BRANCH_PREFIX },
    { expiringOf },
  ] = await Promise.all([
    import("../propose/edits.js"),
    import("../propose/files.js"),
    import("../propose/request.js"),
    import("../expiry/index.js"),
  ]);
  // Platform answers and file names are quoted: masked and made visible as every line is.
  const say = (s: string) => process.stderr.write(`phctl: ${escapeHiddenLines(redact(s))}\n`);
  const found = accessEdits(report);
  const ended = expiredEdits(expiringOf(loaded.state));
  const edits = sorted([...found.edits, ...ended.edits]);
  const notProposed = [...found.notProposed, ...ended.notProposed];
  const { proposals, notWritten } = proposalFiles(edits, loaded);
  const top = checkoutTop(resolve(process.cwd())) ?? resolve(process.cwd());
  const toRepo = (file: string) => relative(top, resolve(file)).split(sep).join("/");
  const requests = proposals.map((p) => requestOf(p, toRepo));
  for (const n of notProposed)
    say(
      `not proposed: ${n.finding} ${n.principal}${n.project ? ` on ${n.project}` : ""}: ${n.why}`,
    );
  for (const n of notWritten)
    say(`not proposed: ${n.edit.finding} ${n.edit.username} on ${n.edit.project}: ${n.why}`);
  if (requests.length === 0) say("propose: no finding calls for a manifest edit; nothing to open");
  if (requests.length === 0 && o.dryRun) return;
  if (o.dryRun) {
    for (const r of requests) {
      const removed = new Set(r.removed);
      const reviewers = reviewersOf(r.projects).filter((x) => !removed.has(x));
      say(`propose: ${r.title} (branch ${r.branch}; reviewers ${reviewers.join(", ") || "none"})`); // prettier-ignore
      for (const f of r.files) say(`propose:   ${f.path}`);
    }
    say(`propose: ${requests.length} request(s) would be opened (--dry-run: nothing sent)`);
    return;
  }
  const [{ detectContext }, { openPullClient }, { openRequests }, { platformError }] =
    await Promise.all([
      import("../ci/platform.js"),
      import("../ci/pull-requests.js"),
      import("../propose/open.js"),
      import("../ci/publish.js"),
    ]);
  // Nothing to open: requests an earlier run opened may still be withdrawn, where a
  // platform and its token are at hand; without them there is nothing more to do.
  let ctx: ReturnType<typeof detectContext> | undefined;
  try {
    ctx = detectContext(env);
  } catch (e) {
    if (requests.length > 0) throw e;
  }
  if (!ctx || (!ctx.token && requests.length === 0)) return;
  if (!ctx.token)
    throw userError(
      "NO_CI_TOKEN",
      `cannot open ${ctx.platform === "github" ? "pull" : "merge"} requests on ${ctx.name}: no token (${ctx.noToken ?? "none set"}); or run with --dry-run to see them`,
    );
  const base =
    o.baseBranch ?? env.CI_DEFAULT_BRANCH ?? env.GITHUB_BASE_REF ?? env.GITHUB_REF_NAME ?? "main";
  const client = openPullClient(ctx, ctx.token);
  try {
    // A standing request of a project this config declares, with nothing left to propose, is
    // withdrawn: another config of the same repository (another key) keeps its own projects'.
    const reviewed = new Set(report.projects.filter((p) => p.declared).map((p) => p.project));
    const busy = new Set([...edits.map((e) => e.project), ...notWritten.map((n) => n.edit.project)]); // prettier-ignore
    const { outcomes, withdrawals } = await openRequests(client, requests, {
      base,
      reviewersOf,
      max: o.maxRequests,
      stale: (branch) => {
        const project = branch.slice(BRANCH_PREFIX.length);
        return reviewed.has(project) && !busy.has(project);
      },
    });
    let failed = 0;
    for (const r of outcomes) {
      if (r.status === "failed") {
        failed++;
        say(`propose: ${r.request.title}: could not open it: ${r.error}`);
      } else if (r.status === "deferred") continue;
      else if (r.status === "declined")
        say(
          `propose: ${r.request.title}: not opened again: #${r.opened.number} proposed the same and was closed without merging (reopen it, or it is proposed again once its findings change)`,
        );
      else {
        say(
          `propose: ${r.status} #${r.opened.number} ${r.request.title}${r.opened.url ? ` (${r.opened.url})` : ""}`,
        );
        for (const n of r.opened.notes ?? []) say(`propose: #${r.opened.number}: ${n}`);
      }
    }
    for (const w of withdrawals) {
      const what = `#${w.standing.number} ${w.standing.title}`;
      if (w.status === "withdrawn") say(`propose: closed ${what}: nothing in it stands any more`);
      else if (w.status === "failed") {
        failed++;
        say(`propose: ${what}: could not close it: ${w.error}`);
      }
    }
    const count = (s: string) =>
      outcomes.filter((x) => x.status === s).length +
      withdrawals.filter((x) => x.status === s).length;
    say(
      `propose: ${count("opened")} opened, ${count("refreshed")} refreshed, ${count("unchanged")} unchanged, ${count("withdrawn")} closed, ${count("declined")} declined before, ${failed} failed`,
    );
    if (count("deferred") > 0)
      say(
        `propose: ${count("deferred")} more deferred to the next run (--max-requests ${o.maxRequests}: the platform limits bursts of writes)`,
      );
    if (failed > 0) process.exitCode = 1;
  } catch (e) {
    throw platformError(ctx, `open requests on ${ctx.name}`, e);
  } finally {
    await client.close();
  }
}
