/**
 * Parts of a manifest file read again (field-sources.ts): the lines of the document that
 * holds a line (between `---` / `...` markers, which YAML allows only at the start of a
 * line), the lines of a block list item (until a line indented less than its content), and
 * such lines parsed alone with their positions as in the whole file.
 */
import type { DocHandle } from "./positions.js";
import type { Diagnostic, Source } from "./types.js";

/** One document parsed, with its positions. */
export interface Parsed {
  handle: DocHandle;
  value: unknown;
}

type Parse = (file: string, text: string) => { documents: Parsed[]; diagnostics: Diagnostic[] };

const MARKER = /^(?:---|\.\.\.)(?=[ \t\r\n]|$)/;

/** A handle whose lines are `by` further down (a part parsed alone). */
function shifted(h: DocHandle, by: number): DocHandle {
  const move = (s: Source): Source => ({ ...s, line: s.line + by });
  return {
    file: h.file,
    sourceAt: (offset) => move(h.sourceAt(offset)),
    get start() {
      return move(h.start);
    },
    at: (path, which) => move(h.at(path, which)),
  };
}

export class FileLines {
  private starts: number[] | undefined;
  /** 1-based lines that are document markers. */
  private markers: number[] | undefined;

  constructor(
    readonly file: string,
    readonly text: string,
    private readonly parseText: Parse,
  ) {}

  /** Offsets where lines start (index 0: line 1). */
  private lineStarts(): number[] {
    if (this.starts) return this.starts;
    const starts = [0];
    for (let i = this.text.indexOf("\n"); i !== -1; i = this.text.indexOf("\n", i + 1))
      starts.push(i + 1);
    return (this.starts = starts);
  }

  private line(n: number): string {
    const starts = this.lineStarts();
    return this.text.slice(starts[n - 1], n < starts.length ? starts[n] : this.text.length);
  }

  get lineCount(): number {
    return this.lineStarts().length;
  }

  /** Lines [from, to) of the document that holds `line` (from its `---`, if any). */
  docLines(line: number): [number, number] {
    if (!this.markers) {
      this.markers = [];
      const starts = this.lineStarts();
      for (let n = 1; n <= starts.length; n++) {
        const c = this.text.charCodeAt(starts[n - 1]);
        // Only `-` or `.` can start a marker: most lines are passed over on one character.
        if ((c === 45 || c === 46) && MARKER.test(this.line(n))) this.markers.push(n);
      }
    }
    // The last marker at or before `line` (binary search: a file may hold thousands).
    const ms = this.markers;
    let lo = 0;
    let hi = ms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ms[mid] <= line) lo = mid + 1;
      else hi = mid - 1;
    }
    const m = hi >= 0 ? ms[hi] : undefined;
    const from =
      m === undefined ? 1 : this.text.startsWith(".", this.lineStarts()[m - 1]) ? m + 1 : m;
    const to = lo < ms.length ? ms[lo] : this.lineCount + 1;
    return [from, to];
  }

  /**
   * Lines [line, to) of the block list item whose content starts at `line`, `column`: up to
   * the first line with content indented less (blank and comment lines do not end it).
   */
  itemLines(line: number, column: number): [number, number] {
    let n = line + 1;
    for (; n <= this.lineCount; n++) {
      const l = this.line(n);
      const indent = l.search(/\S/);
      if (indent >= 0 && l[indent] !== "#" && indent < column - 1) break;
    }
    return [line, n];
  }

  /**
   * Lines [from, to) parsed alone, the first `blank` columns of the first blanked (a list
   * item's `- `); undefined when they do not parse cleanly (an alias to an anchor elsewhere).
   */
  parse(from: number, to: number, blank: number): Parsed[] | undefined {
    const starts = this.lineStarts();
    let part = this.text.slice(starts[from - 1], to <= starts.length ? starts[to - 1] : undefined);
    if (blank > 0) {
      if (!/^[ -]*$/.test(part.slice(0, blank))) return undefined;
      part = " ".repeat(blank) + part.slice(blank);
    }
    const r = this.parseText(this.file, part);
    if (r.diagnostics.some((d) => d.severity === "error")) return undefined;
    return r.documents.map((d) => ({ handle: shifted(d.handle, from - 1), value: d.value }));
  }
}
