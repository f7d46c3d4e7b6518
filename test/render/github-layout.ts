/**
 * How tall and how wide a comment renders on GitHub, roughly: the comment's markdown taken
 * apart by `marked` in GFM mode (as markdown-plans.ts does) and laid out with the metrics of
 * GitHub's stylesheet at its desktop width — 14 px text on 21 px lines, 16 px between
 * blocks, 33 px table rows, 12 px code on 17.4 px lines, a collapsed `<details>` one line
 * of its summary. Good to a few percent on what matters here: whether a reviewer scrolls
 * through screens of it, and whether a table or a line is wider than the column.
 */
import { marked, type Token, type Tokens } from "marked";

/** The comment column (px) at GitHub's usual desktop width. */
export const COLUMN_PX = 860;
const TEXT_CHAR_PX = 7.4; // 14 px system font, a mix of letters, digits and code
const CODE_CHAR_PX = 7.22; // 12 px SFMono
const LINE = 21;
const GAP = 16;
const CODE_LINE = 17.4;
const ROW = 33;

/** What the layout found. */
export interface Layout {
  /** Height (px) with every `<details>` collapsed, as the comment first shows. */
  height: number;
  /** The widest table or code block (px): wider than COLUMN_PX scrolls sideways. */
  widest: number;
  /** The most lines any one paragraph or list item takes (a wall of text). */
  tallestBlock: number;
  /** Summaries of `<details>` one sees without opening any. */
  visibleSections: number;
}

/** Text as it reads: markup and HTML tags removed. */
function plain(raw: string): string {
  return raw
    .replace(/<[^>]+>/g, "")
    .replace(/\\([\\`*_[\]<>&|~@#!])/g, "$1")
    .replace(/`+ ?|\*\*/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
}

const linesOf = (text: string, widthPx = COLUMN_PX): number =>
  Math.max(1, Math.ceil((plain(text).length * TEXT_CHAR_PX) / widthPx));

/** Lay out a comment. */
export function layout(md: string): Layout {
  const out: Layout = { height: 0, widest: 0, tallestBlock: 0, visibleSections: 0 };
  let hidden = 0; // depth of collapsed <details> we are inside
  const block = (lines: number) => (out.tallestBlock = Math.max(out.tallestBlock, lines));
  for (const t of marked.lexer(md, { gfm: true }) as Token[]) {
    if (t.type === "html") {
      for (const m of t.raw.matchAll(/<details>|<\/details>|<summary>(.*?)<\/summary>/g)) {
        if (m[0] === "<details>") hidden++;
        else if (m[0] === "</details>") hidden--;
        else if (hidden === 1) {
          out.visibleSections++;
          out.height += linesOf(m[1]) * LINE + GAP;
        }
      }
      continue;
    }
    if (hidden > 0 || t.type === "space") continue;
    switch (t.type) {
      case "heading": {
        const h = t as Tokens.Heading;
        out.height += linesOf(h.text) * (h.depth <= 3 ? 25 : 20) + 24 + GAP;
        break;
      }
      case "paragraph": {
        const n = linesOf(t.raw);
        block(n);
        out.height += n * LINE + GAP;
        break;
      }
      case "list": {
        for (const item of (t as Tokens.List).items) {
          const n = linesOf(item.text, COLUMN_PX - 32);
          block(n);
          out.height += n * LINE + 4;
        }
        out.height += GAP;
        break;
      }
      case "table": {
        const tt = t as Tokens.Table;
        const rows = [tt.header, ...tt.rows];
        const widths = tt.header.map((_, c) =>
          Math.max(...rows.map((r) => plain(r[c]?.text ?? "").length * TEXT_CHAR_PX + 26)),
        );
        out.widest = Math.max(out.widest, Math.ceil(widths.reduce((a, b) => a + b, 0)));
        out.height += rows.length * ROW + GAP;
        break;
      }
      case "code": {
        const lines = (t as Tokens.Code).text.split("\n");
        const wide = Math.max(...lines.map((l) => l.length)) * CODE_CHAR_PX + 32;
        out.widest = Math.max(out.widest, Math.ceil(wide));
        out.height += lines.length * CODE_LINE + 32 + GAP;
        break;
      }
      default:
        out.height += linesOf(t.raw) * LINE + GAP;
    }
  }
  out.height = Math.round(out.height);
  return out;
}
