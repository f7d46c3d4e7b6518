/**
 * Where a character of a YAML scalar's value is in its file. The value a reader hands on is
 * not the file's text: quotes go, escapes (`\"`, `\\`, `\n`, `\u00e9`) and a doubled `''`
 * become one character, and lines fold (a plain, quoted or `>` scalar joins its lines with a
 * space, `|` keeps them). A column counted in the value (a CEL error's) is therefore read
 * back through the scalar's source here, so SARIF and annotations point at the real column.
 */

/** `\x` escapes of double-quoted YAML and what they stand for. */
const ESCAPES: Record<string, string> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\x85",
  _: "\xa0",
  L: "\u2028",
  P: "\u2029",
};
const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

/** The character of a `\x`, `\u` or `\U` escape; undefined past Unicode's range. */
const codePoint = (n: number) => (n <= 0x10ffff ? String.fromCodePoint(n) : undefined);

const isWhite = (c: string | undefined) => c === " " || c === "\t";

/** Length of the line break at `i` (`\n` or `\r\n`), 0 when there is none. */
function breakAt(text: string, i: number): number {
  if (text[i] === "\n") return 1;
  return text[i] === "\r" && text[i + 1] === "\n" ? 2 : 0;
}

/** Receives the value's characters with the source range each comes from; true stops. */
type Emit = (chars: string, from: number, to: number) => boolean;

/**
 * The offset in `text` of character `index` of `value`, the scalar whose source starts at
 * `start` (its quote, its `|` / `>`, or its first character; tags and anchors are skipped).
 * `index` may be `value.length` (just past the last character). Undefined when the source
 * read from `start` does not give `value`: the caller then falls back to a plainer guess.
 */
export function scalarSourceOffset(
  text: string,
  start: number,
  value: string,
  index: number,
): number | undefined {
  // An offset in trailing white space (a block scalar's last line break) is just past the
  // last character: that is where the expression ends in the file.
  value = value.trimEnd();
  index = Math.min(index, value.length);
  if (index < 0) return undefined;
  let k = 0;
  let found: number | undefined;
  const emit: Emit = (chars, from, to) => {
    for (let j = 0; j < chars.length; j++) {
      if (k === index) {
        found = from;
        return true;
      }
      if (value[k] !== chars[j]) return true;
      k++;
    }
    if (k < value.length) return false;
    if (index === k) found = to;
    return true;
  };
  let at = start;
  // Node properties before the scalar: `!!str "…"`, `&name …`.
  while (text[at] === "!" || text[at] === "&") {
    while (at < text.length && !isWhite(text[at]) && !breakAt(text, at)) at++;
    while (isWhite(text[at])) at++;
  }
  if (index === 0 && value.length === 0) return at;
  const c = text[at];
  if (c === "|" || c === ">") blockScalar(text, at, c === ">", emit);
  else flowScalar(text, at, emit);
  return found;
}

/**
 * A plain, single- or double-quoted scalar from `at`: its characters, its escapes, and its
 * line breaks folded (trailing and leading white space dropped; one break is a space, each
 * empty line a `\n`).
 */
function flowScalar(text: string, at: number, emit: Emit): void {
  const q = text[at] === '"' || text[at] === "'" ? text[at] : undefined;
  let i = q ? at + 1 : at;
  /** Past a line break at `i` and the empty lines after it; how many empty lines. */
  const fold = (from: number): { to: number; empty: number } => {
    let j = from + breakAt(text, from);
    let empty = 0;
    for (;;) {
      while (isWhite(text[j])) j++;
      const b = breakAt(text, j);
      if (!b) return { to: j, empty };
      empty++;
      j += b;
    }
  };
  while (i < text.length) {
    const c = text[i];
    if (q !== undefined && c === q) {
      if (q === "'" && text[i + 1] === "'") {
        if (emit("'", i, i + 2)) return;
        i += 2;
        continue;
      }
      return;
    }
    if (q === '"' && c === "\\") {
      const n = text[i + 1] ?? "";
      if (breakAt(text, i + 1)) {
        const { to, empty } = fold(i + 1);
        if (empty > 0 && emit("\n".repeat(empty), i, to)) return;
        i = to;
        continue;
      }
      const digits = HEX_DIGITS[n];
      const end = i + 2 + (digits ?? 0);
      const hex = text.slice(i + 2, end);
      const decoded =
        digits === undefined
          ? ESCAPES[n]
          : /^[0-9a-fA-F]+$/.test(hex) && hex.length === digits
            ? codePoint(parseInt(hex, 16))
            : undefined;
      if (decoded === undefined) return;
      if (emit(decoded, i, end)) return;
      i = end;
      continue;
    }
    if (isWhite(c)) {
      let j = i;
      while (isWhite(text[j])) j++;
      // White space before a line break is not part of the value; before ` #` neither.
      if (breakAt(text, j) || j >= text.length) {
        i = j;
        continue;
      }
      if (q === undefined && text[j] === "#") return;
      for (; i < j; i++) if (emit(text[i], i, i + 1)) return;
      continue;
    }
    if (breakAt(text, i)) {
      const { to, empty } = fold(i);
      if (emit(empty === 0 ? " " : "\n".repeat(empty), i, to)) return;
      i = to;
      continue;
    }
    if (q === undefined && c === ":" && (isWhite(text[i + 1]) || breakAt(text, i + 1))) return;
    if (emit(c, i, i + 1)) return;
    i++;
  }
}

/**
 * A `|` or `>` block scalar whose header is at `at`: its lines below at the indentation of
 * the first that is not empty; `|` keeps each line break, `>` folds a break between two
 * lines that are not more indented into a space.
 */
function blockScalar(text: string, at: number, folded: boolean, emit: Emit): void {
  let i = text.indexOf("\n", at);
  if (i === -1) return;
  i++;
  let indent: number | undefined;
  let previous: "none" | "normal" | "more" = "none";
  let previousEnd = i;
  let empty = 0;
  while (i < text.length) {
    let lineEnd = text.indexOf("\n", i);
    if (lineEnd === -1) lineEnd = text.length;
    const end = text[lineEnd - 1] === "\r" ? lineEnd - 1 : lineEnd;
    let n = i;
    while (text[n] === " ") n++;
    const blank = n >= end;
    if (!blank) {
      indent ??= n - i;
      if (n - i < indent) return;
    }
    const from = blank ? Math.min(end, i + (indent ?? end - i)) : i + (indent ?? 0);
    if (!folded) {
      for (let p = from; p < end; p++) if (emit(text[p], p, p + 1)) return;
      if (emit("\n", end, lineEnd + 1)) return;
    } else if (blank) {
      empty++;
    } else {
      const more = isWhite(text[from]);
      const joint =
        previous === "none"
          ? "\n".repeat(empty)
          : previous === "normal" && !more
            ? empty === 0
              ? " "
              : "\n".repeat(empty)
            : "\n".repeat(empty + 1);
      if (joint && emit(joint, previousEnd, from)) return;
      for (let p = from; p < end; p++) if (emit(text[p], p, p + 1)) return;
      previous = more ? "more" : "normal";
      previousEnd = end;
      empty = 0;
    }
    i = lineEnd + 1;
  }
}
