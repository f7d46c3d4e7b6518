/**
 * How a summary line says a cluster of identical changes, the same way in the terminal and the
 * pull-request comment: "enableForking: true → false on 999 repositories in 100 projects"
 * with its source "layer no-forks, defaults.yaml:4", then "1 override (projects/p7.yaml:12)"
 * for the objects whose own manifest makes the same change. Each rendering says values, names
 * and places its own way (`Say`). Pure.
 */
import type { ChangeCluster, ChangeGroup } from "./change-groups.js";
import { kindCount } from "./markdown-groups.js";
import { formatCount, plural } from "./style.js";

/** How a rendering writes the parts of a line. */
export interface Say {
  /** A before or after value. */
  value: (v: unknown) => string;
  /** A field, a layer's name. */
  name: (s: string) => string;
  /** `file:line`, `file`. */
  where: (s: string) => string;
  /** A kind phctl has no noun for. */
  kind: (s: string) => string;
}

/** The words of one summary line. */
export interface ClusterWords {
  /** "enableForking: true → false on 999 repositories in 100 projects". */
  change: string;
  /** Where the largest group comes from: "layer no-forks, defaults.yaml:4" ("" unknown). */
  source: string;
  /** The others: "1 override (projects/p7.yaml:12)", "" when there are none. */
  rest: string;
}

const WHOLE: Record<ChangeGroup["action"], string> = {
  create: "create",
  update: "update",
  delete: "delete",
  ticket: "support ticket for",
  blocked: "blocked:",
};
const NOTE: Record<ChangeGroup["action"], string> = {
  create: "",
  update: "",
  delete: "",
  ticket: " (support tickets; never sent)",
  blocked: " (blocked: cannot be reached)",
};

/** `file:line` when every change is on one line, else `file`. */
function place(g: ChangeGroup): string {
  const { file, line } = g.source;
  if (file === undefined) return "";
  return line !== undefined ? `${file}:${line}` : file;
}

/** Where a group comes from: `layer X, file:line`, `file:line`, or what its absence means. */
export function sourceWords(g: ChangeGroup, say: Say): string {
  const at = place(g);
  if (g.source.layer !== undefined)
    return `layer ${say.name(g.source.layer)}${at ? `, ${say.where(at)}` : ""}`;
  if (at) return say.where(at);
  return g.action === "delete" ? "no longer declared" : "";
}

/** "999 repositories in 100 projects" (no project count for projects, or outside them). */
function reach(g: ChangeGroup, say: Say): string {
  const objects = kindCount(g.kind, g.count, say.kind);
  return g.projects > 0 && g.kind !== "Project"
    ? `${objects} in ${plural(g.projects, "project")}`
    : objects;
}

/** At most this many other documents are named; the rest are counted. */
const NAMED = 3;

export function clusterWords(c: ChangeCluster, say: Say): ClusterWords {
  const [main, ...others] = c.groups;
  const change =
    c.field !== undefined
      ? `${say.name(c.field)}: ${say.value(c.before)} → ${say.value(c.after)} on ${reach(main, say)}${NOTE[c.action]}`
      : `${WHOLE[c.action]} ${reach(main, say)}${NOTE[c.action]}`;
  let rest = "";
  if (others.length > 0) {
    const n = others.reduce((a, g) => a + g.count, 0);
    // The objects' own manifests saying what a layer would: they override it for themselves.
    const overrides = main.source.layer !== undefined && others.every((g) => !g.source.layer);
    const named = others
      .slice(0, NAMED)
      .map((g) => {
        const s = sourceWords(g, say) || "no manifest line";
        return g.count > 1 ? `${s} ×${formatCount(g.count)}` : s;
      })
      .join(", ");
    const more = others.length > NAMED ? `, … ${formatCount(others.length - NAMED)} more` : "";
    rest = overrides
      ? `${plural(n, "override")} (${named}${more})`
      : `${formatCount(n)} more from ${named}${more}`;
  }
  return { change, source: sourceWords(main, say), rest };
}

/** The line as plain words: `change (source); rest`. */
export function clusterLine(c: ChangeCluster, say: Say): string {
  const w = clusterWords(c, say);
  return `${w.change}${w.source ? ` (${w.source})` : ""}${w.rest ? `; ${w.rest}` : ""}`;
}
