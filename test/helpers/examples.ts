/**
 * Copies of the repository's examples/ for tests and benchmarks, without the state a run of
 * phctl leaves beside phctl.yaml (`.phctl/`: the embedded server's database, the apply
 * journal and its lock). The README's quick start applies and plans examples/ in place, so
 * a checkout may hold examples/.phctl; a test copying it along would start from that user's
 * state (a lock that is taken, a journal where the test expects none). Every copy of
 * examples/ goes through here (test/unit/copy-examples.test.ts checks that).
 */
import { cpSync } from "node:fs";
import { basename, resolve } from "node:path";

/** The repository's examples/ directory. */
export const EXAMPLES_DIR = resolve(import.meta.dirname, "../../examples");

/** The directory phctl keeps its state in, beside phctl.yaml. */
export const STATE_DIR = ".phctl";

/** Copy the config directory `from` (default examples/) to `to`, leaving out every `.phctl/`. */
export function copyExamples(to: string, from: string = EXAMPLES_DIR): void {
  cpSync(from, to, { recursive: true, filter: (src) => basename(src) !== STATE_DIR });
}
