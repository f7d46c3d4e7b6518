/**
 * Which files a set of paths means: a file is read as given; a directory is walked for
 * `*.yaml` / `*.yml` (skipping dot-directories, dot-files, node_modules, policy test cases
 * `*.policytest.yaml` and a checkout of phctl itself), and a `phctl.yaml` at its root is the config. A path that does not exist is
 * a user error.
 *
 * A checkout of phctl inside a config repository (the CI action checked out beside the
 * config, a submodule, an unpacked package: a directory whose package.json names phctl) is
 * phctl's source: its examples and test fixtures would load as duplicate or broken manifests.
 *
 * A directory given to phctl is a config root: symbolic links met while walking it are
 * followed only while they stay inside its real path (a config repository that reaches
 * into `../shared` plans files nobody reviewed in it). A path named on the command line
 * is used even when it is a link: the user named it. Links that cannot be followed are
 * diagnostics naming the link, never an abort: the rest of the directory still loads.
 *
 * The file system is read synchronously: thousands of small files cost a tenth of the CPU
 * that promise-based calls do, and nothing else runs while manifests load.
 */
import {
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  type Dirent,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { userError } from "../errors.js";
import { makeDiagnostic } from "./diagnostics.js";
import type { Diagnostic } from "./types.js";

export const CONFIG_NAMES = ["phctl.yaml", "phctl.yml"];

export interface Discovered {
  /** Manifest files, absolute, in a stable order, each once. */
  manifests: string[];
  /** phctl.yaml files at the root of a given directory, or given explicitly. */
  configs: string[];
  /** phctl.yaml files found deeper in a directory: ignored. */
  nestedConfigs: string[];
  /**
   * Symbolic links the walk did not follow (outside the config root, dangling, looping),
   * each naming the link; errors when the link is named as a manifest.
   */
  diagnostics: Diagnostic[];
}

/** Policy test cases (`phctl policy test`) sit beside policies and are no manifests. */
export const isPolicyTest = (name: string) => /\.policytest\.ya?ml$/i.test(name);
const isYaml = (name: string) => /\.ya?ml$/i.test(name) && !isPolicyTest(name);

/** One directory given to phctl, while it is walked. */
interface Walk {
  cwd: string;
  /** The working directory's real path: link targets are shown from it. */
  realCwd: string;
  /** Real path of the directory given, with a trailing separator. */
  rootPrefix: string;
  /** The directory given, as diagnostics show it. */
  rootShown: string;
  out: Discovered;
  seen: Set<string>;
}

/** As diagnostics show files: relative to the working directory, `/`-separated. */
const shown = (cwd: string, abs: string) => relative(cwd, abs).split(sep).join("/") || ".";

/** A link's target as the user can pass it: absolute as written, else from the working directory. */
function linkTarget(w: Walk, link: string): string {
  try {
    const text = readlinkSync(link);
    if (isAbsolute(text)) return text;
    // From where the link really is: its directory may itself be reached through a link.
    return shown(w.realCwd, resolve(realpathSync.native(dirname(link)), text));
  } catch {
    return "?";
  }
}

const at = (w: Walk, link: string) => ({ file: shown(w.cwd, link), line: 1, column: 1 });

/** A link that does not resolve: an error when it stands for a manifest, else a warning. */
function unresolved(w: Walk, link: string, name: string, code: string | undefined): void {
  const target = linkTarget(w, link);
  const what =
    code === "ENOENT" || code === "ENOTDIR"
      ? { code: "symlink-dangling", message: `dangling symbolic link to ${target}` }
      : code === "ELOOP"
        ? { code: "symlink-loop", message: `symbolic link loop (through ${target})` }
        : {
            code: "symlink-unreadable",
            message: `symbolic link to ${target} cannot be resolved (${code ?? "error"})`,
          };
  const hint = { hint: "fix the link or remove it" };
  w.out.diagnostics.push(
    isYaml(name)
      ? makeDiagnostic(
          "error",
          what.code,
          at(w, link),
          `${what.message}: cannot read this manifest`,
          hint,
        )
      : makeDiagnostic("warning", what.code, at(w, link), `${what.message}, ignored`),
  );
}

/** What a directory entry is, following a link only when it resolves inside the root. */
function entryType(w: Walk, e: Dirent, full: string): "dir" | "file" | undefined {
  if (!e.isSymbolicLink()) return e.isDirectory() ? "dir" : e.isFile() ? "file" : undefined;
  let real;
  try {
    real = realpathSync.native(full);
  } catch (err) {
    unresolved(w, full, e.name, (err as NodeJS.ErrnoException).code);
    return undefined;
  }
  const s = statSync(real, { throwIfNoEntry: false });
  const type = s?.isDirectory() ? "dir" : s?.isFile() ? "file" : undefined;
  // A file that is not a manifest is never read: where its link leads does not matter.
  if (type === undefined || (type === "file" && !isYaml(e.name))) return undefined;
  if (!(real + sep).startsWith(w.rootPrefix)) {
    w.out.diagnostics.push(
      makeDiagnostic(
        "warning",
        "symlink-outside-root",
        at(w, full),
        `symbolic link to ${linkTarget(w, full)} leads outside the config directory ${w.rootShown}; not followed`,
        {
          hint: `copy the ${type === "dir" ? "files" : "file"} into the config directory, or pass the target as a path of its own`,
        },
      ),
    );
    return undefined;
  }
  return type;
}

/** A directory holding phctl's own package.json: a checkout of phctl, not config. */
function isPhctlCheckout(dir: string, entries: Dirent[]): boolean {
  if (!entries.some((e) => e.name === "package.json")) return false;
  try {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown };
    return pkg.name === "phctl";
  } catch {
    return false; // not phctl's: whatever it is, the directory is walked as before
  }
}

function walk(w: Walk, dir: string, root: boolean): void {
  const real = realpathSync.native(dir);
  if (w.seen.has(real)) return;
  w.seen.add(real);
  const entries = readdirSync(dir, { withFileTypes: true });
  // The directory given is read whatever it is: the user named it.
  if (!root && isPhctlCheckout(dir, entries)) return;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith(".") || e.name === "node_modules") continue;
    const full = join(dir, e.name);
    const type = entryType(w, e, full);
    if (type === "dir") walk(w, full, false);
    else if (type === "file" && isYaml(e.name)) {
      if (CONFIG_NAMES.includes(e.name)) (root ? w.out.configs : w.out.nestedConfigs).push(full);
      else w.out.manifests.push(full);
    }
  }
}

export async function discover(paths: readonly string[], cwd: string): Promise<Discovered> {
  const out: Discovered = { manifests: [], configs: [], nestedConfigs: [], diagnostics: [] };
  const seenDirs = new Set<string>();
  let realCwd = cwd;
  try {
    realCwd = realpathSync.native(cwd);
  } catch {
    // a working directory that went away: targets are shown from it as given
  }
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
        const rootReal = realpathSync.native(abs);
        const rootPrefix = rootReal.endsWith(sep) ? rootReal : rootReal + sep;
        walk(
          { cwd, realCwd, rootPrefix, rootShown: shown(cwd, abs), out, seen: seenDirs },
          abs,
          true,
        );
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
    diagnostics: out.diagnostics,
  };
}
