/**
 * The HTML report looked at in a real browser (Debian's Chromium through playwright-core,
 * test/helpers/chromium.ts) — the examples' reports made by the built CLI against `phctl
 * serve` (test/helpers/report-examples.ts), and the larger fixture with names that are
 * markup: it loads with no console error and no request but its own, every chart is drawn
 * with a size, a title and both axis labels, the findings tables have their rows, dark mode
 * turns the page dark, and it prints on A4. The time to load is printed
 * (bench/report-html.ts records it at size M); it is not asserted, a loaded CI machine is no
 * measure. Without Chromium this FAILS saying how to install it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderReportHtml } from "../../src/render/report-html.js";
import type { AccessReport } from "../../src/report/types.js";
import { chromiumMissing, launchChromium, openHtml } from "../helpers/chromium.js";
import { exampleReports, type ExampleReports } from "../helpers/report-examples.js";
import { accessFixture, deliveryFixture, EVIL } from "../helpers/report-fixture.js";

type Browser = Awaited<ReturnType<typeof launchChromium>>;

/** Each chart's id, drawn size, caption, axis labels and number of drawn shapes. */
const CHARTS_IN_PAGE = `[...document.querySelectorAll("figure.chart[data-chart]")].map((f) => {
  const svg = f.querySelector(":scope > svg, :scope > figure > svg");
  const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
  const label = (a) => f.querySelector('g[aria-label="' + a + '-axis label"] text')?.textContent ?? "";
  return { id: f.dataset.chart, width: box.width, height: box.height, title: f.querySelector("figcaption")?.textContent ?? "",
    x: label("x"), y: label("y"), shapes: svg ? svg.querySelectorAll("rect, path, circle, line").length : 0 };
})`;

describe("the HTML report in Chromium", () => {
  let browser: Browser | undefined;
  let examples: ExampleReports;
  beforeAll(async () => {
    examples = await exampleReports();
    if (!chromiumMissing()) browser = await launchChromium({ width: 1280 });
  }, 90_000);
  afterAll(async () => browser?.close());
  /** The browser's context; each test fails on its own, naming the install, without one. */
  const context = () => {
    if (!browser) throw new Error(chromiumMissing() ?? "Chromium did not start");
    return browser.context;
  };

  const ACCESS_CHARTS = ["access-last-login", "access-grants"];
  const DELIVERY_CHARTS = ["dora-deployment-frequency", "dora-lead-time-for-changes", "dora-time-to-restore-service", "dora-change-failure-rate", "ci-pipelines-per-day", "ci-success-rate", "ci-duration-per-day", "ci-slowest-projects", "ci-least-reliable", "usage-users"]; // prettier-ignore
  const fixtures = { access: accessFixture(), delivery: deliveryFixture() };
  const cases: Array<[string, () => string, string[]]> = [
    ["the examples' access review (CLI)", () => examples.access.html, ACCESS_CHARTS],
    ["the examples' delivery metrics (CLI)", () => examples.delivery.html, DELIVERY_CHARTS],
    ["the fixture's access review", () => renderReportHtml(fixtures.access), ACCESS_CHARTS],
    ["the fixture's delivery metrics", () => renderReportHtml(fixtures.delivery), DELIVERY_CHARTS],
  ];

  for (const [name, html, charts] of cases)
    it(`${name}: loads alone, draws every chart with its title and axis labels`, async () => {
      const { page, opened } = await openHtml(context(), html());
      console.log(`report-html ${name}: loaded in ${opened.loadMs.toFixed(0)} ms`);
      expect(opened.consoleErrors).toEqual([]);
      expect(opened.requests).toEqual([]);
      const drawn = await page.evaluate<Array<Record<string, string | number>>>(CHARTS_IN_PAGE);
      expect(drawn.map((c) => c.id)).toEqual(charts);
      for (const c of drawn) {
        expect(c.width, `${c.id} width`).toBeGreaterThan(200);
        expect(c.height, `${c.id} height`).toBeGreaterThan(80);
        expect(c.title, `${c.id} title`).toMatch(/\w{4}/);
        expect(c.x, `${c.id} x label`).toMatch(/\w{3}/);
        expect(c.y, `${c.id} y label`).toMatch(/\w{3}/);
        expect(c.shapes, `${c.id} shapes`).toBeGreaterThan(5);
      }
      await page.close();
    });

  /** Each finding's table has the finding's rows, first cell first. */
  async function expectFindings(html: string, report: AccessReport) {
    const { page } = await openHtml(context(), html);
    for (const f of report.findings) {
      const rows = page.locator(`[data-table="finding-${f.id}"] tbody tr`);
      expect(await rows.count(), f.id).toBe(f.rows.length);
      if (f.rows.length) expect(await rows.first().locator("td").first().textContent()).toBe(f.rows[0].principal ?? f.rows[0].project); // prettier-ignore
    }
    return page;
  }

  it("the examples' access review: each finding's table has its rows", async () => {
    const { report, html } = examples.access;
    expect(report.findings.some((f) => f.rows.length > 0)).toBe(true);
    await (await expectFindings(html, report)).close();
  });

  it("the fixture's access review: findings rows; a name that is markup shows as text", async () => {
    const page = await expectFindings(renderReportHtml(fixtures.access), fixtures.access);
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.getByText(EVIL, { exact: true }).count()).toBeGreaterThan(0);
    await page.close();
  });

  it("the request guard is live: a page that fetches is caught", async () => {
    const { page, opened } = await openHtml(context(), `<!doctype html><img src="http://elsewhere.invalid/x.png">`); // prettier-ignore
    expect(opened.requests).toEqual(["http://elsewhere.invalid/x.png"]);
    await page.close();
  });

  it("dark mode by prefers-color-scheme; prints on A4", async () => {
    const { page } = await openHtml(context(), examples.delivery.html);
    const bg = () => page.evaluate("getComputedStyle(document.body).backgroundColor");
    expect(await bg()).toBe("rgb(255, 255, 255)");
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await bg()).toBe("rgb(13, 17, 23)");
    const pdf = await page.pdf({ format: "A4", printBackground: true });
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    // A4 pages: 595 × 842 points
    expect(pdf.toString("latin1")).toMatch(/\/MediaBox \[0 0 595\.\d+ 842\.\d+\]/);
    await page.close();
  });
});
