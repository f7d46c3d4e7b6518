/**
 * The browser test finds a browser where people have one (issue 36, item 9): PHCTL_CHROMIUM,
 * then chromium, chromium-browser, google-chrome, google-chrome-stable on PATH, then the
 * macOS applications; without one it fails saying how to install it.
 */
import { describe, expect, it } from "vitest";
import { chromiumMissingText, findChromium } from "../helpers/find-chromium.js";

/** A machine holding exactly these files. */
const machine =
  (...files: string[]) =>
  (p: string) =>
    files.includes(p);
const PATH = "/home/u/bin:/usr/local/bin:/usr/bin";

describe("finding Chromium", () => {
  it("takes PHCTL_CHROMIUM first, and says so when it names nothing", () => {
    const env = { PATH, PHCTL_CHROMIUM: "/opt/chrome/chrome" };
    expect(findChromium(env, machine("/opt/chrome/chrome", "/usr/bin/chromium")).path).toBe("/opt/chrome/chrome"); // prettier-ignore
    expect(findChromium(env, machine("/usr/bin/chromium")).path).toBeUndefined();
    expect(chromiumMissingText(env, machine("/usr/bin/chromium"))).toMatch(
      /^PHCTL_CHROMIUM names \/opt\/chrome\/chrome, which does not exist: install it with `apt-get update && apt-get install -y chromium`/,
    );
  });

  it.each([
    ["/usr/bin/chromium", "Debian"],
    ["/usr/bin/chromium-browser", "Ubuntu, Fedora"],
    ["/usr/bin/google-chrome", "Google's package"],
    ["/usr/local/bin/google-chrome-stable", "Google's package, elsewhere on PATH"],
    ["/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "macOS"],
    ["/Applications/Chromium.app/Contents/MacOS/Chromium", "macOS, Chromium"],
    ["/home/u/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "macOS, the user's"],
  ])("finds %s (%s)", (path) => {
    const env = { PATH, HOME: "/home/u" };
    expect(findChromium(env, machine(path)).path).toBe(path);
    expect(chromiumMissingText(env, machine(path))).toBeNull();
  });

  it("prefers chromium, then the PATH's order", () => {
    const env = { PATH, HOME: "/home/u" };
    expect(findChromium(env, machine("/usr/bin/google-chrome", "/usr/bin/chromium")).path).toBe("/usr/bin/chromium"); // prettier-ignore
    expect(findChromium(env, machine("/usr/bin/chromium", "/home/u/bin/chromium")).path).toBe("/home/u/bin/chromium"); // prettier-ignore
  });

  it("without any, fails naming where it looked and how to install one", () => {
    const text = chromiumMissingText({ PATH, HOME: "/home/u" }, machine());
    expect(text).toContain(
      "none of chromium, chromium-browser, google-chrome, google-chrome-stable is on PATH",
    );
    expect(text).toContain("install it with `apt-get update && apt-get install -y chromium`");
    expect(text).toContain("or set PHCTL_CHROMIUM to a Chromium binary");
  });
});
