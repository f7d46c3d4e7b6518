#!/usr/bin/env node
/**
 * The phctl entry point. It loads as little as it can: `phctl --version` answers from here;
 * otherwise it loads the program (program.ts) with only the command being run. Built by
 * scripts/bundle.js, it loads one file: the bundle of that command (`bundle-<name>.cjs`, or
 * `bundle-all.cjs` for help and anything it is not sure of); built by tsc alone, it imports
 * program.js and the command's file. A bundle loads through its V8 code cache
 * (bundle-load.ts). A user error prints `phctl: <message>` (details with --verbose); a bug
 * prints the same line plus the stack with --verbose — through source maps, so the stack
 * names src/ files and lines. Never a token.
 */
import { VERSION } from "../version.js";
import { loadBundle } from "./bundle-load.js";
import type * as Program from "./program.js";
import type { Register } from "./program.js";

/**
 * Set by scripts/bundle.js from program.ts's own options: the global flags that take a value
 * and those that do not, and the command names.
 */
declare const PHCTL_BUNDLE:
  { valueFlags: string[]; flags: string[]; commands: string[] } | undefined;

// A closed pipe (`phctl … | head`) is not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw e;
  });
}

/** The bundle for `args`: the command's when every word before it is understood, else all. */
function bundleFor(args: readonly string[], b: NonNullable<typeof PHCTL_BUNDLE>): string {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith("-")) return b.commands.includes(a) ? a : "all";
    const eq = a.indexOf("=");
    if (b.valueFlags.includes(eq > 0 ? a.slice(0, eq) : a)) {
      if (eq < 0) i++;
    } else if (!b.flags.includes(a)) return "all";
  }
  return "all";
}

/** import() of a file next to this one, out of the bundler's sight (a bundle never takes it). */
const importHere = (file: string): Promise<unknown> => import(file);

async function start(argv: string[]): Promise<number> {
  if (typeof PHCTL_BUNDLE !== "undefined") {
    const file = `./bundle-${bundleFor(argv.slice(2), PHCTL_BUNDLE)}.cjs`;
    const bundle = loadBundle(new URL(file, import.meta.url)) as {
      start(a: string[]): Promise<number>;
    };
    return bundle.start(argv);
  }
  const { run } = (await importHere("./program.js")) as typeof Program;
  return run(argv, (names) =>
    Promise.all(
      names.map(async (name) => {
        const mod = (await importHere(`./${name}.js`)) as Record<string, Register>;
        return mod[`register${name[0].toUpperCase()}${name.slice(1)}`];
      }),
    ),
  );
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  process.stdout.write(`${VERSION}\n`);
} else {
  // Modules loaded from here on map their stack frames back to src/ (with --verbose only:
  // reading the maps costs time).
  if (args.includes("--verbose") || args.includes("-v")) process.setSourceMapsEnabled(true);
  start(process.argv).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`phctl: internal error: ${String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
