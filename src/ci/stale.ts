/**
 * A plan job that failed after an earlier one succeeded (a typo pushed after a good plan)
 * leaves the pull request's comment showing a plan of an older commit, as if it were current.
 * `phctl comment --stale ERRORS` marks that comment stale instead: a warning at its top with
 * the commit whose plan failed and the error, the old plan kept below it. The next plan that
 * succeeds replaces the whole comment, warning included. Pure: publish.ts sends it.
 */
import { redact } from "../secrets.js";
import { escapeHiddenLines } from "../visible.js";

/** Ends the stale warning: what follows is the earlier comment, as it was. */
export const STALE_END = "<!-- phctl:stale-end -->";

/** At most this much of the error output is quoted (its last lines: the error is there). */
const MAX_LINES = 30;
const MAX_CHARS = 3000;

/**
 * The error output worth quoting: the progress events phctl writes as JSON lines in CI and
 * blank lines left out, the last lines kept, masked, hidden characters shown.
 */
export function errorExcerpt(text: string): string {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== "" && !/^\{".*\}$/.test(l.trim()));
  let kept = lines.slice(-MAX_LINES).join("\n");
  if (kept.length > MAX_CHARS) kept = `…${kept.slice(kept.length - MAX_CHARS + 1)}`;
  return escapeHiddenLines(redact(kept));
}

export interface StaleInput {
  /** The commit whose plan failed (the pull request's head). */
  commit?: string;
  run?: { label: string; url?: string };
  /** The error output (errorExcerpt): "" when the job left none. */
  errors: string;
  request: "pull request" | "merge request";
}

/** A fenced block inside a quote, its fence longer than any backtick run in the text. */
function quotedBlock(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [fence, ...text.split("\n"), fence].map((l) => `> ${l}`).join("\n");
}

/** The warning put at the top of the comment; `hadPlan`: an earlier plan is kept below. */
export function staleBanner(i: StaleInput, hadPlan: boolean): string {
  const commit = i.commit ? ` of \`${i.commit.slice(0, 7)}\`` : "";
  const where = i.run ? (i.run.url ? ` in [${i.run.label}](${i.run.url})` : ` in ${i.run.label}`) : ""; // prettier-ignore
  const head = hadPlan
    ? `> **This plan is stale: the plan${commit} failed**${where}. The plan below is of an earlier commit, not of this ${i.request}'s head: merging now applies nothing (the apply needs a plan of the head commit). Fix the error and push; the next plan replaces this comment.`
    : `> **No plan: the plan${commit} failed**${where}. Fix the error and push; the next plan replaces this comment.`;
  const quoted = i.errors
    ? `>\n${quotedBlock(i.errors)}`
    : ">\n> The job left no error output here: its log says what failed.";
  return `> [!WARNING]\n${head}\n${quoted}`;
}

/**
 * The comment's new body: the marker, the warning, then the earlier comment without its
 * marker and without an earlier warning (a second failure replaces the first's).
 */
export function staleBody(
  previous: string | undefined,
  marker: string,
  i: StaleInput,
  maxChars: number,
): string {
  let rest = "";
  if (previous !== undefined) {
    rest = previous.trimStart().slice(marker.length);
    const end = rest.indexOf(STALE_END);
    if (end >= 0) rest = rest.slice(end + STALE_END.length);
    rest = rest.trim();
  }
  const banner = staleBanner(i, rest !== "");
  // Within the platform's limit: the earlier plan is cut, never the warning.
  const room = maxChars - marker.length - banner.length - STALE_END.length - 100;
  if (rest.length > room)
    rest = `${rest.slice(0, Math.max(0, room))}\n\n… (the earlier plan is cut here)`;
  return rest
    ? `${marker}\n${banner}\n${STALE_END}\n\n${rest}\n`
    : `${marker}\n${banner}\n${STALE_END}\n`;
}
