/**
 * The expiry issue's text (`phctl drift --report`, beside the drift issue): one issue per key
 * listing the access that has expired or ends within phctl.yaml's `expiry.warnDays`, kept
 * whether or not live state drifted — the drift issue closes when in sync, and then nothing
 * else says what ends soon. The body starts with two hidden lines: the marker that finds the
 * issue again (`<!-- phctl:expiry key=K -->`, under the label `phctl-expiry`) and the state
 * phctl keeps in it (a digest of the grants listed, and one short token per grant when they
 * fit, so that the next run can say what was added, what now expired and what went). Then
 * the lists of expiry-section.ts, and what to do about each. Pure.
 */
import type { ExpiringGrantEntry } from "../engine/plan.js";
import { canonical, sha256 } from "../engine/reviewed.js";
import { codeSpan, mdText } from "../render/markdown-escape.js";
import { expirySection } from "./expiry-section.js";
import { bodyScope, runLink, titleScope } from "./issue-body.js";
import { plural, utcMinute, type RunRef } from "./summary.js";

/** The label every expiry issue carries. */
export const EXPIRY_LABEL = "phctl-expiry";

/** The marker of a key's expiry issue: the first line of its body. */
export const expiryMarker = (key: string): string => `<!-- phctl:expiry key=${key} -->`;

type Grant = ExpiringGrantEntry;

/** Where a grant stands: d expired and still live (due), g expired and gone, s ends soon. */
type Code = "d" | "g" | "s";
const codeOf = (g: Grant): Code => (g.status === "expiring" ? "s" : g.due === false ? "g" : "d");

/** What the body remembers between runs. */
export interface ExpiryMeta {
  /** sha256 of the grants listed (key, expires, status, due). */
  digest: string;
  /** Per grant: 8 hex of its key's sha256, its code, its date (yyyymmdd); absent when too many. */
  grants?: string[];
}

const token = (g: Grant) => `${sha256(g.key).slice(0, 8)}${codeOf(g)}${g.expires.replace(/-/g, "")}`; // prettier-ignore
const TOKEN = /^([0-9a-f]{8})([dgs])(\d{8})$/;

/** The state of this list; the tokens only when they take at most `budget` characters. */
export function expiryMeta(grants: readonly Grant[], budget: number): ExpiryMeta {
  const listed = grants
    .map((g) => ({ key: g.key, expires: g.expires, status: g.status, due: g.due ?? null }))
    .sort((a, b) => (a.key === b.key ? 0 : a.key < b.key ? -1 : 1));
  const digest = sha256(canonical(listed));
  const tokens = grants.map(token);
  return tokens.length * 18 <= budget ? { digest, grants: tokens } : { digest };
}

const META = /<!-- phctl:expiry-state digest=([0-9a-f]{64})(?: grants=([0-9a-f dgs,]*))? -->/;

export const expiryMetaLine = (m: ExpiryMeta): string =>
  `<!-- phctl:expiry-state digest=${m.digest}${m.grants ? ` grants=${m.grants.join(",")}` : ""} -->`; // prettier-ignore

/** The state an issue body carries, if it carries one. */
export function expiryMetaOf(body: string): ExpiryMeta | undefined {
  const m = META.exec(body.slice(0, 200_000));
  if (!m) return undefined;
  const grants = m[2]?.split(",").filter((t) => TOKEN.test(t));
  return { digest: m[1], ...(grants ? { grants } : {}) };
}

/** How many of each: expired (still live or gone) and ending soon. */
export interface ExpiryCounts {
  expired: number;
  soon: number;
}

export function expiryCounts(grants: readonly Grant[]): ExpiryCounts {
  const expired = grants.filter((g) => g.status === "expired").length;
  return { expired, soon: grants.length - expired };
}

/** "within 14 days", "within 1 day". */
export const withinDays = (warnDays: number): string => `within ${plural(warnDays, "day")}`;

/** "1 expired, 3 end within 14 days", "2 expired", "1 ends within 14 days". */
export function describeExpiry(c: ExpiryCounts, warnDays: number): string {
  const soon = `${c.soon.toLocaleString("en-US")} ${c.soon === 1 ? "ends" : "end"} ${withinDays(warnDays)}`; // prettier-ignore
  const expired = `${c.expired.toLocaleString("en-US")} expired`;
  return [c.expired > 0 ? expired : "", c.soon > 0 ? soon : ""].filter(Boolean).join(", ");
}

/** "Access expiring: 2 expired, 3 end within 14 days in organization acme". */
export function expiryTitle(
  key: string,
  c: ExpiryCounts,
  warnDays: number,
  organization?: string,
): string {
  return `Access expiring: ${describeExpiry(c, warnDays)} in ${titleScope(key, organization)}`;
}

/** A closed issue's title. */
export function noExpiryTitle(key: string, warnDays: number, organization?: string): string {
  return `Access expiring: none ${withinDays(warnDays)} in ${titleScope(key, organization)}`;
}

export interface ExpiryBodyInput {
  key: string;
  grants: readonly Grant[];
  warnDays: number;
  /** ISO time of the run. */
  time: string;
  organization?: string;
  run?: RunRef;
  maxChars: number;
}

/** What to do about each list present. */
function advice(grants: readonly Grant[]): string[] {
  const has = (c: Code) => grants.some((g) => codeOf(g) === c);
  return [
    "### What to do",
    "",
    ...(has("d")
      ? ["- **Expired, due for removal**: the next apply removes it (the drift issue lists it until then). To keep it, write a later `expires:` in a pull request."] // prettier-ignore
      : []),
    ...(has("g")
      ? ["- **Expired and removed**: delete the manifest entry in a pull request, or run `phctl report access --propose` to have one opened."] // prettier-ignore
      : []),
    ...(has("s")
      ? ["- **Expires soon**: to keep it, renew it by changing the date in a pull request; or let it end: the first apply after its last day removes it."] // prettier-ignore
      : []),
  ];
}

const CUT =
  "_Cut to fit the issue: `phctl drift --format json` lists them all (the plan's `expiring`)._";

/** The body: within `maxChars`, the lists cut between whole lines when they do not fit. */
export function expiryBody(i: ExpiryBodyInput): string {
  const head = [
    expiryMarker(i.key),
    expiryMetaLine(expiryMeta(i.grants, Math.floor(i.maxChars / 4))),
    `**Access expiring** in ${bodyScope(i.key, i.organization)} at ${utcMinute(i.time)} by ${runLink(i.run)}: ${describeExpiry(expiryCounts(i.grants), i.warnDays)}. phctl updates this issue on every drift run and closes it once no grant has expired or ends ${withinDays(i.warnDays)}.`, // prettier-ignore
    "",
    "",
  ].join("\n");
  const tail = ["", "", ...advice(i.grants), ""].join("\n");
  const section = expirySection(i.grants);
  if (head.length + section.length + tail.length <= i.maxChars) return head + section + tail;
  const room = i.maxChars - head.length - tail.length - CUT.length - 2;
  const kept: string[] = [];
  let used = 0;
  for (const line of section.split("\n")) {
    if (used + line.length + 1 > room) break;
    kept.push(line);
    used += line.length + 1;
  }
  return `${head}${kept.join("\n")}\n\n${CUT}${tail}`;
}

/** How a grant is named in a comment: who has what, its date, its line. */
const named = (g: Grant) =>
  `${mdText(g.what)} (${g.status === "expired" ? "expired on" : "expires on"} ${g.expires}, ${codeSpan(`${g.source.file}:${g.source.line}`)})`; // prettier-ignore

/** At most this many grants named per kind of change. */
const NAMED = 10;

function bullet(title: string, grants: readonly Grant[]): string[] {
  if (grants.length === 0) return [];
  const more = grants.length > NAMED ? `; … and ${grants.length - NAMED} more` : "";
  return [`- ${title}: ${grants.slice(0, NAMED).map(named).join("; ")}${more}`];
}

/** What changed between the list the issue showed (`was`) and this one, one line per kind. */
export function listChanges(was: ExpiryMeta, now: readonly Grant[], warnDays: number): string[] {
  if (!was.grants) return [];
  const before = new Map<string, { code: Code; date: string }>();
  for (const t of was.grants) {
    const m = TOKEN.exec(t);
    if (m) before.set(m[1], { code: m[2] as Code, date: m[3] });
  }
  const groups: Record<string, Grant[]> = {};
  const add = (k: string, g: Grant) => void (groups[k] ??= []).push(g);
  const seen = new Set<string>();
  for (const g of now) {
    const h = sha256(g.key).slice(0, 8);
    seen.add(h);
    const b = before.get(h);
    const code = codeOf(g);
    if (!b) add("added", g);
    else if (b.date !== g.expires.replace(/-/g, "")) add("date", g);
    else if (b.code === code) continue;
    else if (b.code === "s") add(code === "d" ? "due" : "gone", g);
    else add(code === "g" ? "removed" : "live", g);
  }
  const went = [...before.keys()].filter((h) => !seen.has(h)).length;
  return [
    ...bullet("now expired, due for removal", groups.due ?? []),
    ...bullet("now expired, and already removed live: delete the manifest entry", groups.gone ?? []), // prettier-ignore
    ...bullet("removed live: delete the manifest entry", groups.removed ?? []),
    ...bullet("granted live again: due for removal", groups.live ?? []),
    ...bullet("new in the list", groups.added ?? []),
    ...bullet("another date", groups.date ?? []),
    ...(went > 0
      ? [`- ${plural(went, "grant")} no longer listed (renewed beyond ${plural(warnDays, "day")}, or the entry deleted)`] // prettier-ignore
      : []),
  ];
}

/** On an open issue whose list changed. */
export function expiryChangedComment(o: {
  time: string;
  run?: RunRef;
  was: ExpiryMeta | undefined;
  grants: readonly Grant[];
  warnDays: number;
}): string {
  const now = describeExpiry(expiryCounts(o.grants), o.warnDays);
  const lines = o.was ? listChanges(o.was, o.grants, o.warnDays) : [];
  const head = `**Expiring access changed** at ${utcMinute(o.time)} (${runLink(o.run)}): now ${now}.`; // prettier-ignore
  const tail = "The description shows the current list.";
  return lines.length ? [head, "", ...lines, "", tail].join("\n") : `${head} ${tail}`;
}

/** On reopening a closed issue. */
export function expiryReopenedComment(o: {
  time: string;
  run?: RunRef;
  counts: ExpiryCounts;
  warnDays: number;
}): string {
  // prettier-ignore
  return `**Access expiring again** at ${utcMinute(o.time)} (${runLink(o.run)}): ${describeExpiry(o.counts, o.warnDays)}. Reopened; the description lists them.`; // prettier-ignore
}

/** On closing: nothing expired or ending soon. */
export function expiryResolvedComment(o: { time: string; run?: RunRef; warnDays: number }): string {
  return `**Nothing expiring** at ${utcMinute(o.time)} (${runLink(o.run)}): no grant has expired or ends ${withinDays(o.warnDays)}. Closing.`; // prettier-ignore
}

/** A duplicate's body: without the marker, so it is never found again. */
export function expiryDuplicateBody(of: number): string {
  return `Closed as a duplicate of #${of}: phctl keeps one expiry issue per key, and two runs opened one at the same time.\n`; // prettier-ignore
}
