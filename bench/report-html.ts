/**
 * The HTML report at size M (2,000 users, 500 projects, ~7,000 principal × project rows; the
 * delivery metrics of 500 projects): its size (target ≤ 5 MB), the time to render it
 * (renderReportHtml) and the time Chromium takes to load it (navigation start to the load
 * event; target ≤ 2 s), and axe-core's serious and critical violations at size M in both
 * colour schemes, 1280 and 390 px wide (target 0; the browser test checks the examples and a
 * smaller M-like pair on every run). The data is test/helpers/report-fixture.ts's,
 * deterministic; the results go to bench/results.md (section report-html). `npm run
 * bench:report-html`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { renderReportHtml } from "../src/render/report-html.js";
import { axeSeriousOrCritical, launchChromium, openHtml } from "../test/helpers/chromium.js";
import { accessFixture, deliveryFixture } from "../test/helpers/report-fixture.js";

const RESULTS = join(import.meta.dirname, "results.md");
const TRIALS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const reports = {
  access: accessFixture({ users: 2_000, projects: 500, rowsPerProject: 14 }),
  delivery: deliveryFixture({ projects: 500 }),
};
const browser = await launchChromium({ width: 1280 });
const rows: string[] = [];
try {
  for (const [name, report] of Object.entries(reports)) {
    const render: number[] = [];
    const load: number[] = [];
    let html = "";
    for (let i = 0; i < TRIALS; i++) {
      const t0 = performance.now();
      html = renderReportHtml(report);
      render.push(performance.now() - t0);
      const { page, opened } = await openHtml(browser.context, html);
      if (opened.requests.length || opened.consoleErrors.length) throw new Error(`${name}: requests or console errors`); // prettier-ignore
      load.push(opened.loadMs);
      await page.close();
    }
    const mb = Buffer.byteLength(html) / 1024 / 1024;
    const axe: string[] = [];
    for (const colorScheme of ["light", "dark"] as const)
      for (const width of [1280, 390]) {
        const { page } = await openHtml(browser.context, html, undefined, { width, colorScheme });
        const found = await axeSeriousOrCritical(page);
        axe.push(`${colorScheme} ${width}: ${found.length ? found.join("; ") : "0"}`);
        await page.close();
      }
    const clean = axe.every((a) => a.endsWith(": 0"));
    const ok = mb <= 5 && median(load) <= 2_000 && clean ? "yes" : "NO";
    rows.push(`| ${name} | ${mb.toFixed(2)} MB | ${median(render).toFixed(0)} ms | ${median(load).toFixed(0)} ms | ${clean ? "0 in all four" : axe.join(", ")} | ${ok} |`); // prettier-ignore
    console.log(rows.at(-1));
  }
} finally {
  await browser.close();
}
const section = `<!-- begin report-html -->
## HTML report at size M

\`bench/report-html.ts\`: the HTML report of size-M data (2,000 users, 500 projects, 7,000 principal × project rows; DORA and CI of 500 projects over 90 days), median of ${TRIALS}. Render: \`renderReportHtml\` in Node (charts drawn by Observable Plot); load: Chromium (Debian's, headless, 1280 px) from navigation start to the load event; axe: axe-core's serious and critical violations, light and dark, 1280 and 390 px. Targets: ≤ 5 MB, ≤ 2 s, no serious or critical violation.

| report | size | render (Node) | load (Chromium) | axe serious + critical | within targets |
| ------ | ---: | ------------: | --------------: | ---------------------- | -------------- |
${rows.join("\n")}

Run ${new Date().toISOString().slice(0, 16)}Z on ${cpus()[0]?.model ?? "?"}, ${cpus().length} cores, Node ${process.version}.
<!-- end report-html -->`;
const old = readFileSync(RESULTS, "utf8");
const re = /<!-- begin report-html -->[\s\S]*?<!-- end report-html -->/;
writeFileSync(
  RESULTS,
  re.test(old) ? old.replace(re, section) : `${old.trimEnd()}\n\n${section}\n`,
);
