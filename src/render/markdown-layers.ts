/**
 * The pull-request comment's blast radius: the Defaults layers the plan involves, each with its
 * file:line and how many objects it selects, above the lists and details (src/render/layers.ts
 * words it). Cut between whole layers within its budget.
 */
import type { Plan } from "../engine/plan.js";
import { codeSpan, mdText } from "./markdown-escape.js";
import { EMPTY_PART, listPart, moreTail, type Part } from "./markdown-lists.js";
import { layerAt, layerReach, layersHeading } from "./layers.js";

export function layersPart(plan: Plan, artifact: string): Part {
  const layers = plan.layers ?? [];
  if (layers.length === 0) return EMPTY_PART;
  const items = layers.map((l) => ({
    text: `- ${codeSpan(layerAt(l))} Defaults **${mdText(l.name)}**${l.change ? ` (${l.change})` : ""}: ${layerReach(l)}`,
    name: codeSpan(l.name),
  }));
  return listPart(
    `#### ${layersHeading(plan)} — ${layers.length.toLocaleString("en-US")}\n\n`,
    items,
    "\n",
    moreTail(artifact, "- "),
    0.2,
  );
}
