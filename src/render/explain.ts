/**
 * `phctl explain` for people: the object and the layers that select it, then each value with
 * the documents that gave it, winner first (`←`), the others below it — overridden, or giving
 * the same value — and the entries tombstones removed. Pure: data in, text out.
 *
 *   requiresDCO = false
 *     ← the object's own manifest projects/tfa.yaml:31
 *       Defaults critical (priority 10; repositories) defaults.yaml:31: true, overridden
 */
import type {
  ExplainContributor,
  ExplainLayer,
  Explanation,
  ExplainValue,
} from "../layers/explain.js";
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
  if (v.cutOff) {
    const [by] = v.chain;
    return [
      `${v.path} = false`,
      ...(by ? [`  ← ${who(by)} ${at(by)}`] : []),
      ...v.cutOff.map((c) => `  ✂ cuts off ${who(c)} ${at(c)}: ${formatValue(c.value)}`),
    ];
  }
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
  const giving = e.layers.filter((l) => !l.cutOff);
  const cut = e.layers.filter((l) => l.cutOff);
  const layerLine = (l: ExplainLayer) =>
    `  Defaults ${l.name} (priority ${l.priority}; ${l.selector}) ${l.file}:${l.line}${l.description ? ` — ${l.description}` : ""}`;
  if (e.layers.length === 0) out.push("No Defaults layer selects it.");
  if (giving.length > 0) out.push("Selected by:", ...giving.map(layerLine));
  if (cut.length > 0) {
    out.push("Cut off by inherit: false (they select it and give it nothing):");
    for (const l of cut) {
      const c = l.cutOff!;
      const by = c.from === "own" ? "the object's own manifest" : `Defaults ${c.layer}`;
      out.push(`${layerLine(l)}
    cut off at ${c.path} by ${by} ${c.file}:${c.line}`);
    }
  }
  out.push("");
  const set = e.values.filter((v) => !v.cutOff);
  if (set.length === 0)
    out.push(
      e.field === null
        ? "No values: nothing in the object's manifest or the layers sets anything here."
        : e.values.length > 0
          ? `${e.field}: not set: inherit: false cuts off the layers that would set it (below)`
          : `${e.field}: not set by the object's manifest or any layer (the service's default applies)`,
    );
  for (const v of e.values) out.push(...valueLines(v));
  return `${escapeHiddenLines(out.join("\n"))}\n`;
}
