/** Merge problems as diagnostics: one line each, naming both documents where two are involved. */
import type { ValidDoc } from "../manifest/check.js";
import { makeDiagnostic } from "../manifest/diagnostics.js";
import { didYouMean } from "../manifest/hints.js";
import type { Diagnostic } from "../manifest/types.js";
import { describeContributor } from "./contributor.js";
import type { MergeProblem } from "./merge.js";

const shown = (v: unknown) => JSON.stringify(v);

export function problemDiagnostic(p: MergeProblem, object: ValidDoc): Diagnostic {
  const d = diagnosticOf(p, object);
  // The layer at the problem's line: the same problem in each object it selects is one line
  // for people (collapseLayered).
  const at = p.code === "layer-conflict" ? p.winner : p.by;
  return at.layer ? { ...d, layer: at.layer.name } : d;
}

function diagnosticOf(p: MergeProblem, object: ValidDoc): Diagnostic {
  const subject = { kind: object.kind, name: object.name, path: p.path };
  switch (p.code) {
    case "layer-conflict":
      return makeDiagnostic(
        "error",
        "layer-conflict",
        p.winner.handle.at(p.winner.at, "key"),
        `${p.path}: ${describeContributor(p.winner)} and ${describeContributor(p.other)} both have priority ${p.winner.priority} and disagree (${shown(p.winner.value)} and ${shown(p.other.value)})`,
        {
          ...subject,
          hint: "give one of them a higher priority, narrow a selector, or set the field in the object's own manifest",
        },
      );
    case "tombstone-conflict":
      return makeDiagnostic(
        "error",
        "layer-conflict",
        p.by.handle.at(p.by.at),
        `${p.path}: ${describeContributor(p.by)} removes ${p.key} and ${describeContributor(p.other)} adds it, both at priority ${p.by.priority}`,
        { ...subject, hint: "give one of them a higher priority, or narrow a selector" },
      );
    case "tombstone-unused":
      return makeDiagnostic(
        "error",
        "tombstone-unused",
        p.by.handle.at(p.by.at),
        `${p.path}: $remove ${p.key} removes nothing: no Defaults layer below ${p.by.layer ? `Defaults ${p.by.layer.name}` : "this object"} gives ${p.key} here`,
        {
          ...subject,
          hint:
            didYouMean(p.key, p.given) ??
            "remove the tombstone (or check the key: it names the entry as the layer writes it)",
        },
      );
  }
}
