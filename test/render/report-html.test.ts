/**
 * The HTML report (src/render/report-html.ts) as a pure function of report data: every
 * name escaped, nothing that runs or fetches, the same file for the same data, "no data"
 * instead of zeros, a failed section named with what to set, each chart with its title and
 * axis labels, and the size-M file within 5 MB. tests/render/report-browser.test.ts opens
 * it in Chromium.
 */
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { renderReportHtml } from "../../src/render/report-html.js";
import { projectId, userId } from "../../src/render/report-html/anchors.js";
import {
  BAND_COLORS,
  OUTCOME_COLORS,
  bandLabels,
} from "../../src/render/report-html/delivery-charts.js";
import { FINDING_SEVERITY, SEVERITIES, bySeverity } from "../../src/report/finding-severity.js";
import { FINDING_IDS } from "../../src/report/types.js";
import type { AccessReport, DeliveryReport } from "../../src/report/types.js";
import { accessFixture, deliveryFixture, EVIL } from "../helpers/report-fixture.js";

const dom = (s: string) => parseHTML(s).document;
const texts = (d: ReturnType<typeof dom>, sel: string) =>
  [...d.querySelectorAll(sel)].map((e) => (e.textContent ?? "").trim());

/** WCAG's relative luminance and contrast ratio of two `#rrggbb` colours. */
const linear = (hex: string) => hex.slice(1).match(/../g)!.map((x) => parseInt(x, 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)); // prettier-ignore
const luminance = (hex: string) => { const [r, g, b] = linear(hex); return 0.2126 * r + 0.7152 * g + 0.0722 * b; }; // prettier-ignore
const contrast = (a: string, b: string) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); }; // prettier-ignore
/** A colour as a person with deuteranopia or protanopia sees it (Machado et al. 2009, severity 1), linear RGB. */
const MACHADO = {
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
}; // prettier-ignore
const seen = (hex: string, m: number[][]) => { const c = linear(hex); return m.map((row) => row.reduce((a, k, i) => a + k * c[i], 0)); }; // prettier-ignore
const apart = (a: string, b: string, m: number[][]) => Math.hypot(...seen(a, m).map((v, i) => v - seen(b, m)[i])); // prettier-ignore

/** An access review at M-like size: more rows than fold, and --since with new and resolved rows. */
function mLikeAccess(): AccessReport {
  const r = accessFixture({ users: 200, projects: 60, rowsPerProject: 12, seed: 5 });
  const inactive = r.findings.find((f) => f.id === "inactive-with-write")!;
  r.since = {
    previousGeneratedAt: "2026-05-01T06:00:00Z",
    granted: r.rows.slice(0, 3),
    revoked: [],
    newFindings: [{ ...inactive, count: 2, rows: inactive.rows.slice(0, 2) }],
    resolvedFindings: [{ ...inactive, count: 1, rows: [{ principal: "gone", detail: "left" }] }],
  };
  return r;
}

describe("the HTML report", () => {
  const access = renderReportHtml(accessFixture());
  const delivery = renderReportHtml(deliveryFixture());

  it("shows names that are markup as text, never as markup", () => {
    for (const html of [access, delivery]) {
      expect(html).not.toContain(EVIL);
      expect(html).not.toMatch(/<img|<script/i);
      const d = dom(html);
      expect(d.querySelectorAll("img, script, [onerror]").length).toBe(0);
      expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;amp;");
    }
    const d = dom(access);
    expect(texts(d, '[data-table="users"] td')).toContain(EVIL);
  });

  it("shows hidden characters in names as visible escapes", () => {
    const r = accessFixture();
    r.users[0].username = "ad\u202emin";
    expect(renderReportHtml(r)).toContain("ad\\u202emin");
  });

  it("needs nothing else: no script, no request, a policy that forbids both", () => {
    for (const html of [access, delivery]) {
      expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`); // prettier-ignore
      expect(html).not.toMatch(/<(script|link|iframe|object|embed)\b/i);
      expect(html).not.toMatch(/\s(src|href)="(?!#)/i); // in-page links only
      expect(html).not.toMatch(/url\(|@import/i);
    }
  });

  it("has light and dark colours and prints on A4", () => {
    expect(access).toContain("@media (prefers-color-scheme:dark)");
    expect(access).toMatch(/@media print\{\s*@page\{size:A4/);
    expect(access).toContain("thead{display:table-header-group}");
  });

  it("is the same file for the same data", () => {
    expect(renderReportHtml(accessFixture())).toBe(access);
    expect(renderReportHtml(deliveryFixture())).toBe(delivery);
  });

  it("draws every chart as SVG with its title and both axis labels", () => {
    const charts = [...dom(access).querySelectorAll("figure.chart[data-chart]"), ...dom(delivery).querySelectorAll("figure.chart[data-chart]")]; // prettier-ignore
    expect(charts.map((c) => c.getAttribute("data-chart")).sort()).toEqual(
      ["access-grants", "access-last-login", "ci-duration-per-day", "ci-least-reliable", "ci-pipelines-per-day", "ci-slowest-projects", "ci-success-rate", "dora-change-failure-rate", "dora-deployment-frequency", "dora-lead-time-for-changes", "dora-time-to-restore-service", "usage-users"].sort(), // prettier-ignore
    );
    for (const c of charts) {
      const id = c.getAttribute("data-chart");
      expect(c.querySelector("figcaption")?.textContent, id ?? "").toMatch(/\w{4}/);
      expect(c.querySelector("svg"), id ?? "").not.toBeNull();
      for (const axis of ["x", "y"])
        expect(c.querySelector(`g[data-label="${axis}-axis label"] text`)?.textContent, `${id} ${axis}`).toMatch(/\w{3}/); // prettier-ignore
    }
  });

  it("draws each chart twice, one image named by its title each: wide for screens and print, narrow for a phone", () => {
    const r = deliveryFixture();
    r.ci.projects[0].name = "trusted-firmware-a-tests-long";
    r.ci.projects[1].name = "trusted-firmware-a-tests-longer";
    r.ci.slowest = [r.ci.projects[0].name, r.ci.projects[1].name, ...r.ci.slowest];
    for (const html of [access, renderReportHtml(r)]) {
      const charts = dom(html).querySelectorAll("figure.chart[data-chart]");
      for (const c of charts) {
        const id = c.getAttribute("data-chart") ?? "";
        const drawings = [...c.querySelectorAll("[data-drawing]")];
        expect(
          drawings.map((p) => p.getAttribute("data-drawing")),
          id,
        ).toEqual(["wide", "narrow"]);
        expect(drawings.map((p) => p.querySelector("svg[role=img]")?.getAttribute("viewBox")?.split(" ")[2]), id).toEqual(["560", "340"]); // prettier-ignore
        for (const p of drawings) {
          const svg = p.querySelector("svg[aria-label]")!;
          expect([svg.getAttribute("role"), svg.getAttribute("aria-label")], id).toEqual(["img", c.querySelector("figcaption")?.textContent]); // prettier-ignore
          expect(p.querySelector('g[data-label="x-axis label"] text')?.textContent, id).toMatch(/\w{3}/); // prettier-ignore
        }
      }
    }
    // the phone's CSS shows the narrow drawing on a screen (never on paper); no chart is wider than its box
    expect(access).toContain(".plot-narrow{display:none}");
    expect(access).toMatch(/@media screen and \(max-width:\d+px\)\{\.plot-wide\{display:none\}\.plot-narrow\{display:block\}\}/); // prettier-ignore
    expect(access).not.toContain("min-width:420px");
    // the narrow ranking cuts names shorter, and two that would read the same stay apart
    const slowest = dom(renderReportHtml(r)).querySelector('[data-chart="ci-slowest-projects"] [data-drawing="narrow"]')!; // prettier-ignore
    const names = texts(slowest as never, 'g[data-label="y-axis tick label"] text');
    expect(names.slice(0, 2)).toEqual(["trusted-f…sts-long", "trusted-f…s-longer"]);
    expect(names.slice(2).every((n) => n.length <= 18)).toBe(true);
  });

  it("lists each finding with its count and rows", () => {
    const r = accessFixture();
    const d = dom(renderReportHtml(r));
    for (const f of r.findings) {
      const rows = d.querySelectorAll(`[data-table="finding-${f.id}"] tbody tr`);
      expect(rows.length, f.id).toBe(f.count ? f.rows.length : 0);
      expect(d.querySelector(`#finding-${f.id} .count`)?.textContent).toBe(String(f.count));
    }
    expect(r.findings.some((f) => f.count === 0) && r.findings.some((f) => (f.count ?? 0) > 0)).toBe(true); // prettier-ignore
  });

  it('says "no data" for a project without pipelines, never 0% or NaN', () => {
    const r = deliveryFixture();
    const d = dom(renderReportHtml(r));
    const row = [...d.querySelectorAll('[data-table="ci-projects"] tbody tr')].find((tr) => tr.firstElementChild?.textContent === "project-007"); // prettier-ignore
    expect(row?.textContent).toContain("no data");
    expect(row?.textContent).not.toMatch(/NaN|0\.0%|Infinity/);
  });

  it("a period without pipelines or deployments shows where the charts would be why they are not", () => {
    const r: DeliveryReport = deliveryFixture();
    r.ci.daily = r.ci.daily.map((x) => ({ ...x, pipelines: 0, successful: 0, failed: 0, medianDuration: null })); // prettier-ignore
    for (const s of r.dora.organizations) for (const m of s.metrics) m.series = m.series.map((p) => ({ ...p, value: null })); // prettier-ignore
    const d = dom(renderReportHtml(r));
    const missing = [...d.querySelectorAll("[data-chart-missing]")].map((e) => e.getAttribute("data-chart-missing")); // prettier-ignore
    expect(missing).toEqual(expect.arrayContaining(["ci-pipelines-per-day", "ci-success-rate", "ci-duration-per-day", "dora-lead-time-for-changes"])); // prettier-ignore
    expect(texts(d, "[data-chart-missing] .nodata")[0]).toMatch(/^no data: /);
  });

  it("a section that could not be read says what failed and what to set; the rest is there", () => {
    const r = deliveryFixture();
    r.sections[0] = { name: "dora", title: "DORA metrics", status: "failed", error: "the git host answered 401 Unauthorized.", set: ["PHCTL_GIT_TOKEN"] }; // prettier-ignore
    r.partial = true;
    r.dora = { projects: [], organizations: [] };
    const d = dom(renderReportHtml(r));
    const note = d.querySelector('[data-section-failed="dora"]');
    expect(note?.textContent).toBe("DORA metrics: not read. the git host answered 401 Unauthorized. Set PHCTL_GIT_TOKEN."); // prettier-ignore
    expect(d.querySelector('[data-section="dora"] table')).toBeNull();
    expect(d.querySelector("[data-partial]")?.textContent).toContain("1 of 3 sections");
    expect(d.querySelectorAll('[data-section="ci"] figure.chart svg').length).toBeGreaterThan(3);
  });

  it("the access review without last logins keeps its findings and says logins are missing", () => {
    const r = accessFixture();
    r.sections[1] = { name: "lastLogin", title: "Last logins", status: "failed", error: "403 Forbidden" }; // prettier-ignore
    const d = dom(renderReportHtml(r));
    expect(d.querySelector('[data-section="findings"] [data-section-failed="lastLogin"]')).not.toBeNull(); // prettier-ignore
    expect(d.querySelectorAll("[data-decisions] [data-decision], [data-decisions] [data-nothing]").length).toBe(r.findings.length); // prettier-ignore
  });

  it("stays within 5 MB at size M (2,000 users, 500 projects)", () => {
    const a = renderReportHtml(accessFixture({ users: 2_000, projects: 500, rowsPerProject: 14 }));
    const b = renderReportHtml(deliveryFixture({ projects: 500 }));
    expect(Buffer.byteLength(a)).toBeLessThan(5 * 1024 * 1024);
    expect(Buffer.byteLength(b)).toBeLessThan(5 * 1024 * 1024);
  });

  it("the access review's first screen: every finding by severity, its change since the last review, its top offenders linked", () => {
    const r = mLikeAccess();
    const d = dom(renderReportHtml(r));
    const items = [...d.querySelectorAll("[data-decisions] > [data-decision]")];
    const quiet = [...d.querySelectorAll("[data-nothing-found] [data-nothing]")].map((a) => a.getAttribute("data-nothing")); // prettier-ignore
    expect(items.map((e) => e.getAttribute("data-decision")).sort()).toEqual(r.findings.filter((f) => f.rows.length).map((f) => f.id).sort()); // prettier-ignore
    expect([...items.map((e) => e.getAttribute("data-decision")), ...quiet].sort()).toEqual(r.findings.map((f) => f.id).sort()); // prettier-ignore
    const ranks = items.map((e) => SEVERITIES.indexOf(e.getAttribute("data-severity") as never));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(items[0].getAttribute("data-severity")).toBe("high");
    const inactive = d.querySelector('[data-decision="inactive-with-write"]')!;
    expect(inactive.querySelector("[data-change]")?.textContent).toBe("+2 new, 1 resolved since 2026-05-01"); // prettier-ignore
    expect(d.querySelector('[data-decision="never-logged-in"] [data-change]')?.textContent).toBe("no change since 2026-05-01"); // prettier-ignore
    for (const item of items) {
      const f = r.findings.find((x) => x.id === item.getAttribute("data-decision"))!;
      expect(item.querySelectorAll(".top > li").length, f.id).toBe(Math.min(5, f.rows.length));
      for (const a of item.querySelectorAll(".top a")) expect(d.getElementById(a.getAttribute("href")!.slice(1)), String(a.getAttribute("href"))).not.toBeNull(); // prettier-ignore
    }
    expect(inactive.querySelector(".top a")?.getAttribute("href")).toBe(`#${userId(r.findings[0].rows[0].principal!)}`); // prettier-ignore
  });

  it("the access review's first screen: checks that found nothing and did not change share one line at the end, each linked; a drop to none keeps its card", () => {
    const r = mLikeAccess();
    const [inactive, , serviceAdmin] = bySeverity(r.findings);
    expect([inactive.id, serviceAdmin.id]).toEqual(["inactive-with-write", "service-account-admin"]); // prettier-ignore
    // service accounts with admin: 1 last time, none now
    r.since!.resolvedFindings.push({ ...serviceAdmin, count: 1, rows: [{ principal: "ci-bot", detail: "was admin" }] }); // prettier-ignore
    const d = dom(renderReportHtml(r));
    const list = d.querySelector("[data-decisions]")!;
    const cards = [...list.querySelectorAll(":scope > [data-decision]")].map((e) => e.getAttribute("data-decision")); // prettier-ignore
    const quiet = r.findings.filter((f) => f.count === 0 && f.id !== serviceAdmin.id);
    expect(quiet.length).toBeGreaterThan(0);
    expect(cards).toEqual(bySeverity(r.findings).filter((f) => !quiet.includes(f)).map((f) => f.id)); // prettier-ignore
    const drop = list.querySelector(`[data-decision="${serviceAdmin.id}"]`)!;
    expect(drop.querySelector("[data-change]")?.textContent).toBe("1 resolved since 2026-05-01");
    expect(drop.querySelector(".ok")?.textContent).toBe("None.");
    const line = list.lastElementChild!;
    expect(line.hasAttribute("data-nothing-found")).toBe(true);
    expect(line.textContent?.replace(/\s+/g, " ").trim()).toBe(`Nothing found (no change since 2026-05-01): ${bySeverity(quiet).map((f) => f.title).join(", ")}.`); // prettier-ignore
    for (const a of line.querySelectorAll("a")) expect(d.getElementById(a.getAttribute("href")!.slice(1))?.getAttribute("data-finding"), String(a.getAttribute("href"))).toBe(a.getAttribute("data-nothing")); // prettier-ignore
    // without --since: the same line, without the date
    delete r.since;
    const plain = dom(renderReportHtml(r)).querySelector("[data-nothing-found]")?.textContent ?? "";
    expect(plain.replace(/\s+/g, " ").trim()).toMatch(/^Nothing found: /);
  });

  it("an anchor on every user and every project; long tables grouped and folded; the decision before the charts before the tables", () => {
    const r = mLikeAccess();
    const html = renderReportHtml(r);
    const d = dom(html);
    for (const u of r.users) expect(d.getElementById(userId(u.username))?.textContent, u.username).toContain(u.username); // prettier-ignore
    for (const p of r.projects) expect(d.getElementById(projectId(p.project))?.tagName, p.project).toBe("DETAILS"); // prettier-ignore
    expect(new Set([...d.querySelectorAll("[id]")].map((e) => e.id)).size).toBe(d.querySelectorAll("[id]").length); // prettier-ignore
    expect(userId("a_b")).not.toBe(userId("a.b"));
    // no table longer than a screenful is unfolded, and folded ones are not printed
    for (const t of d.querySelectorAll("table")) if (t.querySelectorAll("tbody tr").length > 50) expect(t.closest("details:not([open])"), t.getAttribute("data-table") ?? "").not.toBeNull(); // prettier-ignore
    expect(d.querySelectorAll("details[data-project]:not([open])").length).toBe(r.projects.length);
    expect(html).toMatch(/@media print\{[^]*\.folded\{display:none\}/);
    const at = (s: string) => html.indexOf(s);
    expect(at("data-decisions")).toBeLessThan(at('class="chart"'));
    expect(at('class="chart"')).toBeLessThan(at('data-table="finding-'));
    expect(at('data-table="finding-')).toBeLessThan(at('data-table="rows"'));
  });

  it("delivery's first screen: projects per band and metric, the worst projects first, then charts, then every project worst first", () => {
    const r = deliveryFixture({ projects: 80 });
    // bands varied per project, so that worst-first is not the list's own order
    const bands = ["elite", "high", "medium", "low"] as const;
    r.dora.projects.forEach((p, i) => p.metrics.forEach((m, k) => (m.band = i === 7 ? null : bands[(i * 7 + k * 3) % 4]))); // prettier-ignore
    const html = renderReportHtml(r);
    const d = dom(html);
    const counts = [...d.querySelectorAll('[data-table="dora-band-counts"] tbody tr')].map((tr) => [...tr.querySelectorAll("td")].slice(1).map((td) => Number(td.textContent))); // prettier-ignore
    expect(counts).toHaveLength(4);
    counts.forEach((row, k) => {
      expect(row.reduce((a, b) => a + b, 0)).toBe(80);
      expect(row[3]).toBe(r.dora.projects.filter((p) => p.metrics[k].band === "low").length);
    });
    const lows = (name: string) => r.dora.projects.find((p) => p.name === name)!.metrics.filter((m) => m.band === "low").length; // prettier-ignore
    const order = [...d.querySelectorAll('[data-table="dora-projects"] tbody tr')].map((tr) => tr.querySelector("td")!.textContent!); // prettier-ignore
    expect(order.map(lows)).toEqual([...order.map(lows)].sort((a, b) => b - a).slice(0, order.length - 1).concat(order.map(lows).slice(-1))); // prettier-ignore
    expect(order.at(-1)).toBe("project-007"); // no band at all: last
    expect(order).not.toEqual([...order].sort());
    expect(texts(d, '[data-table="dora-worst"] tbody tr td:first-child')).toEqual(
      order.slice(0, 5),
    );
    for (const name of order) expect(d.getElementById(projectId(name)), name).not.toBeNull();
    expect(d.querySelector('[data-table="dora-projects"]')?.closest("details:not([open])")).not.toBeNull(); // prettier-ignore
    const at = (s: string) => html.indexOf(s);
    expect(at('data-table="dora-band-counts"')).toBeLessThan(at('class="chart"'));
    expect(at('data-table="dora-worst"')).toBeLessThan(at('class="chart"'));
    expect(at('class="chart"')).toBeLessThan(at('data-table="dora-projects"'));
  });

  it("band labels are apart from each other, inside the plot, however close the bands", () => {
    const regions = [
      { band: "elite" as const, y1: 0, y2: 1 },
      { band: "high" as const, y1: 1, y2: 1.5 },
      { band: "medium" as const, y1: 1.5, y2: 2 },
      { band: "low" as const, y1: 2, y2: 30 },
    ];
    const labels = bandLabels(regions, 30, 210);
    const px = labels.map((l) => (l.y / 30) * 210);
    for (let i = 1; i < px.length; i++) expect(px[i] - px[i - 1]).toBeGreaterThanOrEqual(14.9);
    for (const y of px) expect(y >= 7 && y <= 203).toBe(true);
    const crowded = bandLabels(
      regions.map((x) => ({ ...x, y1: x.y1 / 10, y2: x.y2 / 10 })),
      3,
      40,
    );
    expect(crowded.map((l) => l.band)).toEqual(["elite", "high", "medium", "low"]);
  });

  it("badges reach 4.5:1; success and failure stay apart under deuteranopia and protanopia; no aria-label on a <g>", () => {
    for (const [band, bg] of Object.entries(BAND_COLORS)) {
      const fg = band === "medium" ? "#1f2328" : "#ffffff";
      expect(contrast(bg, fg), band).toBeGreaterThanOrEqual(4.5);
      expect(delivery).toContain(`.band-${band}{background:${bg}`);
    }
    for (const m of Object.values(MACHADO)) expect(apart(OUTCOME_COLORS.successful, OUTCOME_COLORS.failed, m)).toBeGreaterThan(0.25); // prettier-ignore
    for (const html of [access, delivery]) {
      const d = dom(html);
      expect(d.querySelectorAll("g[aria-label]:not([role])").length).toBe(0);
      for (const svg of d.querySelectorAll("figure.chart svg[viewBox]")) expect(svg.getAttribute("role")).toBe("img"); // prettier-ignore
    }
    expect(Object.keys(FINDING_SEVERITY).sort()).toEqual([...FINDING_IDS].sort());
  });
});
