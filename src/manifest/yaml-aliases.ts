/**
 * An alias the `yaml` library cannot resolve, in our words. The library says "Merge sources
 * must be maps or map aliases" for `<<: *name`, and an unresolved alias error for `*name`;
 * the usual cause is an anchor in another document of the file, and an anchor is known only
 * in its own document (each `---` starts a new one). Looked for only once a document failed
 * to convert: a file that converts pays nothing.
 */
import type * as Yaml from "yaml";
import type { Document } from "yaml";

/** Where an unresolved alias is and what to say about it. */
export interface AliasProblem {
  offset: number;
  message: string;
}

/** Offsets of the nodes anchored `name` in `doc`. */
function anchorsIn(lib: typeof Yaml, doc: Document, name: string): number[] {
  const found: number[] = [];
  lib.visit(doc, {
    Node(_, n) {
      if (n.anchor === name && n.range) found.push(n.range[0]);
    },
  });
  return found;
}

/** The first alias of `doc` that names no anchor before it in `doc`; `all`: the file's documents. */
export function unresolvedAlias(
  lib: typeof Yaml,
  doc: Document,
  all: readonly Document[],
  lineOf: (offset: number) => number,
): AliasProblem | undefined {
  let alias: Yaml.Alias | undefined;
  lib.visit(doc, {
    Alias(_, n) {
      if (n.resolve(doc) !== undefined) return undefined;
      alias = n;
      return lib.visit.BREAK;
    },
  });
  if (!alias) return undefined;
  const name = alias.source;
  const offset = alias.range?.[0] ?? 0;
  const later = anchorsIn(lib, doc, name).find((at) => at > offset);
  if (later !== undefined)
    return {
      offset,
      message: `alias *${name} comes before its anchor &${name} (line ${lineOf(later)}): an anchor must come first`,
    };
  if (all.some((d) => d !== doc && anchorsIn(lib, d, name).length > 0))
    return {
      offset,
      message: `alias *${name} names an anchor of another YAML document: anchors and aliases work only within one document (each --- starts a new one); repeat the values, or put them in the same document`,
    };
  return {
    offset,
    message: `alias *${name} has no anchor &${name} in its YAML document (anchors and aliases work only within one document; each --- starts a new one)`,
  };
}
