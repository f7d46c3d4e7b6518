/**
 * The fast reader. js-yaml's event parser gives a flat list of events that point into the
 * text by offset (no node objects), values are built from it, and a position is found by
 * walking a document's events only when one is asked for (fast-events.ts). The `yaml`
 * library's reader (parse.ts) builds a full node tree with ranges and costs about five times
 * as much: at 10,000 users and 2,000 projects that is most of a plan's CPU time.
 *
 * It reads the plain YAML manifests are made of — empty documents (a trailing `---`)
 * included — and declines everything else: a syntax error or duplicate key, anchors and
 * aliases, tags, directives, merge keys (`<<`), keys that are not plain strings, documents
 * that are neither mappings nor empty, an empty stream. The full reader then takes the whole
 * file, so diagnostics and every edge of YAML stay the `yaml` library's. Nesting deeper
 * than MAX_DEPTH is not declined but reported (parse.ts says it in one line).
 * test/manifest/fast-read.test.ts holds the two readers to the same values and positions.
 */
import {
  constructFromEvents,
  EVENT_ID,
  getScalarValue,
  parseEvents,
  SCALAR_STYLE,
  type Event,
} from "js-yaml";
import { blockHeader, EmptyDocHandle, EventDocHandle, Reading } from "./fast-events.js";
import { pack } from "./packed.js";
import { readLines } from "./line-read.js";
import type { ParsedDocument } from "./parse.js";
import { MAX_DEPTH, NON_STRING_PLAIN } from "./yaml-rules.js";

const { DOCUMENT, SEQUENCE, MAPPING, SCALAR, ALIAS, POP } = EVENT_ID;

export { MAX_DEPTH } from "./yaml-rules.js";

/**
 * Text the two readers do not read alike, found by the differential test: merge keys (`<<`),
 * a byte order mark, tabs in indentation (the full reader refuses more of them), document
 * end markers (documents are counted differently around them), indented document markers
 * (js-yaml takes them as markers, the full reader as text) and a line starting with `%` (a
 * directive: js-yaml passes over an unknown one in silence, the full reader warns).
 */
const DECLINED_TEXT =
  /<<|\ufeff|^[ ]*\t|^\.\.\.(?:[ \t\r\n]|$)|^[ \t]+(?:---|\.\.\.)(?:[ \t\r\n]|$)|^%/m;

/** A document start marker at the start of a line. */
const MARKER = /^---(?=[ \t\r\n]|$)/gm;

/** A document's root: its mapping's event, or where an empty document's content would start. */
type Root = { event: number } | { emptyAt: number };

/** Where the empty document after the marker at `marker` starts, as the full reader counts it. */
function afterMarker(text: string, marker: number): number {
  let at = marker + 3;
  while (text[at] === " " || text[at] === "\t") at++;
  return at;
}

/** How deep js-yaml may recurse here: past it, the full reader finds where MAX_DEPTH was passed. */
const PARSE_DEPTH = 1000;

const BEFORE_ROOT = -2;
const AFTER_ROOT = -3;
const IN_SEQUENCE = -1;

/**
 * The root of every document; where a collection first nests deeper than MAX_DEPTH; or
 * undefined when the stream holds anything the fast reader declines (see the file comment).
 */
function documentRoots(
  text: string,
  ev: readonly Event[],
): Root[] | { tooDeepAt: number } | undefined {
  const roots: Root[] = [];
  // Per open document or collection: BEFORE_ROOT / AFTER_ROOT for a document, IN_SEQUENCE,
  // else the number of nodes seen in the mapping so far (even: the next node is a key).
  const open: number[] = [];
  let depth = 0;
  // Offsets before this belong to what was read already (content, or an empty document's
  // marker): an empty document's marker is the first one after them.
  let readTo = 0;
  let explicit = false;
  for (let i = 0; i < ev.length; i++) {
    const e = ev[i];
    if (e.type === DOCUMENT) {
      if (e.directives.length > 0) return undefined;
      explicit = e.explicitStart;
      open.push(BEFORE_ROOT);
      continue;
    }
    if (e.type === POP) {
      const closed = open.pop() ?? AFTER_ROOT;
      if (closed !== AFTER_ROOT && closed !== BEFORE_ROOT) depth--;
      continue;
    }
    if (e.type === ALIAS || e.anchorStart !== -1 || e.tagStart !== -1) return undefined;
    const at = e.type === SCALAR ? e.valueStart : e.start;
    if (at >= 0 && at < readTo) return undefined;
    const parent = open.length - 1;
    const inMapping = open[parent];
    if (inMapping === BEFORE_ROOT) {
      if (e.type === SCALAR && e.valueStart === -1 && e.style === SCALAR_STYLE.PLAIN) {
        // An empty document (`---` and nothing, often a file's last line).
        if (!explicit) return undefined;
        MARKER.lastIndex = readTo;
        const marker = MARKER.exec(text);
        if (!marker) return undefined;
        roots.push({ emptyAt: afterMarker(text, marker.index) });
        readTo = marker.index + 3;
        open[parent] = AFTER_ROOT;
        continue;
      }
      if (e.type !== MAPPING) return undefined;
      roots.push({ event: i });
      open[parent] = AFTER_ROOT;
    } else if (inMapping >= 0) {
      if (inMapping % 2 === 0) {
        // A key: a one-line string.
        if (e.type !== SCALAR) return undefined;
        if (e.style === SCALAR_STYLE.LITERAL_BLOCK || e.style === SCALAR_STYLE.FOLDED_BLOCK)
          return undefined;
        if (e.style === SCALAR_STYLE.PLAIN && NON_STRING_PLAIN.test(getScalarValue(text, e)))
          return undefined;
        if (e.style === SCALAR_STYLE.PLAIN && e.valueEnd <= e.valueStart) return undefined;
      }
      open[parent] = inMapping + 1;
    }
    const block =
      e.type === SCALAR &&
      (e.style === SCALAR_STYLE.LITERAL_BLOCK || e.style === SCALAR_STYLE.FOLDED_BLOCK);
    if (block && blockHeader(text, e.valueStart) < 0) return undefined;
    if (e.type === SCALAR) readTo = Math.max(readTo, e.valueEnd);
    else if (at >= 0) readTo = Math.max(readTo, at);
    if (e.type === MAPPING || e.type === SEQUENCE) {
      if (++depth > MAX_DEPTH) return { tooDeepAt: e.start };
      open.push(e.type === MAPPING ? 0 : IN_SEQUENCE);
    }
  }
  return roots.length > 0 ? roots : undefined;
}

/** What the fast reader made of a file. */
export type FastReading =
  | { documents: ParsedDocument[] }
  /** Nesting deeper than MAX_DEPTH, first at this offset. */
  | { tooDeepAt: number }
  /** Declined: the full reader must read the file. */
  | undefined;

/** The documents of a file by the fast reader, its nesting too deep, or declined. */
export function readFastOrDepth(file: string, text: string): FastReading {
  if (DECLINED_TEXT.test(text)) return undefined;
  const lines = readLines(text);
  if (lines) {
    const reading = new Reading(file, text, lines.events);
    return {
      documents: lines.roots.map((root, k) => ({
        handle:
          "event" in root
            ? new EventDocHandle(reading, root.event)
            : new EmptyDocHandle(reading, root.emptyAt),
        value: lines.values[k],
      })),
    };
  }
  let events: Event[];
  let values: unknown[];
  try {
    events = parseEvents(text, { filename: file, maxDepth: PARSE_DEPTH });
  } catch {
    return undefined;
  }
  const roots = documentRoots(text, events);
  if (!roots || "tooDeepAt" in roots) return roots;
  try {
    values = constructFromEvents(events, { source: text, filename: file, maxAliases: 0 });
  } catch {
    return undefined;
  }
  if (roots.length !== values.length) return undefined;
  const reading = new Reading(file, text, pack(events));
  return {
    documents: roots.map((root, k) => ({
      handle:
        "event" in root
          ? new EventDocHandle(reading, root.event)
          : new EmptyDocHandle(reading, root.emptyAt),
      value: values[k],
    })),
  };
}

/**
 * The documents of a file by the fast reader, or undefined when it declines the file (the
 * full reader must read it then) or finds it nested too deep.
 */
export function readFast(file: string, text: string): ParsedDocument[] | undefined {
  const r = readFastOrDepth(file, text);
  return r && "documents" in r ? r.documents : undefined;
}
