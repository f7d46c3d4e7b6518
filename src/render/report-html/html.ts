/**
 * HTML built by a tagged template that escapes every interpolated value unless it is
 * already `Html`: names in a report are user data (usernames, project slugs, team paths,
 * error lines), so escaping is the default and trusting is the exception, spelled `raw()`.
 */
import { escapeHidden } from "../../visible.js";

/** A piece of HTML that is already safe to place as is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Text as HTML: the five special characters as entities, and hidden characters (bidi,
 * zero-width, controls) as visible `\uXXXX` so that no name can disguise what a reviewer
 * reads (src/visible.ts).
 */
export function escapeHtml(s: string): string {
  return escapeHidden(s).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Trust `s` as HTML (only for markup made here or by the chart library). */
export const raw = (s: string): Html => new Html(s);

/** What a template takes: text and numbers (escaped), Html, lists of them, or nothing. */
export type Part = Html | string | number | boolean | null | undefined | readonly Part[];

/** One interpolated value: Html as is, lists joined, nothing for null/undefined/false. */
function part(v: Part): string {
  if (v instanceof Html) return v.text;
  if (v === null || v === undefined || v === false) return "";
  if (Array.isArray(v)) return (v as readonly Part[]).map(part).join("");
  return escapeHtml(String(v));
}

/** The template's text with each value escaped (see `part`). */
export function h(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1];
  return new Html(out);
}

/** A column of a table: its heading and how a row shows in it. */
export interface Column<T> {
  head: string;
  cell: (row: T) => Part;
  /** Numbers align right. */
  numeric?: boolean;
}

/** How a table is shown: its label for screen readers, and an anchor per row. */
export interface TableOptions<T> {
  /** What the table holds, for people (its scroll box's label); default: its name. */
  label?: string;
  /** The id of a row's `<tr>` (an anchor: a user, a project), or undefined for none. */
  rowId?: (row: T) => string | undefined;
}

/**
 * A table with a heading row (repeated on each printed page) and one row per item;
 * `name` names it for tests and links (`data-table`). An empty list says so in one row.
 * The table sits in a box that scrolls sideways when it is wider than the screen (a phone):
 * the box is focusable and labelled so that it can be scrolled with the keyboard, and the
 * page itself never gets wider than the screen.
 */
export function table<T>(
  name: string,
  columns: Column<T>[],
  rows: readonly T[],
  o: TableOptions<T> = {},
): Html {
  const cls = (c: Column<T>) => (c.numeric ? raw(' class="num"') : "");
  const id = (r: T) => {
    const v = o.rowId?.(r);
    return v === undefined ? "" : h` id="${v}"`;
  };
  // One line per row: a large table's indentation would be a good part of the file.
  const row = (r: T) => h`<tr${id(r)}>${columns.map((c) => h`<td${cls(c)}>${c.cell(r)}</td>`)}</tr>\n`; // prettier-ignore
  const body = rows.length
    ? rows.map(row)
    : h`<tr class="empty"><td colspan="${columns.length}">none</td></tr>`;
  return h`<div class="scroll" tabindex="0" role="group" aria-label="${o.label ?? name.replace(/-/g, " ")}"><table data-table="${name}">
    <thead><tr>${columns.map((c) => h`<th${cls(c)}>${c.head}</th>`)}</tr></thead>
    <tbody>${body}</tbody>
  </table></div>`;
}

/** Tables longer than this are folded (`<details>` closed) and left out of print. */
export const FOLD_ROWS = 50;

/**
 * A foldable block (`<details>`: works without script). A folded block is closed and is
 * left out of print (the print is the findings; the file has everything: `notPrinted`
 * says so on paper).
 */
export function fold(
  summary: Part,
  body: Part,
  o: { open: boolean; id?: string; attrs?: Html },
): Html {
  const id = o.id === undefined ? "" : h` id="${o.id}"`;
  const state = o.open ? raw(" open") : raw(' class="folded"');
  return h`<details${id}${state}${o.attrs ?? ""}><summary>${summary}</summary>${body}</details>`;
}

/** Where folded rows are left out of print: how many, and that the file has them. */
export const notPrinted = (rows: number, what: string): Html =>
  h`<p class="print-only">${what}: ${rows.toLocaleString("en-US")} rows in the HTML file, not printed.</p>`; // prettier-ignore
