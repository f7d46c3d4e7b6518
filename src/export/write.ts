/**
 * Write an export's files all or nothing. Everything is written to a staging directory beside
 * the target first; only then does it move into place with renames. Without `force`, a target
 * that exists and is not empty is refused before anything is written. With `force`, each
 * top-level entry export writes (phctl.yaml, users.yaml, teams.yaml, defaults.yaml, projects/ or
 * projects.yaml, schemas/) replaces the one there; anything else in the directory (.git, a
 * README) is left alone.
 *
 * `gitignore` (export): the directory also gets a `.gitignore` for `.phctl/`, where phctl keeps
 * its state beside phctl.yaml (the embedded server's database, the apply journal and its lock,
 * the drift state), which is never committed. A `.gitignore` already there keeps its lines and
 * gets the one it lacks.
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { PhctlError, userError } from "../errors.js";
import { redact } from "../secrets.js";
import type { ExportFile } from "./layout.js";

function isNonEmptyDir(dir: string): boolean {
  if (!existsSync(dir)) return false;
  if (!statSync(dir).isDirectory())
    throw userError("OUTPUT_EXISTS", `${dir} exists and is not a directory`);
  return readdirSync(dir).length > 0;
}

/** Refuse a non-empty target unless forced: checked before any read, and again before writing. */
export function checkTarget(dir: string, force: boolean): void {
  if (!force && isNonEmptyDir(dir))
    throw userError(
      "OUTPUT_NOT_EMPTY",
      `${dir} is not empty; export writes only to a new or empty directory (--force replaces the files export writes)`,
    );
}

const ioError = (what: string, e: unknown) =>
  new PhctlError(
    "WRITE_FAILED",
    `cannot write ${what}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
    { cause: e },
  );

/** The `.gitignore` export writes. */
export const GITIGNORE = ".gitignore";
const IGNORE_STATE = `# phctl's state beside phctl.yaml (the embedded server's database, the apply journal and its
# lock, the drift state): keep it between CI runs with the CI cache, never commit it.
.phctl/
`;

/** The `.gitignore` to write over `existing` (undefined: none), or undefined if it ignores `.phctl/` already. */
export function gitignoreText(existing: string | undefined): string | undefined {
  if (existing === undefined) return IGNORE_STATE;
  if (existing.split(/\r?\n/).some((l) => /^\/?\.phctl\/?\s*$/.test(l))) return undefined;
  return `${existing}${existing === "" || existing.endsWith("\n") ? "" : "\n"}${IGNORE_STATE}`;
}

/**
 * Write `files` under `dir` (see the module comment); with `gitignore`, the `.gitignore` too.
 * Returns whether a `.gitignore` was written.
 */
export function writeExport(
  dir: string,
  files: readonly Pick<ExportFile, "path" | "text">[],
  force: boolean,
  o: { gitignore?: boolean } = {},
): { gitignore: boolean } {
  checkTarget(dir, force);
  const target = resolve(dir);
  const parent = dirname(target);
  const stage = join(parent, `.${basename(target)}.phctl-export-${process.pid}`);
  let gitignore = false;
  try {
    mkdirSync(parent, { recursive: true });
    rmSync(stage, { recursive: true, force: true });
    for (const f of files) {
      const file = join(stage, ...f.path.split("/"));
      mkdirSync(dirname(file), { recursive: true });
      // The documents were masked value by value (index.ts); this catches anything else.
      writeFileSync(file, redact(f.text));
    }
    if (o.gitignore) {
      const there = join(target, GITIGNORE);
      const text = gitignoreText(existsSync(there) ? readFileSync(there, "utf8") : undefined);
      if (text !== undefined) {
        writeFileSync(join(stage, GITIGNORE), text);
        gitignore = true;
      }
    }
  } catch (e) {
    rmSync(stage, { recursive: true, force: true });
    throw ioError(dir, e);
  }
  try {
    if (!existsSync(target)) {
      renameSync(stage, target);
      return { gitignore };
    }
    if (readdirSync(target).length === 0) {
      rmSync(target, { recursive: true });
      renameSync(stage, target);
      return { gitignore };
    }
    // Forced into a non-empty directory: swap each top-level entry, old ones removed last.
    const aside: string[] = [];
    for (const entry of readdirSync(stage)) {
      const to = join(target, entry);
      if (existsSync(to)) {
        const old = `${to}.phctl-old-${process.pid}`;
        renameSync(to, old);
        aside.push(old);
      }
      renameSync(join(stage, entry), to);
    }
    for (const old of aside) rmSync(old, { recursive: true, force: true });
    rmSync(stage, { recursive: true, force: true });
  } catch (e) {
    throw ioError(dir, e);
  }
  return { gitignore };
}
