/**
 * The page around a report: one HTML file that needs nothing else. No script (a
 * Content-Security-Policy forbids scripts and every request, so even a mistake cannot make
 * the file fetch or run anything), the styles inline, light and dark colours by
 * `prefers-color-scheme`, and print rules for A4 (tables repeat their heading row, charts
 * and rows are not cut across pages, colours are the light ones on paper, folded tables are
 * left out: the print is the findings). Wide tables scroll sideways in their own focusable
 * box, so the page is never wider than a phone's screen; charts fit it: a phone shows each
 * chart's narrow drawing (charts.ts), other screens and paper its wide one. Numbers never
 * break across lines. Sections off screen are laid out when scrolled to (content-visibility): the access review's tables at
 * size M load in a third of the time; printing lays out everything.
 */
import { NARROW_CHART_WIDTH, NARROW_SCREEN } from "./charts.js";
import { h, raw, type Html } from "./html.js";

const CSS = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--head:#f6f8fa;--link:#0969da;--warn-bg:#fff8c5;--warn-line:#d4a72c}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--head:#151b23;--link:#4493f8;--warn-bg:#3b2e0a;--warn-line:#9e6a03}}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg);max-width:1200px;margin:0 auto;padding:24px}
@media (max-width:600px){body{padding:12px}}
main>section{content-visibility:auto;contain-intrinsic-size:auto 1200px}
h1{font-size:24px;margin:0 0 4px}h2{font-size:19px;margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}h3{font-size:15px;margin:18px 0 6px}
a{color:var(--link)}code{font-size:12px;background:var(--head);padding:1px 4px;border-radius:4px}
.meta{color:var(--muted);margin:0 0 12px}.meta span+span::before{content:" · "}
nav ul{display:flex;flex-wrap:wrap;gap:4px 16px;list-style:none;padding:0;margin:8px 0}
table{border-collapse:collapse;width:100%;font-size:13px;margin:6px 0 14px}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:normal}
th{background:var(--head);font-weight:600}.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.scroll{overflow-x:auto;max-width:100%}.scroll:focus-visible{outline:2px solid var(--link);outline-offset:2px}
.count,.band,.sev{white-space:nowrap;font-variant-numeric:tabular-nums}
tr.empty td{color:var(--muted);font-style:italic}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(520px,100%),1fr));gap:16px;margin:8px 0 16px}
figure.chart{margin:0;border:1px solid var(--line);border-radius:6px;padding:12px;break-inside:avoid}
figure.chart svg{--plot-background:var(--bg)}.plot svg[viewBox]{width:100%;height:auto}
.plot-narrow{display:none}.plot-narrow svg[viewBox]{max-width:${Math.round(NARROW_CHART_WIDTH * 1.4)}px}
@media screen and (max-width:${NARROW_SCREEN}px){.plot-wide{display:none}.plot-narrow{display:block}}
figure.chart figure{margin:0}
figcaption{font-weight:600;margin-bottom:6px}
.note{color:var(--muted);font-size:12px;margin:4px 0 0}.nodata{color:var(--muted);font-style:italic}.ok{color:var(--muted)}
.count{display:inline-block;min-width:1.6em;padding:0 6px;border-radius:10px;background:var(--head);border:1px solid var(--line);font-size:12px;text-align:center}
.finding.has-rows .count,.count.has-rows{background:#a40e26;border-color:#a40e26;color:#fff}
.band,.sev{display:inline-block;padding:0 6px;border-radius:9px;font-size:11px;font-weight:600;color:#fff}
.band-elite{background:#00795a}.band-high{background:#0072b2}.band-medium{background:#e69f00;color:#1f2328}.band-low{background:#b34700}
.sev{text-transform:uppercase;letter-spacing:.03em;border:1px solid transparent}.sev-high{background:#a40e26}.sev-medium{background:#e69f00;color:#1f2328}.sev-low{background:var(--head);color:var(--fg);border-color:var(--line)}
.decisions{list-style:none;padding:0;margin:8px 0}.decision{border:1px solid var(--line);border-radius:6px;padding:6px 12px;margin:6px 0}
.decision[data-severity=high]{border-left:4px solid #a40e26}.decision[data-severity=medium]{border-left:4px solid #e69f00}
.nothing-found{padding:6px 12px;margin:6px 0;color:var(--muted)}.nothing-found strong{color:var(--fg);font-weight:600}
.decision-head,.decision>p{margin:2px 0}.top{margin:4px 0;padding-left:22px}.why,.facts{color:var(--muted)}.level{font-size:12px;background:var(--head);padding:0 4px;border-radius:4px}
details{border:1px solid var(--line);border-radius:6px;margin:4px 0;padding:0 8px}summary{cursor:pointer;padding:4px 0}details[open]>summary{border-bottom:1px solid var(--line);margin-bottom:4px}
.print-only{display:none}
.failed{background:var(--warn-bg);border:1px solid var(--warn-line);padding:8px 12px;border-radius:6px;margin:8px 0}
@media print{
@page{size:A4;margin:14mm 12mm}
main>section{content-visibility:visible}
:root{--bg:#fff;--fg:#000;--muted:#444;--line:#bbb;--head:#eee;--link:#000;--warn-bg:#fff8c5;--warn-line:#d4a72c}
body{max-width:none;padding:0;font-size:10pt}nav{display:none}
.charts{display:block}figure.chart{margin:0 0 10px}.scroll{overflow:visible}
.folded{display:none}.print-only{display:block;color:var(--muted)}
thead{display:table-header-group}tr,.failed{break-inside:avoid}h2,h3{break-after:avoid}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
}`;

/** What a page is made of. */
export interface Page {
  title: string;
  /** One line of facts under the title (when, which service, …). */
  meta: string[];
  /** Links to the sections: [id, heading]. */
  nav: Array<[string, string]>;
  body: Html;
}

/** The whole document. */
export function page(p: Page): string {
  return h`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta
          http-equiv="Content-Security-Policy"
          content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"
        />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="generator" content="phctl" />
        <title>${p.title}</title>
        <style>
          ${raw(CSS)}
        </style>
      </head>
      <body>
        <header>
          <h1>${p.title}</h1>
          <p class="meta">${p.meta.map((m) => h`<span>${m}</span>`)}</p>
          <nav>
            <ul>
              ${p.nav.map(([id, t]) => h`<li><a href="#${id}">${t}</a></li>`)}
            </ul>
          </nav>
        </header>
        <main>${p.body}</main>
      </body>
    </html> `.text;
}
