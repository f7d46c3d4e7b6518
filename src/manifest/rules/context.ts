/** What every cross-reference rule gets, and the helpers rules share. */
import type { ValidDoc } from "../check.js";
import { formatPath, makeDiagnostic } from "../diagnostics.js";
import type { FieldPath } from "../positions.js";
import type { RepositoryIndex } from "../resolve.js";
import type { Diagnostic, ManifestConfig, Severity } from "../types.js";

export interface RuleContext {
  /** The documents that passed their schemas, in load order. */
  docs: readonly ValidDoc[];
  config: ManifestConfig;
  /** Declared repositories by clone URL (fork sources, mirror destinations). */
  index: RepositoryIndex;
  /** First declaration of each username. */
  users: ReadonlyMap<string, ValidDoc<"User">>;
}

/** A rule: all documents in, diagnostics out. Pure. */
export type Rule = (ctx: RuleContext) => Diagnostic[];

/** A diagnostic about a field of a document. */
export function report(
  d: ValidDoc,
  path: FieldPath,
  code: string,
  message: string,
  opts: { severity?: Severity; hint?: string | undefined; which?: "key" | "value" } = {},
): Diagnostic {
  return makeDiagnostic(opts.severity ?? "error", code, d.handle.at(path, opts.which), message, {
    kind: d.kind,
    name: d.name,
    path: formatPath(path),
    hint: opts.hint,
  });
}

export const projects = (ctx: RuleContext) =>
  ctx.docs.filter((d): d is ValidDoc<"Project"> => d.kind === "Project");

export const repositories = (p: ValidDoc<"Project">) => p.value.spec.git?.repositories ?? [];
