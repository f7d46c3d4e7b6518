/**
 * ExportDocuments → file texts: one YAML stream per file, every document starting with the
 * `# yaml-language-server: $schema=…` line (relative to the file: yaml-language-server reads
 * it per document, so the second document of a file needs its own), lists of plain values in
 * flow style (`members: [a, b]`), small maps of scalars inline, and the documents' comments
 * beside the values they explain; a value that holds a bidi control or another hidden
 * character double-quoted with the escape visible (`"\u202e"`). Pure: the same documents give
 * the same bytes.
 */
import { isMap, isScalar, isSeq, visit, Document, type Node } from "yaml";
import type { ExportDocument, NodePath } from "./documents.js";
import { escapeYamlText, needsEscapes } from "./yaml-escape.js";

const OPTIONS = { lineWidth: 0, flowCollectionPadding: false } as const;

/** Lists of plain values are written inline (`members: [a, b]`). */
function flowLists(node: unknown): void {
  if (isMap(node)) for (const p of node.items) flowLists(p.value);
  else if (isSeq(node)) {
    if (node.items.every((i) => isScalar(i))) node.flow = true;
    else for (const i of node.items) flowLists(i);
  }
}

/** Maps of a few scalars without comments are written inline (`git: { status: active }`). */
function flowMap(node: unknown): void {
  if (!isMap(node)) return;
  const pairs = node.items;
  const plain = pairs.every(
    (p) => isScalar(p.value) && !p.value.comment && !(isScalar(p.key) && p.key.commentBefore),
  );
  if (plain && pairs.length <= 3) node.flow = true;
}

/** Put `text` beside the value at `path`: after a scalar, above a collection's key. */
function attach(doc: Document, path: NodePath, text: string): void {
  const parent = doc.getIn(path.slice(0, -1), true) as Node | undefined;
  const last = path[path.length - 1];
  if (isMap(parent)) {
    const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
    if (!pair) return;
    if (isScalar(pair.value)) pair.value.comment = ` ${text}`;
    else if (isScalar(pair.key)) pair.key.commentBefore = ` ${text}`;
  } else if (isSeq(parent) && typeof last === "number") {
    const item = parent.items[last] as Node | undefined;
    if (item) item.commentBefore = ` ${text}`;
  }
}

/** Keys and values that hold a hidden character are double-quoted (escaped by manifestFile). */
function quoteHidden(doc: Document): void {
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === "string" && needsEscapes(node.value)) node.type = "QUOTE_DOUBLE";
    },
  });
}

/** One document as YAML (flow lists, inline service maps, comments beside their values). */
export function renderDocument(d: ExportDocument): string {
  const doc = new Document(d.value);
  flowLists(doc.contents);
  quoteHidden(doc);
  for (const c of d.comments) attach(doc, c.path, c.text);
  const services = doc.getIn(["spec", "services"], true);
  if (d.kind === "Team") flowMap(services);
  else if (isMap(services)) for (const p of services.items) flowMap(p.value);
  return doc.toString(OPTIONS);
}

/** The line that gives editors the schema of the document it heads. */
export const modeline = (schemaPath: string) => `# yaml-language-server: $schema=${schemaPath}`;

/**
 * A manifest file: the schema line, an optional header comment, the documents; each later
 * document starts with `---` and its own schema line.
 */
export function manifestFile(
  schemaPath: string,
  headerLines: readonly string[],
  docs: readonly ExportDocument[],
): string {
  const head = [modeline(schemaPath), ...headerLines.map((l) => `# ${l}`)].join("\n");
  // Bidi controls and other hidden characters of live values, visible (yaml-escape.ts).
  return escapeYamlText(
    `${head}\n${docs.map(renderDocument).join(`---\n${modeline(schemaPath)}\n`)}`,
  );
}

/**
 * phctl.yaml: the parent organization, the API profile the export read through (a path
 * beside it), and nothing pruned (adoption must never delete).
 */
export function configFile(schemaPath: string, organization: string, apiProfile?: string): string {
  return [
    modeline(schemaPath),
    "# Written by phctl export. Nothing is pruned: adopting an organization must never delete.",
    `organization: ${organization} # the token's parent organization`,
    ...(apiProfile !== undefined
      ? [
          `apiProfile: ${apiProfile} # how the service differs from phctl's route table (export read with it)`,
        ]
      : []),
    "prune:",
    "  groups: false",
    "  subgroups: false",
    "  repositories: false",
    "  mirrors: false",
    "  artifactRepositories: false",
    "",
  ].join("\n");
}
