/**
 * Writing a file whole or not at all, for every file phctl leaves behind for a later step
 * (a saved plan, the apply result, drift's state and metrics): a reader never sees half of
 * one, even when phctl is killed while writing it.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { PhctlError } from "../errors.js";
import { redact } from "../secrets.js";

/**
 * Write a file whole or not at all (temp file + rename), every credential masked (a JSON
 * file's data is masked value by value before it is serialised: see src/secrets.ts);
 * WRITE_FAILED names the file.
 */
export function writeAtomically(file: string, text: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, redact(text));
    renameSync(tmp, file);
  } catch (e) {
    throw new PhctlError(
      "WRITE_FAILED",
      `cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
    );
  }
}
