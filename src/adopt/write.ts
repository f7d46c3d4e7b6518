/**
 * Write what adoption computed, file by file, each whole or not at all: the new text goes
 * to a temporary file beside the manifest (same mode) and is renamed over it; a file left
 * without documents is deleted. A file whose text is no longer the one adoption read (an
 * editor or a second job wrote it meanwhile) is refused and left as it is.
 */
import { readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { PhctlError } from "../errors.js";
import type { AdoptedFile } from "./index.js";

export interface WriteOutcome {
  written: string[];
  deleted: string[];
  refused: { file: string; why: string }[];
}

export function writeAdopted(files: readonly AdoptedFile[], cwd = process.cwd()): WriteOutcome {
  const out: WriteOutcome = { written: [], deleted: [], refused: [] };
  for (const f of files) {
    const path = resolve(cwd, f.file);
    let now: string;
    try {
      now = readFileSync(path, "utf8");
    } catch (e) {
      out.refused.push({ file: f.file, why: `cannot be read again (${code(e)})` });
      continue;
    }
    if (now !== f.before) {
      out.refused.push({ file: f.file, why: "changed while phctl adopted it" });
      continue;
    }
    if (f.after === undefined) {
      unlinkSync(path);
      out.deleted.push(f.file);
      continue;
    }
    const tmp = `${path}.phctl-adopt-${process.pid}`;
    try {
      writeFileSync(tmp, f.after, { mode: statSync(path).mode });
      renameSync(tmp, path);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw new PhctlError("WRITE_FAILED", `cannot write ${f.file}: ${code(e)}`, { cause: e });
    }
    out.written.push(f.file);
  }
  return out;
}

const code = (e: unknown) => (e as NodeJS.ErrnoException).code ?? String(e);
