/**
 * Which files a set of paths means: a file is read as given; a directory is walked for
 * `*.yaml` / `*.yml` (skipping dot-directories, dot-files and node_modules), and a
 * `phctl.yaml` at its root is the config. A path that does not exist is a user error.
 * The file system is read synchronously: thousands of small files cost a tenth of the CPU
 * that promise-based calls do, and nothing else runs while manifests load.
 */
import { readdirSync, realpathSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { userError } from "../errors.js";

export const CONFIG_NAMES = ["phctl.yaml", "phctl.yml"];

export interface Discovered {
  /** Manifest files, absolute, in a stable order, each once. */
  manifests: string[];
  /** phctl.yaml files at the root of a given directory, or given explicitly. */
  configs: string[];
  /** phctl.yaml files found deeper in a directory: ignored. */
  nestedConfigs: string[];
}

const isYaml = (name: string) => /\.ya?ml$/i.test(name);

function walk(dir: string, root: boolean, out: Discovered, seen: Set<string>): void {
  const real = realpathSync.native(dir);
  if (seen.has(real)) return;
  seen.add(real);
  const entries = readdirSync(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith(".") || e.name === "node_modules") continue;
    const full = join(dir, e.name);
    let isDir = e.isDirectory();
    let isFile = e.isFile();
    if (e.isSymbolicLink()) {
      const s = statSync(full, { throwIfNoEntry: false });
      isDir = s?.isDirectory() ?? false;
      isFile = s?.isFile() ?? false;
    }
    if (isDir) walk(full, false, out, seen);
    else if (isFile && isYaml(e.name)) {
      if (CONFIG_NAMES.includes(e.name)) (root ? out.configs : out.nestedConfigs).push(full);
      else out.manifests.push(full);
    }
  }
}

export async function discover(paths: readonly string[], cwd: string): Promise<Discovered> {
  const out: Discovered = { manifests: [], configs: [], nestedConfigs: [] };
  const seenDirs = new Set<string>();
  for (const p of paths) {
    const abs = resolve(cwd, p);
    let s;
    try {
      s = statSync(abs);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw userError(
        "PATH_NOT_FOUND",
        code === "ENOENT"
          ? `${p}: no such file or directory`
          : `${p}: cannot read (${code ?? "error"})`,
      );
    }
    if (s.isDirectory()) {
      try {
        walk(abs, true, out, seenDirs);
      } catch (e) {
        throw userError(
          "READ_FAILED",
          `${p}: cannot read directory (${(e as NodeJS.ErrnoException).code ?? "error"})`,
        );
      }
    } else if (CONFIG_NAMES.includes(basename(abs))) out.configs.push(abs);
    else out.manifests.push(abs);
  }
  const unique = (files: string[]) => {
    const seen = new Set<string>();
    const kept: string[] = [];
    for (const f of files) {
      let r = f;
      try {
        r = realpathSync.native(f);
      } catch {
        // unreadable: kept as given (reading it reports the problem)
      }
      if (!seen.has(r)) {
        seen.add(r);
        kept.push(f);
      }
    }
    return kept;
  };
  return {
    manifests: unique(out.manifests),
    configs: unique(out.configs),
    nestedConfigs: unique(out.nestedConfigs),
  };
}
