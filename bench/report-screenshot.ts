/**
 * The first screen of each report as Chromium shows it 1280 px wide, light colours: the
 * examples' reports (test/helpers/report-examples.ts: the built CLI against `phctl serve`
 * holding examples/ and synthetic activity). docs/report-example.png is the delivery
 * metrics (the organizations' DORA metrics, projects per band, the worst projects),
 * docs/report-access-example.png the access review (each finding that has rows or changed,
 * by severity with its top offenders, then one line naming the checks that found nothing). `npm run screenshot`; the README's "Reports" section shows both.
 */
import { join } from "node:path";
import { launchChromium, openHtml } from "../test/helpers/chromium.js";
import { exampleReports } from "../test/helpers/report-examples.js";

const DOCS = join(import.meta.dirname, "../docs");
const [WIDTH, HEIGHT] = [1280, 960];

const { access, delivery } = await exampleReports();
const browser = await launchChromium({ width: WIDTH, height: HEIGHT, colorScheme: "light" });
try {
  for (const [file, html] of [
    ["report-example.png", delivery.html],
    ["report-access-example.png", access.html],
  ] as const) {
    const { page, opened } = await openHtml(browser.context, html);
    if (opened.requests.length || opened.consoleErrors.length)
      throw new Error(`the report asked for ${opened.requests.join(", ")} ${opened.consoleErrors.join("; ")}`); // prettier-ignore
    await page.screenshot({ path: join(DOCS, file), clip: { x: 0, y: 0, width: WIDTH, height: HEIGHT } }); // prettier-ignore
    console.log(`wrote docs/${file} (${WIDTH} × ${HEIGHT})`);
    await page.close();
  }
} finally {
  await browser.close();
}
