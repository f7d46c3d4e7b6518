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
import type { DeliveryReport } from "../../src/report/types.js";
import { accessFixture, deliveryFixture, EVIL } from "../helpers/report-fixture.js";

const dom = (s: string) => parseHTML(s).document;
const texts = (d: ReturnType<typeof dom>, sel: string) =>
  [...d.querySelectorAll(sel)].map((e) => (e.textContent ?? "").trim());

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
        expect(c.querySelector(`g[aria-label="${axis}-axis label"] text`)?.textContent, `${id} ${axis}`).toMatch(/\w{3}/); // prettier-ignore
    }
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
    expect(d.querySelector('[data-table="findings"]')).not.toBeNull();
  });

  it("stays within 5 MB at size M (2,000 users, 500 projects)", () => {
    const a = renderReportHtml(accessFixture({ users: 2_000, projects: 500, rowsPerProject: 14 }));
    const b = renderReportHtml(deliveryFixture({ projects: 500 }));
    expect(Buffer.byteLength(a)).toBeLessThan(5 * 1024 * 1024);
    expect(Buffer.byteLength(b)).toBeLessThan(5 * 1024 * 1024);
  });
});
