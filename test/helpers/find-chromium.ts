/**
 * Where a Chromium-family browser is on this machine, for the HTML report's browser test:
 * PHCTL_CHROMIUM when set, else the first of chromium, chromium-browser, google-chrome and
 * google-chrome-stable on PATH, else the macOS applications (system-wide, then the user's).
 * A fresh machine has whichever one its owner installed; the test should find it rather than
 * insist on Debian's /usr/bin/chromium. Pure but for the `exists` it is given.
 */
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** Names looked for on PATH, in order. */
export const CHROMIUM_NAMES = [
  "chromium",
  "chromium-browser",
  "google-chrome",
  "google-chrome-stable",
] as const;

/** The macOS applications' binaries, under /Applications or ~/Applications. */
export const MACOS_APPS = [
  "Chromium.app/Contents/MacOS/Chromium",
  "Google Chrome.app/Contents/MacOS/Google Chrome",
] as const;

/** Where the browser was looked for and what was found. */
export interface ChromiumSearch {
  /** The binary, or undefined when none was found. */
  path: string | undefined;
  /** Set when PHCTL_CHROMIUM names the browser (then nothing else is looked at). */
  fromEnv: boolean;
}

/** Find the browser (see the module comment); `exists` says whether a path is there. */
export function findChromium(
  env: Record<string, string | undefined> = process.env,
  exists: (path: string) => boolean = existsSync,
): ChromiumSearch {
  const set = env.PHCTL_CHROMIUM?.trim();
  if (set) return { path: exists(set) ? set : undefined, fromEnv: true };
  const dirs = (env.PATH ?? "").split(delimiter).filter((d) => d !== "");
  for (const name of CHROMIUM_NAMES)
    for (const dir of dirs) if (exists(join(dir, name))) return { path: join(dir, name), fromEnv: false }; // prettier-ignore
  const roots = ["/Applications", ...(env.HOME ? [join(env.HOME, "Applications")] : [])];
  for (const root of roots)
    for (const app of MACOS_APPS) if (exists(join(root, app))) return { path: join(root, app), fromEnv: false }; // prettier-ignore
  return { path: undefined, fromEnv: false };
}

/** Why the browser tests cannot run (with how to install a browser), or null when they can. */
export function chromiumMissingText(
  env: Record<string, string | undefined> = process.env,
  exists: (path: string) => boolean = existsSync,
): string | null {
  const found = findChromium(env, exists);
  if (found.path) return null;
  const looked = found.fromEnv
    ? `PHCTL_CHROMIUM names ${env.PHCTL_CHROMIUM?.trim()}, which does not exist`
    : `Chromium is not installed: none of ${CHROMIUM_NAMES.join(", ")} is on PATH, nor Chromium or Google Chrome in /Applications`;
  return `${looked}: install it with \`apt-get update && apt-get install -y chromium\` (Debian; .ci/run does this when it is missing), or set PHCTL_CHROMIUM to a Chromium binary`;
}
