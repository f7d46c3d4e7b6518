/**
 * The machine's Chromium (or Chrome) driven by playwright-core, for the tests that look at the HTML report in
 * a real browser. Never a browser download (`playwright install` is not used): the one
 * already installed, wherever it is (test/helpers/find-chromium.ts; PHCTL_CHROMIUM
 * overrides), headless, sandbox and GPU off (CI runs as
 * root in a container), its own background traffic off, a fresh profile per launch. A
 * missing browser is a failure that says how to install it, not a skip: a skipped browser
 * test looks green and checks nothing.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { chromiumMissingText, findChromium } from "./find-chromium.js";

/** Where the browser is (undefined: none found; `chromiumMissing()` says how to get one). */
export const CHROMIUM = findChromium().path;

/** The flags: headless, no sandbox (root in CI), and nothing that reaches out on its own. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Why the browser tests cannot run, or null when they can. */
export function chromiumMissing(): string | null {
  return chromiumMissingText();
}

/** A browser with a fresh profile; `close()` ends it and removes the profile. */
export async function launchChromium(o: {
  width?: number;
  height?: number;
  colorScheme?: "light" | "dark";
}): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const missing = chromiumMissing();
  if (missing || CHROMIUM === undefined) throw new Error(missing ?? "no Chromium");
  const profile = mkdtempSync(join(tmpdir(), "phctl-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: o.width ?? 1280, height: o.height ?? 900 },
    colorScheme: o.colorScheme ?? "light",
    offline: false,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** What opening a document saw: console errors, requests other than the document, timing. */
export interface Opened {
  consoleErrors: string[];
  /** Every request but the document's own (each one is a failure: the report needs none). */
  requests: string[];
  /** Navigation start to the load event, ms (Chromium's own clock). */
  loadMs: number;
}

/**
 * Open `html` as the page at `url` (served by the route, so that Chromium loads it as a
 * document from a server) with every other request refused and recorded.
 */
export async function openHtml(
  context: BrowserContext,
  html: string,
  url = "http://report.invalid/report.html",
  view: { width?: number; height?: number; colorScheme?: "light" | "dark" } = {},
): Promise<{ page: Awaited<ReturnType<BrowserContext["newPage"]>>; opened: Opened }> {
  const opened: Opened = { consoleErrors: [], requests: [], loadMs: NaN };
  const page = await context.newPage();
  // A width or colour scheme other than the browser's, for this page only (before it loads).
  if (view.width) await page.setViewportSize({ width: view.width, height: view.height ?? 900 });
  if (view.colorScheme) await page.emulateMedia({ colorScheme: view.colorScheme });
  await page.route("**/*", async (route) => {
    if (route.request().url() === url)
      return route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html });
    return route.abort("blockedbyclient");
  });
  page.on("console", (m) => {
    if (m.type() === "error") opened.consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => opened.consoleErrors.push(e.message));
  // Every request the page makes, routed or not (a service worker's, a data: URL's).
  page.on("request", (r) => {
    if (r.url() !== url) opened.requests.push(r.url());
  });
  await page.goto(url, { waitUntil: "load" });
  // (a string: the project's types have no DOM lib)
  const nav = "performance.getEntriesByType('navigation')[0]";
  opened.loadMs = Number(await page.evaluate(`${nav}.loadEventEnd - ${nav}.startTime`));
  return { page, opened };
}

/** axe-core's script (a devDependency), read once. */
let axeScript: string | undefined;

/**
 * axe-core's serious and critical violations of the page as it is: rule, impact, how many
 * nodes, the first node's selector. Empty when there are none.
 */
export async function axeSeriousOrCritical(page: Page): Promise<string[]> {
  axeScript ??= readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8"); // prettier-ignore
  await page.evaluate(axeScript);
  return page.evaluate<
    string[]
  >(`axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => v.impact + " " + v.id + " ×" + v.nodes.length + ": " + v.nodes[0].target.join(" ")))`);
}
