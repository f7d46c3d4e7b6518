/**
 * Charts of the HTML report, drawn at generation time as inline SVG, twice: 560 px wide for
 * screens and paper, 340 px wide for a phone (page.ts shows one of them), so that a chart
 * fits a 390 px screen with its 11 px text still 11 px, fewer ticks and shorter names.
 *
 * Library: Observable Plot (+ linkedom as its document). Plot renders in Node given any DOM
 * `document` and needs no canvas and no browser; it is maintained by Observable on top of
 * d3, runs on Node ≥ 12, adds ~16 MB of plain-JS packages (d3's modules, linkedom's HTML
 * parser), draws axes, axis labels and legends itself, and is deterministic (no random ids,
 * no clock, no text measurement). Its text, axes and grid are `currentColor`, so the page's
 * light and dark colours (prefers-color-scheme) apply to charts drawn once. Weighed against:
 * Vega-Lite (its current 6.x requires Node ≥ 22; ~25 MB of ~75 packages; text widths
 * estimated without canvas) and ECharts SSR (a single dependency but ~67 MB installed, and
 * colours written into the SVG, so dark mode would mean a second drawing).
 */
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { h, raw, type Html } from "./html.js";

/**
 * Width of the wide drawing, for screens and print: a chart's box in the two-column grid of
 * a 1280 px screen (about 540 px), so that its 11 px text stays about 11 px there; on A4 it
 * grows to the text width.
 */
export const CHART_WIDTH = 560;
/**
 * Width of the narrow drawing, shown instead on a phone: a 390 px screen's chart box (the
 * page's and the figure's padding taken off), so that its 11 px text is 11 px there, and
 * Plot, given less room, draws fewer ticks.
 */
export const NARROW_CHART_WIDTH = 340;
/**
 * Screens at most this wide (CSS px) show the narrow drawing: narrower, the wide drawing's
 * 11 px text would shrink below 9 px in its box. Print always shows the wide one.
 */
export const NARROW_SCREEN = 660;

/** What a chart draws at one width: axes, colours, marks, size and margins. */
export interface Drawing {
  x: Plot.ScaleOptions & { label: string };
  y: Plot.ScaleOptions & { label: string };
  color?: Plot.ScaleOptions;
  marks: Plot.Markish[];
  height?: number;
  marginLeft?: number;
  marginBottom?: number;
  marginTop?: number;
  marginRight?: number;
}

/**
 * One chart: a stable id (for tests and links), its title, and its drawing; `narrow` says
 * what the narrow drawing does differently (shorter tick labels or names, a smaller
 * margin), the same marks of the same data otherwise.
 */
export interface ChartSpec extends Drawing {
  id: string;
  title: string;
  /** One sentence under the title: what is drawn and from what. */
  note?: string;
  narrow?: Partial<Drawing>;
}

/**
 * Coordinates rounded to 0.1 px in geometry attributes (Plot writes full doubles): a third
 * of the SVG's bytes, invisible on screen and paper. Text content is left alone.
 */
function roundGeometry(svg: string): string {
  return svg.replace(
    /(\s(?:d|x|y|x1|x2|y1|y2|cx|cy|r|width|height|transform|points)=")([^"]*)"/g,
    (_, head: string, value: string) =>
      `${head}${value.replace(/-?\d+\.\d{2,}/g, (n) => String(Math.round(Number(n) * 10) / 10))}"`,
  );
}

/**
 * Plot's SVG made accessible: the chart is one image named by its title (`role="img"` on
 * the `<svg>` that carries the `aria-label`), and the names Plot gives its `<g>` groups
 * (`aria-label="x-axis label"`, not allowed on an element without a role) are kept as
 * `data-label` for tests and tools.
 */
export function accessibleSvg(svg: string): string {
  return svg
    .replace(/<svg\b(?=[^>]*\saria-label=)/g, '<svg role="img"')
    .replace(/(<g\b[^>]*?)\saria-label="/g, '$1 data-label="');
}

/** One drawing of a chart as accessible SVG (Plot's figure when it has a legend). */
function draw(d: Drawing, title: string, width: number): Html {
  const { document } = parseHTML("<!doctype html><html><body></body></html>");
  const drawn = Plot.plot({
    // linkedom's document stands in for the DOM's (the project's types have no DOM lib).
    document: document as never,
    width,
    height: d.height ?? 260,
    ...(d.marginLeft === undefined ? {} : { marginLeft: d.marginLeft }),
    ...(d.marginBottom === undefined ? {} : { marginBottom: d.marginBottom }),
    ...(d.marginTop === undefined ? {} : { marginTop: d.marginTop }),
    ...(d.marginRight === undefined ? {} : { marginRight: d.marginRight }),
    ariaLabel: title,
    style: { fontSize: "11px" },
    x: d.x,
    y: d.y,
    ...(d.color ? { color: d.color } : {}),
    marks: d.marks,
  });
  return raw(accessibleSvg(roundGeometry(drawn.outerHTML)));
}

/**
 * The chart as a `<figure>`: title as its caption, the two drawings, the note. The page
 * (page.ts) shows one of them: the narrow one on a phone, the wide one elsewhere and on
 * paper; the other is `display:none`, so a screen reader meets one image named by the title.
 */
export function chart(spec: ChartSpec): Html {
  const narrow: Drawing = { ...spec, ...spec.narrow };
  return h`<figure class="chart" data-chart="${spec.id}">
    <figcaption>${spec.title}</figcaption>
    <div class="plot plot-wide" data-drawing="wide">${draw(spec, spec.title, CHART_WIDTH)}</div>
    <div class="plot plot-narrow" data-drawing="narrow">${draw(narrow, spec.title, NARROW_CHART_WIDTH)}</div>${spec.note ? h`<p class="note">${spec.note}</p>` : ""}
  </figure>`;
}

/** Where a chart would be when there is nothing to draw. */
export const noChart = (id: string, title: string, why: string): Html =>
  h`<figure class="chart no-data" data-chart-missing="${id}">
    <figcaption>${title}</figcaption>
    <p class="nodata">no data: ${why}</p>
  </figure>`;

/** A day `yyyy-MM-dd` as a UTC date for Plot's time scales. */
export const day = (d: string): Date => new Date(`${d}T00:00:00Z`);

/** A label cut to `max` characters for an axis (the full name is in the table). */
export const axisName = (s: string, max = 28): string =>
  s.length <= max ? s : `${s.slice(0, max - 1)}…`;

/** Left margin that fits the longest of `labels` (Plot's 11 px text ≈ 6.5 px a character). */
export const marginFor = (labels: readonly string[]): number =>
  Math.min(220, 20 + 6.5 * Math.max(4, ...labels.map((l) => l.length)));
