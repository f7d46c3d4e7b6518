/**
 * `phctl explain` for people: the object and the layers that select it, then each value with
 * the documents that gave it, winner first (`←`), the others below it — overridden, or giving
 * the same value — and the entries tombstones removed. Pure: data in, text out.
 *
 *   requiresDCO = false
 *     ← the object's own manifest projects/tfa.yaml:31
 *       Defaults critical (priority 10; repositories) defaults.yaml:31: true, overridden
 */
import type { ExplainContributor, Explanation, ExplainValue } from "../layers/explain.js";
import { escapeHiddenLines } from "../visible.js";
import { formatValue } from "./style.js";

/** `Defaults repository-settings (priority 0; repositories of projects with tier=critical)`. */
function who(c: ExplainContributor): string {
  return c.from === "own"
    ? "the object's own manifest"
    : `Defaults ${c.layer} (priority ${c.priority}; ${c.selector})`;
}

const at = (c: ExplainContributor) => `${c.file}:${c.line}`;

function valueLines(v: ExplainValue): string[] {
  if (v.removed)
    return [
      `${v.path} = ${formatValue(v.value)}: removed`,
      ...v.chain.map((c) => `    given by ${who(c)} ${at(c)}`),
      ...v.removedBy.map((c) => `  ✗ removed by ${who(c)} ${at(c)}`),
    ];
  const [winner, ...rest] = v.chain;
  const winning = JSON.stringify(v.value);
  return [
    `${v.path} = ${formatValue(v.value)}`,
    ...(winner ? [`  ← ${who(winner)} ${at(winner)}`] : []),
    ...rest.map(
      (c) =>
        `    ${who(c)} ${at(c)}: ${JSON.stringify(c.value) === winning ? "the same value" : `${formatValue(c.value)}, overridden`}`,
    ),
  ];
}

/** The text of an explanation (lines end with `\n`). */
export function renderExplanation(e: Explanation): string {
  const out = [`${e.key} (${e.kind} ${e.name}, ${e.file}:${e.line})`];
  if (e.layers.length === 0) out.push("No Defaults layer selects it.");
  else {
    out.push("Selected by:");
    for (const l of e.layers)
      out.push(
        `  Defaults ${l.name} (priority ${l.priority}; ${l.selector}) ${l.file}:${l.line}${l.description ? ` — ${l.description}` : ""}`,
      );
  }
  out.push("");
  if (e.values.length === 0)
    out.push(
      e.field === null
        ? "No values: nothing in the object's manifest or the layers sets anything here."
        : `${e.field}: not set by the object's manifest or any layer (the service's default applies)`,
    );
  for (const v of e.values) out.push(...valueLines(v));
  return `${escapeHiddenLines(out.join("\n"))}\n`;
}
