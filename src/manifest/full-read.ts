/**
 * The full reader: the `yaml` library, for every file the fast reader declines (and with
 * `reader: "full"`). Duplicate keys are errors, alias expansion is capped (an alias bomb
 * fails fast), nesting deeper than MAX_DEPTH is refused before anything recurses into it, and
 * every problem is a diagnostic at file:line:col. The library is loaded on first use: plain
 * manifests never need it, and a command that reads only those starts without it.
 */
import { createRequire } from "node:module";
import type * as Yaml from "yaml";
import type { Document, LineCounter, Node } from "yaml";
import { makeDiagnostic } from "./diagnostics.js";
import { unresolvedAlias } from "./yaml-aliases.js";
import { MAX_DEPTH } from "./yaml-rules.js";
import type { ParsedDocument, ParseOptions } from "./parse.js";
import type { DocHandle, FieldPath } from "./positions.js";
import type { Diagnostic, Source } from "./types.js";

export const DEFAULT_MAX_ALIAS_COUNT = 100;

let lib: typeof Yaml | undefined;
const yaml = (): typeof Yaml => (lib ??= createRequire(import.meta.url)("yaml") as typeof Yaml);

/** A document of the full reader (the `yaml` library's nodes). */
export class YamlDocHandle implements DocHandle {
  constructor(
    /** Relative to the current directory, `/`-separated. */
    readonly file: string,
    readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
  ) {}

  sourceAt(offset: number): Source {
    const { line, col } = this.lines.linePos(offset);
    return { file: this.file, line: Math.max(1, line), column: Math.max(1, col) };
  }

  get start(): Source {
    return this.sourceAt(this.doc.contents?.range[0] ?? this.doc.range[0]);
  }

  at(path: FieldPath, which: "key" | "value" = "value"): Source {
    return this.sourceAt(locate(this.doc, path, which));
  }
}

function keyName(n: unknown): string | undefined {
  if (yaml().isScalar(n)) return String(n.value);
  return undefined;
}

/**
 * An alias's node, resolved once per alias: the YAML library walks the whole document for each
 * resolution, and locating every entry of an aliased 20,000-entry list resolved it each time.
 */
const aliasTargets = new WeakMap<object, unknown>();
function resolved(alias: { resolve(doc: Document): unknown }, doc: Document): unknown {
  if (aliasTargets.has(alias)) return aliasTargets.get(alias);
  const node = alias.resolve(doc);
  aliasTargets.set(alias, node);
  return node;
}

/** Byte offset of a field's key or value. */
export function locate(doc: Document, path: FieldPath, which: "key" | "value"): number {
  const { isAlias, isMap, isScalar, isSeq } = yaml();
  let node: unknown = doc.contents;
  let keyNode: Node | undefined;
  let offset = (node as Node | null)?.range?.[0] ?? doc.range?.[0] ?? 0;
  for (const seg of path) {
    if (isAlias(node)) node = resolved(node, doc);
    let next: unknown;
    if (isMap(node)) {
      const pair = node.items.find((p) => keyName(p.key) === String(seg));
      if (!pair) return offset;
      keyNode = pair.key as Node;
      next = pair.value;
      offset = keyNode.range?.[0] ?? offset;
    } else if (isSeq(node) && typeof seg === "number") {
      keyNode = undefined;
      next = node.items[seg];
      if (next === undefined) return offset;
    } else {
      return offset;
    }
    const valueStart = (next as Node | null)?.range?.[0];
    const emptyValue = isScalar(next) && next.value === null && !next.source;
    if (valueStart !== undefined && !emptyValue) offset = valueStart;
    node = next;
  }
  if (which === "key" && keyNode?.range) return keyNode.range[0];
  return offset;
}

/** Offset of the first collection nested deeper than MAX_DEPTH; -1 if none (no recursion). */
function tooDeep(root: unknown): number {
  const { isCollection, isPair } = yaml();
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (!isCollection(node)) continue;
    if (depth > MAX_DEPTH) return node.range?.[0] ?? 0;
    for (const item of node.items as unknown[]) {
      if (isPair(item)) {
        stack.push([item.key, depth + 1], [item.value, depth + 1]);
      } else stack.push([item, depth + 1]);
    }
  }
  return -1;
}

/** The one-line diagnostic for nesting deeper than the loader reads. */
export function tooDeepDiagnostic(at: Source): Diagnostic {
  return makeDiagnostic(
    "error",
    "too-deep",
    at,
    `mappings and lists nested more than ${MAX_DEPTH} deep; a manifest needs 7 at most: check the indentation and brackets from here`,
  );
}

export function readFull(
  file: string,
  text: string,
  opts: ParseOptions,
): { documents: ParsedDocument[]; diagnostics: Diagnostic[] } {
  const lines = new (yaml().LineCounter)();
  const parsed = yaml().parseAllDocuments(text, {
    lineCounter: lines,
    prettyErrors: false,
    uniqueKeys: true,
    // Problems become diagnostics; the library must not print process warnings of its own.
    logLevel: "error",
    // `<<: *defaults` merge keys (YAML 1.1, widely used to share repository settings).
    merge: true,
  });
  const documents: ParsedDocument[] = [];
  const diagnostics: Diagnostic[] = [];
  if (parsed.length === 0) {
    // An empty stream (nothing but comments or whitespace) still carries its errors.
    const start = { file, line: 1, column: 1 };
    const errors = "errors" in parsed ? (parsed.errors as { message: string }[]) : [];
    for (const e of errors)
      diagnostics.push(makeDiagnostic("error", "yaml-syntax", start, `invalid YAML: ${e.message}`));
    if (errors.length === 0)
      diagnostics.push(
        makeDiagnostic("warning", "empty-file", start, "file has no YAML documents (ignored)"),
      );
    return { documents, diagnostics };
  }
  for (const doc of parsed) {
    const handle = new YamlDocHandle(file, doc, lines);
    const deep = tooDeep(doc.contents);
    // The library's own recursion ran out of stack: the nesting is too deep there.
    const overflow = doc.errors.find((e) => /call stack/i.test(e.message));
    if (deep >= 0 || overflow) {
      diagnostics.push(tooDeepDiagnostic(handle.sourceAt(deep >= 0 ? deep : overflow!.pos[0])));
      continue;
    }
    for (const e of doc.errors) {
      const at = handle.sourceAt(e.pos[0]);
      if (e.code === "DUPLICATE_KEY") {
        const key = /^("[^"\n]*"|'[^'\n]*'|[^:\n]+?)\s*:/.exec(text.slice(e.pos[0]))?.[1] ?? "";
        diagnostics.push(
          makeDiagnostic(
            "error",
            "duplicate-key",
            at,
            `duplicate key ${key || "in mapping"}: keys must be unique within a mapping`,
          ),
        );
      } else {
        diagnostics.push(makeDiagnostic("error", "yaml-syntax", at, `invalid YAML: ${e.message}`));
      }
    }
    for (const w of doc.warnings)
      diagnostics.push(
        makeDiagnostic("warning", "yaml-warning", handle.sourceAt(w.pos[0]), `YAML: ${w.message}`),
      );
    if (doc.errors.length > 0) continue;
    const max = opts.maxAliasCount ?? DEFAULT_MAX_ALIAS_COUNT;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: max });
    } catch (e) {
      const alias = unresolvedAlias(yaml(), doc, parsed, (o) => handle.sourceAt(o).line);
      const excessive = e instanceof ReferenceError && /alias/i.test(e.message);
      diagnostics.push(
        alias
          ? makeDiagnostic("error", "yaml-alias", handle.sourceAt(alias.offset), alias.message)
          : excessive
            ? makeDiagnostic(
                "error",
                "alias-limit",
                handle.start,
                `aliases expand too much (more than ${max} expansions); refusing a possible alias bomb`,
              )
            : makeDiagnostic(
                "error",
                "yaml-syntax",
                handle.start,
                `invalid YAML: ${(e as Error).message}`,
              ),
      );
      continue;
    }
    documents.push({ handle, value });
  }
  return { documents, diagnostics };
}
