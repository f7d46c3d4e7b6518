#!/usr/bin/env node
/**
 * The phctl entry point: run the program, and turn errors into one line and an exit code.
 * A user error prints `phctl: <message>` (details with --verbose); a bug prints the same
 * line plus the stack with --verbose. Never a token.
 */
import { CommanderError } from "commander";
import { PhctlError } from "../errors.js";
import { buildProgram } from "./program.js";
import { redact } from "./redact.js";

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  const verbose = argv.includes("--verbose") || argv.includes("-v");
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    if (e instanceof PhctlError) {
      process.stderr.write(`phctl: ${redact(e.message)}\n`);
      if (verbose) for (const d of e.details) process.stderr.write(`  ${redact(d)}\n`);
      if (verbose && e.source === "internal" && e.stack)
        process.stderr.write(`${redact(e.stack)}\n`);
      return e.exitCode;
    }
    const err = e instanceof Error ? e : new Error(String(e));
    process.stderr.write(`phctl: internal error: ${redact(err.message)}\n`);
    if (verbose && err.stack) process.stderr.write(`${redact(err.stack)}\n`);
    else process.stderr.write("phctl: run again with --verbose for details\n");
    return 1;
  }
}

// A closed pipe (`phctl … | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw e;
  });
}

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  () => {
    process.exitCode = 1;
  },
);
