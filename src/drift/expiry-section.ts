/**
 * The drift issue's section on access that expires: what has expired and is still live (due
 * for removal: the plan removes it), what has expired and is gone (only the manifest entry is
 * left), and what ends within phctl.yaml's `expiry.warnDays` — each grant with its date and
 * its manifest line, so a scheduled drift job keeps one place listing them. Pure.
 */
import type { Plan } from "../engine/plan.js";
import { codeSpan, mdText } from "../render/markdown-escape.js";

/** At most this many lines per list; the JSON plan (`expiring`) carries all of them. */
const MAX_LINES = 50;

type Grant = NonNullable<Plan["expiring"]>[number];

const line = (g: Grant, when: string) =>
  `- ${mdText(g.what)}: ${when} ${g.expires} (${codeSpan(`${g.source.file}:${g.source.line}`)})`;

function list(title: string, grants: readonly Grant[], when: string): string[] {
  if (grants.length === 0) return [];
  const shown = grants.slice(0, MAX_LINES).map((g) => line(g, when));
  const more = grants.length - shown.length;
  return [
    `**${title}** (${grants.length}):`,
    ...shown,
    ...(more > 0 ? [`- … and ${more} more (the JSON plan's \`expiring\` lists them all)`] : []),
    "",
  ];
}

/** The section (empty when nothing has expired or ends soon). */
export function expirySection(expiring: readonly Grant[] | undefined): string {
  if (!expiring || expiring.length === 0) return "";
  const due = expiring.filter((g) => g.status === "expired" && g.due !== false);
  const gone = expiring.filter((g) => g.status === "expired" && g.due === false);
  const soon = expiring.filter((g) => g.status === "expiring");
  return [
    "### Access that expires",
    "",
    ...list("Expired, due for removal", due, "expired on"),
    ...list("Expired and removed: delete the manifest entry", gone, "expired on"),
    ...list("Expires soon", soon, "expires on"),
  ]
    .join("\n")
    .trimEnd();
}
