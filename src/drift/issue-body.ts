/**
 * The drift tracking issue's text: title, body and the short comments on its changes. The
 * body starts with two hidden lines: the marker that finds the issue again
 * (`<!-- phctl:drift key=K -->`, under the label `phctl-drift`) and the state phctl keeps in
 * it (the digests of the structured changes and of the drifted fields' live values, to tell
 * whether the drift changed, see digest.ts; and since when it drifts). Then a line saying
 * when and by which run the drift was detected, and the plan as the pull-request comment
 * renders it, within the platform's size limit. Pure.
 */
import type { Plan } from "../engine/plan.js";
import { DEFAULT_KEY } from "./options.js";
import { expirySection } from "./expiry-section.js";
import { shortDigest } from "../engine/reviewed.js";
import { renderMarkdown } from "../render/markdown.js";
import { codeSpan, linkTarget, mdText, shorten } from "../render/markdown-escape.js";
import {
  countParts,
  describeCounts,
  plural,
  scopeName,
  utcMinute,
  type DriftCounts,
  type RunRef,
} from "./summary.js";

/** The label every drift issue carries (both platforms create it on first use). */
export const DRIFT_LABEL = "phctl-drift";

/** The marker of a key's issue: the first line of its body. */
export const driftMarker = (key: string): string => `<!-- phctl:drift key=${key} -->`;

/** What the body remembers between runs. */
export interface DriftMeta {
  /** changesDigest of the drift the body shows. */
  digest: string;
  /** liveDigest of that drift (absent in a body an earlier phctl wrote). */
  live?: string;
  /** ISO time the drift was first detected (the issue opened or reopened). */
  since: string;
}

const META =
  /<!-- phctl:drift-state digest=([0-9a-f]{64})(?: live=([0-9a-f]{64}))? since=(\S+) -->/;

export const metaLine = (m: DriftMeta): string =>
  `<!-- phctl:drift-state digest=${m.digest}${m.live ? ` live=${m.live}` : ""} since=${m.since} -->`;

/** The state an issue body carries, if it carries one. */
export function metaOf(body: string): DriftMeta | undefined {
  const m = META.exec(body.slice(0, 2000));
  return m ? { digest: m[1], ...(m[2] ? { live: m[2] } : {}), since: m[3] } : undefined;
}

/** Where the drift is, for titles: `infra/prod`, or "organization acme" for the default key. */
export const titleScope = (key: string, organization?: string): string =>
  key === DEFAULT_KEY ? scopeName(key, organization) : key;

/** The same in a body's markdown: "organization acme", or the key as code. */
export const bodyScope = (key: string, organization?: string): string =>
  key === DEFAULT_KEY ? mdText(scopeName(key, organization)) : codeSpan(key);

/** "Drift: 3 differences in infra/prod", "Drift: 1 difference in organization acme". */
export function issueTitle(key: string, c: DriftCounts, organization?: string): string {
  return `Drift: ${plural(c.total, "difference")} in ${titleScope(key, organization)}`;
}

/** A closed issue's title: no longer drift. */
export function resolvedTitle(key: string, time: string, organization?: string): string {
  return `Drift resolved: ${titleScope(key, organization)} in sync since ${utcMinute(time)}`;
}

/** "[run 45](url)", "run 45", or "phctl" outside CI. */
export function runLink(run: RunRef | undefined): string {
  if (!run) return "phctl";
  const label = mdText(shorten(run.label, 80));
  return run.url ? `[${label}](${linkTarget(shorten(run.url, 500))})` : label;
}

export interface BodyInput {
  key: string;
  plan: Plan;
  counts: DriftCounts;
  meta: DriftMeta;
  /** The command that would make live state match again ("phctl apply examples"). */
  applyCommand: string;
  run?: RunRef;
  footer?: { baseCommit?: string; headCommit?: string; runUrl?: string };
  maxChars: number;
  artifactHint: string;
}

/**
 * The plan command of the drift's paths: the issue suggests a saved plan, reviewed, then
 * applied as it is (`phctl apply PLAN.json`), never a bare `phctl apply` of the manifests.
 */
function planCommand(applyCommand: string): string {
  return applyCommand.replace(/^phctl apply\b/, "phctl plan");
}

export function issueBody(i: BodyInput): string {
  const at = utcMinute(i.plan.createdAt);
  const since =
    i.meta.since !== i.plan.createdAt ? `; drifting since ${utcMinute(i.meta.since)}` : "";
  const n = plural(i.counts.total, "difference");
  const expiring = expirySection(i.plan.expiring);
  const intro = [
    driftMarker(i.key),
    metaLine(i.meta),
    `**Drift detected** in ${bodyScope(i.key, i.plan.organization)} at ${at} by ${runLink(i.run)}: ${n} between the manifests and live state (${countParts(i.counts)})${since}.`,
    "",
    `To keep the live values, change the manifests in a pull request. To restore the manifests' values, review a saved plan and apply exactly it: ${codeSpan(`${planCommand(i.applyCommand)} --out drift-plan.json`)}, then ${codeSpan("phctl apply drift-plan.json")} (refused if live state moved since). phctl updates this issue on every drift run and closes it once live state is in sync.`,
    ...(expiring ? ["", expiring] : []),
  ].join("\n");
  return renderMarkdown(i.plan, {
    maxChars: i.maxChars,
    marker: intro,
    artifactHint: i.artifactHint,
    mode: "drift",
    ...(i.footer ? { footer: i.footer } : {}),
  });
}

/**
 * On a drifted run whose drift differs from what the issue showed: other changes (the plan
 * hashes before and after), or the same changes with other live values (`was` = `now`).
 */
export function changedComment(o: {
  time: string;
  run?: RunRef;
  counts: DriftCounts;
  /** The plan hash the issue showed. */
  was: string | undefined;
  now: string;
}): string {
  const hashes =
    o.was === o.now
      ? `; other live values (plan ${codeSpan(shortDigest(o.now))} unchanged)`
      : o.was
        ? ` (plan ${codeSpan(shortDigest(o.was))} → ${codeSpan(shortDigest(o.now))})`
        : "";
  return `**Drift changed** at ${utcMinute(o.time)} (${runLink(o.run)}): now ${describeCounts(o.counts)}${hashes}. The description shows the current drift.`;
}

/** On reopening a closed issue. */
export function reopenedComment(o: { time: string; run?: RunRef; counts: DriftCounts }): string {
  return `**Drift again** at ${utcMinute(o.time)} (${runLink(o.run)}): ${describeCounts(o.counts)}. Reopened; the description shows the current drift.`;
}

/** On closing: in sync again. */
export function recoveredComment(o: { time: string; run?: RunRef }): string {
  return `**In sync again** at ${utcMinute(o.time)} (${runLink(o.run)}): live state matches the manifests. Closing.`;
}

/** A duplicate's body: without the marker, so it is never found again. */
export function duplicateBody(of: number): string {
  return `Closed as a duplicate of #${of}: phctl keeps one drift issue per key, and two runs opened one at the same time.\n`;
}
