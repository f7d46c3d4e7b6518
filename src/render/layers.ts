/**
 * The blast radius of the Defaults layers a plan involves (`plan.layers`), in words shared by
 * the text plan and the pull-request comment: a heading, and per layer its file:line, name,
 * how the change alters it, and how many objects it selects —
 * `defaults/repositories.yaml:1  Defaults baseline (changed): 1,840 repositories in 200 projects`.
 */
import type { LayerImpact, Plan } from "../engine/plan.js";
import { formatSource, plural } from "./style.js";

const NOUN: Record<LayerImpact["kind"], string> = {
  Project: "project",
  Repository: "repository",
  User: "user",
  Team: "team",
};

/** `1,840 repositories in 200 projects`, `12 projects`, `1 user`. */
export function layerReach(l: LayerImpact): string {
  const many = l.kind === "Repository" ? "repositories" : `${NOUN[l.kind]}s`;
  const n = plural(l.objects, NOUN[l.kind], many);
  return l.projects !== undefined ? `${n} in ${plural(l.projects, "project")}` : n;
}

/** `Defaults baseline (changed)`: the layer's name and how the change alters it. */
export function layerName(l: LayerImpact): string {
  return `Defaults ${l.name}${l.change ? ` (${l.change})` : ""}`;
}

/** `defaults/repositories.yaml:1`. */
export const layerAt = (l: LayerImpact): string => formatSource(l.source);

/** The heading over the layers: what they are to this plan. */
export function layersHeading(plan: Pick<Plan, "drift">): string {
  return plan.drift !== undefined
    ? "Defaults this change touches (each changes what it selects)"
    : "Defaults that give changed values (and what each selects)";
}
