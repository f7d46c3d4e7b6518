/**
 * The CODEOWNERS file of a loaded config, as `phctl owners` writes it and `phctl validate`
 * checks it: the owner index over the config's root (phctl.yaml's directory), paths from the
 * top of the git checkout that holds it (the nearest directory above with `.git`; none: the
 * config is the repository), and the staleness check as one diagnostic at the committed
 * file's first differing line, naming the command that rewrites it.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { userError } from "../errors.js";
import { makeDiagnostic } from "../manifest/diagnostics.js";
import type { Diagnostic, DesiredState } from "../manifest/types.js";
import {
  firstDifference,
  listsOf,
  OwnerIndex,
  renderCodeowners,
  teamsWithoutHandle,
  type CodeownersFormat,
} from "../owners/index.js";
import type { LoadResult } from "../pipeline/types.js";

const slash = (p: string) => p.split(sep).join("/");

/** The config's root: phctl.yaml's directory, else the directory given (relative to cwd). */
export function configRootOf(state: DesiredState, paths: readonly string[]): string {
  if (state.config.source) return dirname(state.config.source.file);
  const first = paths[0] ?? ".";
  return statSync(first, { throwIfNoEntry: false })?.isDirectory() ? first : dirname(first);
}

/** The nearest directory at or above `dir` (absolute) that holds `.git`, if any. */
export function checkoutTop(dir: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** The owner index of a loaded config (without errors). */
export function ownerIndexOf(loaded: LoadResult, state: DesiredState, paths: readonly string[]) {
  return new OwnerIndex({
    state,
    files: loaded.files,
    root: configRootOf(state, paths),
    ...(loaded.policies ? { policies: loaded.policies } : {}),
  });
}

/** The CODEOWNERS text of a config; a user error when a team has no handle to write. */
export function codeownersText(index: OwnerIndex, format: CodeownersFormat): string {
  const missing = teamsWithoutHandle(index, listsOf(index));
  if (missing.length > 0)
    throw userError(
      "OWNERS_NO_GROUP",
      `owners: no handle for team ${missing.join(", ")}: set owners.handles.group (the GitHub organization or GitLab group of the teams) or organization in phctl.yaml`,
    );
  const root = resolve(index.root);
  const top = checkoutTop(root) ?? root;
  const dir = slash(relative(top, root));
  const prefix = dir === "" ? "" : `${dir}/`;
  const config = index.state.config.source ? `${prefix}phctl.yaml` : dir || ".";
  return renderCodeowners(index, format, prefix, config);
}

/** The committed CODEOWNERS phctl.yaml names (`owners.file`), relative to the working directory. */
export function configuredCodeowners(state: DesiredState): string | undefined {
  const file = state.config.owners?.file;
  if (file === undefined) return undefined;
  const base = state.config.source ? dirname(state.config.source.file) : ".";
  return slash(relative(process.cwd(), resolve(base, file))) || file;
}

/** The command that rewrites `file` from the config. */
export const rewriteCommand = (root: string, format: CodeownersFormat, file: string) =>
  `phctl owners ${root} --format ${format} --out ${file}`;

/**
 * Is the committed `file` what the config gives? undefined when it is; else a diagnostic at
 * its first differing line (line 1 when it is missing) naming the command that rewrites it.
 */
export function codeownersDiagnostic(
  index: OwnerIndex,
  format: CodeownersFormat,
  file: string,
): Diagnostic | undefined {
  const expected = codeownersText(index, format);
  let actual: string | undefined;
  try {
    actual = readFileSync(file, "utf8");
  } catch {
    actual = undefined;
  }
  const fix = rewriteCommand(index.root, format, file);
  if (actual === undefined)
    return makeDiagnostic(
      "error",
      "codeowners-missing",
      { file, line: 1, column: 1 },
      `${file} does not exist: run ${fix}, and commit it`,
    );
  const line = firstDifference(expected, actual);
  if (line === undefined) return undefined;
  return makeDiagnostic(
    "error",
    "codeowners-stale",
    { file, line, column: 1 },
    `${file} is stale: line ${line} is not what the config's owners give; run ${fix}, and commit it`,
  );
}
