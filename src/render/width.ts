/**
 * How wide text is on a terminal, and making one line fit: the visible width of a string
 * (escape codes take no room, wide characters two columns), the width to lay text out for,
 * and a line of parts that drops its least important parts until it fits — for lines that
 * must never wrap (the live line, the `slowest` line). Pure, apart from reading a stream's
 * size in `terminalWidth`.
 */

/** Below this, layouts stop making sense: narrower terminals are treated as this wide. */
export const MIN_WIDTH = 20;

// eslint-disable-next-line no-control-regex
const ESCAPE = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** `s` without its terminal escape sequences. */
export function stripAnsi(s: string): string {
  return s.replace(ESCAPE, "");
}

/** Columns a code point takes: 0 for combining marks, 2 for wide (East Asian, emoji), else 1. */
function columnsOf(cp: number): number {
  if ((cp >= 0x300 && cp <= 0x36f) || cp === 0x200b || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  )
    return 2;
  return 1;
}

/** Terminal columns `s` takes once printed. */
export function visibleWidth(s: string): number {
  let n = 0;
  for (const ch of stripAnsi(s)) n += columnsOf(ch.codePointAt(0)!);
  return n;
}

/** The plain text of `s` cut to `width` columns, ending in `…` when cut. */
export function truncate(s: string, width: number): string {
  if (visibleWidth(s) <= width) return s;
  if (width <= 0) return "";
  let out = "";
  let n = 0;
  for (const ch of stripAnsi(s)) {
    const w = columnsOf(ch.codePointAt(0)!);
    if (n + w > width - 1) break;
    out += ch;
    n += w;
  }
  return `${out}…`;
}

/** The plain text of `s` cut in the middle to `width` columns (`project/tf-a/…/ci-scripts`). */
export function truncateMiddle(s: string, width: number): string {
  const plain = stripAnsi(s);
  if (visibleWidth(plain) <= width) return s;
  if (width <= 1) return truncate(plain, width);
  const chars = [...plain];
  const budget = width - 1;
  let tail = "";
  let n = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    const w = columnsOf(chars[i].codePointAt(0)!);
    if (n + w > Math.floor(budget / 2)) break;
    tail = chars[i] + tail;
    n += w;
  }
  let head = "";
  let m = 0;
  for (const ch of chars) {
    const w = columnsOf(ch.codePointAt(0)!);
    if (m + w > budget - n) break;
    head += ch;
    m += w;
  }
  return `${head}…${tail}`;
}

/**
 * A key cut to `width` columns by leaving out whole segments from its middle, keeping as many
 * as fit, its first two (`project/tf-a`) rather than one: `project/tf-a/…/user/jdoe`,
 * `project/…/maintainers/user/jdoe`; else cut in the middle of the text.
 */
export function shortenKey(key: string, width: number): string {
  if (visibleWidth(key) <= width) return key;
  const parts = key.split("/");
  const n = parts.length;
  for (let kept = n - 1; kept >= 2; kept--) {
    for (const head of [2, 1]) {
      if (kept - head < 1) continue;
      const s = `${parts.slice(0, head).join("/")}/…/${parts.slice(n - (kept - head)).join("/")}`;
      if (visibleWidth(s) <= width) return s;
    }
  }
  return truncateMiddle(key, width);
}

/** `create project/…/user/jdoe`: an action id (`<action> <key>`) cut in its key. */
export function shortenId(id: string, width: number): string {
  const space = id.indexOf(" ");
  const action = id.slice(0, space + 1);
  return `${action}${shortenKey(id.slice(space + 1), width - action.length)}`;
}

/** A stream that may be a terminal. */
export interface SizedStream {
  isTTY?: boolean;
  columns?: number;
}

/**
 * The width to lay text out for on `stream`: the terminal's own width when it is one, else
 * `COLUMNS` when set (tests, `COLUMNS=100 phctl plan | less`), else undefined: no wrapping.
 */
export function terminalWidth(
  stream: SizedStream,
  env: Record<string, string | undefined> = process.env,
): number | undefined {
  if (stream.isTTY === true && stream.columns !== undefined && stream.columns > 0)
    return Math.max(MIN_WIDTH, stream.columns);
  const c = Number(env.COLUMNS);
  if (env.COLUMNS !== undefined && Number.isInteger(c) && c > 0) return Math.max(MIN_WIDTH, c);
  return undefined;
}

/** One part of a line that must fit: the higher `keep`, the later it is dropped. */
export interface Part {
  text: string;
  keep: number;
}

/**
 * Join `parts` with `sep`, dropping the parts with the lowest `keep` (the rightmost first
 * among equals) until the line is at most `width` columns; the first part is never dropped
 * and is cut with `…` if even it alone is too wide.
 */
export function fitParts(
  parts: readonly Part[],
  width: number,
  sep = " · ",
  /** Between the first part and the next (`plan: reading …`). */
  firstSep = sep,
): string {
  const kept = [...parts];
  const line = () => {
    const [first, ...rest] = kept;
    return rest.length === 0
      ? first.text
      : `${first.text}${firstSep}${rest.map((p) => p.text).join(sep)}`;
  };
  while (kept.length > 1 && visibleWidth(line()) > width) {
    let drop = 1;
    for (let i = 2; i < kept.length; i++) if (kept[i].keep <= kept[drop].keep) drop = i;
    kept.splice(drop, 1);
  }
  const s = line();
  return visibleWidth(s) <= width ? s : truncate(s, width);
}
