/**
 * Word wrapping for the terminal: a line given as painted pieces is laid out in lines of at
 * most `width` columns, broken at spaces only — never inside a word; a word wider than a
 * whole line (a long key, path, URL or JSON value) is broken after its slashes and commas,
 * and what still does not
 * fit overflows — continuation lines indented under the first. Each output line opens and
 * closes its own colours, so that every line stands alone (pagers, CI log viewers). Every
 * piece's hidden characters (bidi controls, zero-width, control codes: src/visible.ts)
 * are escaped first: whatever is laid out here reaches a person, and none of it may reorder or
 * disguise a line. Pure.
 */
import { escapeHidden } from "../visible.js";
import { visibleWidth } from "./width.js";

/** A piece of a line and how it is painted (undefined: plain). */
export interface Seg {
  text: string;
  paint?: ((s: string) => string) | undefined;
  /** Never broken at its spaces (`(45 ms)`). */
  whole?: boolean;
}

/** `text` painted with `paint` (shorthand for building lines). */
export const seg = (text: string, paint?: (s: string) => string): Seg => ({ text, paint });

/** `text` as one unbreakable word. */
export const whole = (text: string, paint?: (s: string) => string): Seg => ({
  text,
  paint,
  whole: true,
});

export interface WrapOptions {
  /** Columns available; undefined: one line, however long. */
  width?: number | undefined;
  /** Indentation of the first line (plain). */
  lead?: string;
  /** Extra indentation of continuation lines, beyond `lead`. */
  hang?: number;
  /** Paint of each whole line (around its pieces' own paints), e.g. a delete all in red. */
  line?: ((s: string) => string) | undefined;
}

/** A word: pieces with no space between them, and the spaces before it. */
interface Word {
  sep: string;
  pieces: Seg[];
}

function wordsOf(segs: readonly Seg[]): Word[] {
  const words: Word[] = [];
  let current: Word | undefined;
  let spaces = "";
  for (const s of segs) {
    const text = escapeHidden(s.text);
    for (const piece of s.whole ? [text] : text.split(/( +)/)) {
      if (piece === "") continue;
      if (piece.startsWith(" ")) {
        spaces += piece;
        current = undefined;
        continue;
      }
      if (!current) {
        current = { sep: words.length === 0 ? "" : spaces, pieces: [] };
        words.push(current);
        spaces = "";
      }
      current.pieces.push({ text: piece, paint: s.paint });
    }
  }
  return words;
}

const widthOf = (w: Word) => w.pieces.reduce((n, p) => n + visibleWidth(p.text), 0);

/**
 * A word wider than `room` cut after its slashes and commas into words glued to each other
 * (no space between them): `project/tf-a/` `repo/x`. Words without either stay whole.
 */
function splitLong(w: Word, room: number): Word[] {
  if (widthOf(w) <= room || !w.pieces.some((p) => /[/,]/.test(p.text))) return [w];
  const out: Word[] = [];
  let current: Word = { sep: w.sep, pieces: [] };
  let used = 0;
  for (const p of w.pieces) {
    for (const part of p.text.split(/(?<=[/,])/)) {
      const n = visibleWidth(part);
      if (used > 0 && used + n > room) {
        out.push(current);
        current = { sep: "", pieces: [] };
        used = 0;
      }
      current.pieces.push({ text: part, paint: p.paint });
      used += n;
    }
  }
  out.push(current);
  return out;
}

/** One output line: runs of the same paint merged, the spaces between them painted alike. */
function renderLine(prefix: string, words: readonly Word[], line?: (s: string) => string): string {
  const runs: Seg[] = [];
  const push = (text: string, paint: Seg["paint"]) => {
    const last = runs.at(-1);
    if (last && last.paint === paint) last.text += text;
    else runs.push({ text, paint });
  };
  words.forEach((w, i) => {
    if (i > 0) {
      const before = words[i - 1].pieces.at(-1)!.paint;
      push(w.sep, before === w.pieces[0].paint ? before : undefined);
    }
    for (const p of w.pieces) push(p.text, p.paint);
  });
  const text = runs.map((r) => (r.paint ? r.paint(r.text) : r.text)).join("");
  return prefix + (line ? line(text) : text);
}

/** Lay out `segs` as described at the top of this file. */
export function wrap(segs: readonly Seg[], o: WrapOptions = {}): string[] {
  const lead = o.lead ?? "";
  const words = wordsOf(segs);
  if (words.length === 0) return [lead.trimEnd()];
  if (o.width === undefined) return [renderLine(lead, words, o.line)];
  const next = lead + " ".repeat(o.hang ?? 0);
  const lines: string[] = [];
  let line: Word[] = [];
  let used = visibleWidth(lead);
  const room = Math.max(1, o.width - visibleWidth(next));
  for (const w of words.flatMap((x) => splitLong(x, room))) {
    const add = (line.length > 0 ? w.sep.length : 0) + widthOf(w);
    if (line.length > 0 && used + add > o.width) {
      lines.push(renderLine(lines.length === 0 ? lead : next, line, o.line));
      line = [];
      used = visibleWidth(next);
    }
    used += line.length > 0 ? add : widthOf(w);
    line.push(w);
  }
  lines.push(renderLine(lines.length === 0 ? lead : next, line, o.line));
  return lines;
}

/** Plain or single-paint text wrapped: the common case. */
export function wrapText(
  text: string,
  o: WrapOptions & { paint?: (s: string) => string } = {},
): string[] {
  return wrap([seg(text, o.paint)], o);
}
