/**
 * docs/report-example.png: the examples' delivery report (test/helpers/report-examples.ts:
 * the built CLI against `phctl serve` holding examples/ and synthetic activity) as Chromium
 * shows it 1280 px wide, light colours, its first screens (DORA, then CI). `npm run
 * screenshot`; the README's "Reports" section shows it.
 */
import { join } from "node:path";
import { launchChromium, openHtml } from "../test/helpers/chromium.js";
import { exampleReports } from "../test/helpers/report-examples.js";

const OUT = join(import.meta.dirname, "../docs/report-example.png");
const HEIGHT = 1_700;

const { delivery } = await exampleReports();
const browser = await launchChromium({ width: 1280, height: HEIGHT, colorScheme: "light" });
try {
  const { page, opened } = await openHtml(browser.context, delivery.html);
  if (opened.requests.length || opened.consoleErrors.length)
    throw new Error(`the report asked for ${opened.requests.join(", ")} ${opened.consoleErrors.join("; ")}`); // prettier-ignore
  await page.screenshot({ path: OUT, clip: { x: 0, y: 0, width: 1280, height: HEIGHT } });
  console.log(`wrote ${OUT} (1280 × ${HEIGHT})`);
} finally {
  await browser.close();
}
