/**
 * The HTML report looked at in a real browser (Debian's Chromium through playwright-core,
 * test/helpers/chromium.ts) — the examples' reports made by the built CLI against `phctl
 * serve` (test/helpers/report-examples.ts), and the larger fixture with names that are
 * markup: it loads with no console error and no request but its own, every chart is drawn
 * with a size, a title and both axis labels, the findings tables have their rows, dark mode
 * turns the page dark, and it prints on A4. Then each of those reports and an M-like pair
 * (more users and projects than fold, made here: small enough to stay fast) is opened once
 * per colour scheme × width (1280, 390 px): axe-core finds no serious or critical violation,
 * the first screen is the decision, the page is never wider than the phone, each chart shows
 * one drawing (the wide one at 1280 px, the narrow one at 390) that fits the screen without
 * scrolling, with its title, axis labels and tick text of 9 px or more at both widths; no
 * number breaks across lines, the DORA band labels of the drawing shown neither overlap each
 * other nor the lines, and a screenshot is taken (written to $TMPDIR/phctl-report-shots/).
 * Printed, even from a phone, charts are their wide drawing. The M-like access review prints
 * on a few A4 pages. The time to load is printed
 * (bench/report-html.ts records it at size M); it is not asserted, a loaded CI machine is no
 * measure. Without Chromium this FAILS saying how to install it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderReportHtml } from "../../src/render/report-html.js";
import type { AccessReport } from "../../src/report/types.js";
import {
  axeSeriousOrCritical,
  chromiumMissing,
  launchChromium,
  openHtml,
} from "../helpers/chromium.js";
import { exampleReports, type ExampleReports } from "../helpers/report-examples.js";
import { accessFixture, deliveryFixture, EVIL } from "../helpers/report-fixture.js";

type Browser = Awaited<ReturnType<typeof launchChromium>>;

const SHOTS = join(tmpdir(), "phctl-report-shots");

/** In a page script: the drawings of chart figure f that are shown (one, unless something is wrong). */
const SHOWN = `const shown = (f) => [...f.querySelectorAll(".plot")].filter((p) => p.getClientRects().length);`;

/**
 * Each chart as the screen shows it: how many drawings are shown, which one, whether it
 * ends inside the screen and its box without scrolling, and the size its tick text is
 * drawn at (font size × the drawing's scale, the smallest tick label).
 */
const FIT_IN_PAGE = `(() => { ${SHOWN}
  const vw = document.documentElement.clientWidth;
  return [...document.querySelectorAll("figure.chart[data-chart]")].map((f) => {
    const plots = shown(f);
    const svg = plots[0]?.querySelector("svg[viewBox]");
    if (!svg) return { id: f.dataset.chart, shown: plots.length };
    const r = svg.getBoundingClientRect();
    const scale = r.width / svg.viewBox.baseVal.width;
    const ticks = [...svg.querySelectorAll('g[data-label$="-axis tick label"] text')];
    const px = Math.min(...ticks.map((t) => parseFloat(getComputedStyle(t).fontSize) * scale));
    return { id: f.dataset.chart, shown: plots.length, drawing: plots[0].dataset.drawing ?? null, ticks: ticks.length,
      inside: r.left >= -0.5 && r.right <= vw + 0.5 && r.right <= f.getBoundingClientRect().right + 0.5,
      scrolls: [plots[0], f].some((b) => b.scrollWidth > b.clientWidth + 0.5), tickPx: Math.round(px * 10) / 10 };
  });
})()`;

/** What a phone (or any width) shows: page width, split numbers, groups named without a role. */
const LAYOUT_IN_PAGE = `(() => {
  const split = [];
  for (const el of document.querySelectorAll("td.num, .count, .band, .sev")) {
    if (!el.getClientRects().length) continue; // folded away
    const range = document.createRange();
    for (const node of el.childNodes) {
      if (node.nodeType !== 3 || !/\\d/.test(node.textContent)) continue;
      range.selectNodeContents(node);
      const tops = new Set([...range.getClientRects()].map((q) => Math.round(q.top)));
      if (tops.size > 1) split.push(node.textContent);
    }
  }
  return { scrollWidth: document.scrollingElement.scrollWidth, split,
    unnamedGroups: document.querySelectorAll("g[aria-label]:not([role])").length };
})()`;

/** Per DORA chart, in the drawing shown: band labels that overlap each other, or reach into the plotted lines. */
const BAND_LABELS_IN_PAGE = `(() => { ${SHOWN} return [...document.querySelectorAll('figure.chart[data-chart^="dora-"]')].map((f) => {
  const [plot] = shown(f);
  const labels = [...plot.querySelectorAll('g.band-label text')].map((t) => t.getBoundingClientRect());
  const lines = [...plot.querySelectorAll('g[data-label="line"] path')].map((p) => p.getBoundingClientRect());
  const right = Math.max(...lines.map((r) => r.right));
  const overlaps = labels.filter((a, i) => labels.some((b, j) => j > i && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)).length;
  return { id: f.dataset.chart, drawing: plot.dataset.drawing, labels: labels.length, overlaps, onLines: labels.filter((r) => r.left < right).length };
}); })()`;

/** Where the decision is: the tops of the first-screen blocks and of what must come after. */
const ORDER_IN_PAGE = `(() => {
  const top = (sel) => { const e = document.querySelector(sel); return e ? e.getBoundingClientRect().top + scrollY : null; };
  return { decisions: top("[data-decisions]"), bandCounts: top('[data-table="dora-band-counts"]'), worst: top('[data-table="dora-worst"]'),
    chart: top("figure.chart"), findingRows: top('[data-table^="finding-"]'), projects: top('[data-table="dora-projects"], [data-project]') };
})()`;

/** Each chart's id and, in the drawing shown: its size, caption, image name, axis labels and number of drawn shapes. */
const CHARTS_IN_PAGE = `(() => { ${SHOWN} return [...document.querySelectorAll("figure.chart[data-chart]")].map((f) => {
  const svg = shown(f)[0]?.querySelector("svg[viewBox]");
  const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
  const label = (a) => svg?.querySelector('g[data-label="' + a + '-axis label"] text')?.textContent ?? "";
  return { id: f.dataset.chart, width: box.width, height: box.height, title: f.querySelector("figcaption")?.textContent ?? "",
    image: svg?.getAttribute("role") + " " + svg?.getAttribute("aria-label"),
    x: label("x"), y: label("y"), shapes: svg ? svg.querySelectorAll("rect, path, circle, line").length : 0 };
}); })()`;

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

  /** Every chart in `charts` is drawn, in the drawing shown, with a size, its title as caption and image name, both axis labels. */
  async function expectDrawn(page: Awaited<ReturnType<typeof openHtml>>["page"], charts: string[]) {
    const drawn = await page.evaluate<Array<Record<string, string | number>>>(CHARTS_IN_PAGE);
    expect(drawn.map((c) => c.id)).toEqual(charts);
    for (const c of drawn) {
      expect(c.width, `${c.id} width`).toBeGreaterThan(200);
      expect(c.height, `${c.id} height`).toBeGreaterThan(80);
      expect(c.title, `${c.id} title`).toMatch(/\w{4}/);
      expect(c.image, `${c.id} image`).toBe(`img ${c.title}`);
      expect(c.x, `${c.id} x label`).toMatch(/\w{3}/);
      expect(c.y, `${c.id} y label`).toMatch(/\w{3}/);
      expect(c.shapes, `${c.id} shapes`).toBeGreaterThan(5);
    }
  }

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
      await expectDrawn(page, charts);
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

  describe("axe, both colour schemes, 1280 and 390 px, screenshots", () => {
    const mAccess = () => accessFixture({ users: 120, projects: 60, rowsPerProject: 12, seed: 3 });
    const mDelivery = () => deliveryFixture({ projects: 60, seed: 4 });
    const pages: Array<[string, string, () => string]> = [
      ["examples-access", "access", () => examples.access.html],
      ["examples-delivery", "delivery", () => examples.delivery.html],
      ["m-like-access", "access", () => renderReportHtml(mAccess())],
      ["m-like-delivery", "delivery", () => renderReportHtml(mDelivery())],
    ];
    for (const [name, kind, html] of pages)
      for (const scheme of ["light", "dark"] as const)
        for (const width of [1280, 390])
          it(`${name}, ${scheme}, ${width} px: no serious or critical axe violation; fits; decision first`, async () => {
            const { page } = await openHtml(context(), html(), undefined, { width, colorScheme: scheme }); // prettier-ignore
            mkdirSync(SHOTS, { recursive: true });
            const shot = await page.screenshot();
            writeFileSync(join(SHOTS, `${name}-${scheme}-${width}.png`), shot);
            expect(shot.subarray(1, 4).toString()).toBe("PNG");
            const layout = await page.evaluate<{ scrollWidth: number; split: string[]; unnamedGroups: number }>(LAYOUT_IN_PAGE); // prettier-ignore
            expect(layout.scrollWidth, "page width").toBeLessThanOrEqual(width);
            // each chart: one drawing shown, the phone's on the phone, inside the screen, legible there
            await expectDrawn(page, kind === "access" ? ACCESS_CHARTS : DELIVERY_CHARTS);
            const drawing = width === 390 ? "narrow" : "wide";
            const fit = await page.evaluate<Array<Record<string, unknown>>>(FIT_IN_PAGE);
            console.log(`report-html ${name} ${scheme} ${width} px: smallest chart tick text ${Math.min(...fit.map((c) => Number(c.tickPx)))} px`); // prettier-ignore
            for (const c of fit) {
              expect(c, String(c.id)).toMatchObject({ shown: 1, drawing, inside: true, scrolls: false }); // prettier-ignore
              expect(c.ticks, `${String(c.id)} tick labels`).toBeGreaterThan(1);
              expect(c.tickPx, `${String(c.id)} tick text, px`).toBeGreaterThanOrEqual(9); // prettier-ignore
            }
            expect(layout.split, "numbers split across lines").toEqual([]);
            expect(layout.unnamedGroups, "aria-label on <g> without a role").toBe(0);
            const at = await page.evaluate<Record<string, number | null>>(ORDER_IN_PAGE);
            const firstScreen = kind === "access" ? [at.decisions] : [at.bandCounts, at.worst];
            for (const y of firstScreen) {
              expect(y, "first-screen block").not.toBeNull();
              if (width === 1280) expect(y!, "on the first screen").toBeLessThan(900);
              expect(y!, "before the charts").toBeLessThan(at.chart!);
            }
            expect(at.chart!, "charts before the long tables").toBeLessThan((kind === "access" ? at.findingRows : at.projects) ?? Infinity); // prettier-ignore
            if (kind === "delivery") {
              const bands = await page.evaluate<Array<Record<string, number | string>>>(BAND_LABELS_IN_PAGE); // prettier-ignore
              for (const b of bands) expect(b, String(b.id)).toMatchObject({ drawing, overlaps: 0, onLines: 0 }); // prettier-ignore
              expect(bands.some((b) => Number(b.labels) >= 2)).toBe(true);
            }
            expect(await axeSeriousOrCritical(page)).toEqual([]);
            await page.close();
          }, 120_000);

    it("printed, even from a phone, every chart is its wide drawing", async () => {
      const { page } = await openHtml(context(), renderReportHtml(mDelivery()), undefined, { width: 390 }); // prettier-ignore
      await page.emulateMedia({ media: "print" });
      const fit = await page.evaluate<Array<Record<string, unknown>>>(FIT_IN_PAGE);
      expect(fit.length).toBe(DELIVERY_CHARTS.length);
      for (const c of fit) expect(c, String(c.id)).toMatchObject({ shown: 1, drawing: "wide" });
      await page.close();
    }, 120_000);

    it("the M-like access review prints its findings on a few A4 pages; a user's anchor opens its fold", async () => {
      const r = mAccess();
      const { page } = await openHtml(context(), renderReportHtml(r));
      const pdf = await page.pdf({ format: "A4", printBackground: true });
      const pages = (pdf.toString("latin1").match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;
      console.log(`report-html m-like access review: ${pages} A4 pages`);
      expect(pages).toBeGreaterThan(0);
      expect(pages).toBeLessThanOrEqual(6);
      const user = r.users[r.users.length - 1].username;
      const opened = await page.evaluate(`(() => { const id = [...document.querySelectorAll("tr[id]")].find((tr) => tr.cells[0].textContent === ${JSON.stringify(user)})?.id;
        location.hash = id; return { id, open: document.getElementById(id)?.closest("details")?.open ?? null }; })()`); // prettier-ignore
      expect(opened).toMatchObject({ open: true });
      await page.close();
    }, 120_000);
  });
});
