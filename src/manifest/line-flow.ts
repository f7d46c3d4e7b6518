/**
 * Flow collections for the line reader (line-read.ts): `[a, b]`, `{ name: x }`, nested, opened
 * and closed on one line. Each appends the events js-yaml would give and returns its value;
 * a collection over several lines, a `:` in a flow scalar, an empty value or a trailing comma
 * declines (js-yaml reads the file).
 */
import { EVENT_ID } from "js-yaml";
import {
  decline,
  isIndicator,
  plain,
  quoted,
  quotedEnd,
  skipSpaces,
  type LineContext,
} from "./line-scalars.js";
import { MAX_DEPTH } from "./yaml-rules.js";

const { SEQUENCE, MAPPING } = EVENT_ID;

/** A scalar or flow collection inside a flow collection, from `p` (a key ends at `:`); its value and end. */
function flowNode(ctx: LineContext, p: number, le: number, key = false): [unknown, number] {
  const { text } = ctx;
  const c = text[p];
  if (c === "[" || c === "{") return flowCollection(ctx, p, le);
  if (c === "'" || c === '"') {
    const end = quotedEnd(text, p, le);
    return [quoted(ctx, p, end), end + 1];
  }
  // `-1` is a plain scalar; `- 1`, `-,` and `:` are not (the last is the line reader's no).
  const dashed = c === "-" && p + 1 < le && !" ,[]{}".includes(text[p + 1]);
  if (isIndicator(c) && !dashed) decline();
  let end = p;
  while (end < le && !",[]{}:".includes(text[end]) && !(text[end] === "#" && text[end - 1] === " "))
    end++;
  if ((text[end] === ":" && !key) || text[end] === "#" || end === le) decline();
  let trimmed = end;
  while (text[trimmed - 1] === " ") trimmed--;
  return [plain(ctx, p, trimmed), end];
}

/** A flow collection opened at `p` and closed on the same line; its value and end. */
export function flowCollection(ctx: LineContext, p: number, le: number): [unknown, number] {
  const { text, out } = ctx;
  const isMap = text[p] === "{";
  const close = isMap ? "}" : "]";
  if (++ctx.depth > MAX_DEPTH) decline();
  const opened = out.push(isMap ? MAPPING : SEQUENCE, p);
  const list: unknown[] = [];
  const map: Record<string, unknown> = {};
  let at = skipSpaces(text, p + 1, le);
  while (text[at] !== close) {
    if (at >= le) decline();
    if (isMap) {
      const [key, afterKey] = flowNode(ctx, at, le, true);
      if (typeof key !== "string") decline();
      if (key === "__proto__" || Object.hasOwn(map, key)) decline();
      if (text[afterKey] !== ":" || text[afterKey + 1] !== " ") decline();
      const v = skipSpaces(text, afterKey + 1, le);
      if (text[v] === "," || text[v] === "}") decline();
      const [value, end] = flowNode(ctx, v, le);
      map[key] = value;
      at = skipSpaces(text, end, le);
    } else {
      const [value, end] = flowNode(ctx, at, le);
      list.push(value);
      at = skipSpaces(text, end, le);
    }
    if (text[at] === ",") {
      at = skipSpaces(text, at + 1, le);
      if (text[at] === close) decline();
    } else if (text[at] !== close) decline();
  }
  out.close(opened);
  ctx.depth--;
  return [isMap ? map : list, at + 1];
}
