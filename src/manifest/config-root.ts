/**
 * Which config directory a command means when given no path: the one holding phctl.yaml —
 * the working directory, else the nearest directory above it (as git finds its checkout,
 * stopping at the top of the checkout), else the one directory directly below it that holds
 * one. Never a whole repository by accident: a repository root whose config is in
 * `config/` validates `config/`, not its CI files.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { userError } from "../errors.js";
import { CONFIG_NAMES } from "./discover.js";

const holdsConfig = (dir: string) => CONFIG_NAMES.some((n) => existsSync(join(dir, n)));

/** The nearest directory from `cwd` up that holds phctl.yaml, not above the checkout's top. */
function upwards(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (holdsConfig(dir)) return dir;
    if (existsSync(join(dir, ".git")) || dirname(dir) === dir) return undefined;
  }
}

/** Directories directly below `cwd` (not hidden, not node_modules) that hold phctl.yaml. */
function below(cwd: string): string[] {
  let entries;
  try {
    entries = readdirSync(cwd, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith(".") && e.name !== "node_modules")
    .map((e) => join(cwd, e.name))
    .filter(holdsConfig)
    .sort();
}

/**
 * The config directory for a command given no path, relative to `cwd` (`.` for itself);
 * a user error naming what to pass when there is none, or several below.
 */
export function defaultConfigDir(cwd: string, command: string): string {
  const show = (dir: string) => relative(cwd, dir).split(sep).join("/") || ".";
  const found = upwards(cwd);
  if (found) return show(found);
  const under = below(cwd);
  if (under.length === 1) return show(under[0]);
  if (under.length > 1)
    throw userError(
      "NO_CONFIG",
      `no phctl.yaml here, but ${under.length} directories below hold one (${under.map(show).join(", ")}): pass the one you mean (phctl ${command} DIR)`,
    );
  throw userError(
    "NO_CONFIG",
    `no phctl.yaml here, in a directory above (up to the top of the checkout) or in one below: pass the config directory or the manifest files (phctl ${command} DIR)`,
  );
}

/**
 * The directory whose phctl.yaml a load of `paths` reads (discover.ts: the first path that is
 * a phctl.yaml or a directory holding one), absolute; undefined when none does. For what
 * must know the config before loading it (drift's state file).
 */
export function configDirOf(paths: readonly string[], cwd: string): string | undefined {
  for (const p of paths) {
    const abs = resolve(cwd, p);
    if (CONFIG_NAMES.includes(basename(abs))) return dirname(abs);
    if (statSync(abs, { throwIfNoEntry: false })?.isDirectory() && holdsConfig(abs)) return abs;
  }
  return undefined;
}
