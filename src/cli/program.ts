/**
 * The commander program: global options and one file per command, and run(), which turns
 * errors into one line and an exit code. Commands print through src/cli and src/render only;
 * everything else returns data or throws typed errors.
 *
 * Only the command being run is registered: the first word of the command line that is not a
 * global option or its value names it. Help, no command and an unknown word register every
 * command, in the order --help lists them. How a command's file is loaded is the caller's:
 * main.ts imports it (tsc's build) or is a bundle that holds it (scripts/bundle.js).
 */
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { PhctlError } from "../errors.js";
import { VERSION } from "../version.js";
import { guardOutput, redact, registerEnvironmentSecrets, registerSecret } from "../secrets.js";
import { escapeHiddenLines } from "../visible.js";

/** A message as printed: no token, hidden characters of quoted values visible. */
const shown = (s: string) => escapeHiddenLines(redact(s));

/** Registers one command on the program. */
export type Register = (program: Command) => void;

/** Every command, in help order (each in src/cli/<name>.ts, registered by register<Name>). */
export const COMMAND_NAMES = [
  "serve",
  "api",
  "validate",
  "explain",
  "render",
  "policy",
  "owners",
  "schema",
  "plan",
  "drift",
  "apply",
  "unlock",
  "comment",
  "export",
  "doctor",
  "report",
] as const;

/** The registers of the named commands. */
export type LoadCommands = (names: readonly string[]) => Promise<Register[]>;

export function globalProgram(): Command {
  return new Command("phctl")
    .description(
      "Manage the project-hosting service as code: validate, plan, apply, drift, export — and a reference server.",
    )
    .version(VERSION)
    .option("--api-url <url>", "administration API base URL (env PHCTL_API_URL)")
    .option("--token-file <file>", "file holding the bearer token (else env PHCTL_TOKEN)")
    .option("--git-api-url <url>", "delivery-metrics API base URL (token in env PHCTL_GIT_TOKEN)")
    .option("-v, --verbose", "more detail on errors and API calls")
    .option("--no-color", "no colour (also NO_COLOR)")
    .option("--json", "structured log lines for CI")
    .option(
      "--max-rps <n>",
      "API requests per second at most (env PHCTL_MAX_RPS, else maxRps: in phctl.yaml; 0 = no throttle)",
    )
    .option(
      "--api-profile <file>",
      "API profile: the service's paths and envelopes where they differ (else apiProfile: in phctl.yaml)",
    )
    .exitOverride()
    .configureOutput({
      writeErr: (s) => process.stderr.write(s),
      writeOut: (s) => process.stdout.write(s),
    })
    .showHelpAfterError("(run phctl --help for usage)");
}

/** The command word of `args` (argv without node and script), if it names a command. */
export function commandOf(program: Command, args: readonly string[]): string | undefined {
  const takesValue = new Set<string>();
  for (const o of program.options)
    if (o.required || o.optional) for (const f of [o.long, o.short]) if (f) takesValue.add(f);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") return undefined;
    if (!a.startsWith("-") || a === "-")
      return (COMMAND_NAMES as readonly string[]).includes(a) ? a : undefined;
    if (takesValue.has(a)) i++;
  }
  return undefined;
}

/** The program with the command of `argv` registered (every command for help or unknown input). */
export async function buildProgram(argv: readonly string[], load: LoadCommands): Promise<Command> {
  const program = globalProgram();
  const wanted = commandOf(program, argv.slice(2));
  for (const register of await load(wanted ? [wanted] : COMMAND_NAMES)) register(program);
  for (const c of program.commands) c.exitOverride();
  return program;
}

/**
 * The token of `--token-file`, registered before the command runs (whether it uses the file
 * or not); a file that cannot be read is the command's to report, when it reads it.
 */
function registerTokenFile(file: string | undefined): void {
  if (!file) return;
  try {
    // The token is the file's first non-empty line (config.ts reads it the same way).
    registerSecret(
      readFileSync(file, "utf8")
        .split(/\r?\n/)
        .find((l) => l.trim() !== ""),
    );
  } catch {
    // Not readable: connect() says so, for the commands that need it.
  }
}

/** Run phctl on `argv`; the exit code. A user error is one line (details with --verbose). */
export async function run(argv: string[], load: LoadCommands): Promise<number> {
  const verbose = argv.includes("--verbose") || argv.includes("-v");
  // Before anything can print: every credential phctl knows is masked in every output.
  guardOutput(process.stdout);
  guardOutput(process.stderr);
  registerEnvironmentSecrets();
  try {
    const program = await buildProgram(argv, load);
    program.hook("preAction", (_program, command) => {
      registerTokenFile(command.optsWithGlobals<{ tokenFile?: string }>().tokenFile);
    });
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode;
    if (e instanceof PhctlError) {
      process.stderr.write(`phctl: ${shown(e.message)}\n`);
      if (verbose) for (const d of e.details) process.stderr.write(`  ${shown(d)}\n`);
      if (verbose && e.source === "internal" && e.stack)
        process.stderr.write(`${redact(e.stack)}\n`);
      return e.exitCode;
    }
    const err = e instanceof Error ? e : new Error(String(e));
    process.stderr.write(`phctl: internal error: ${shown(err.message)}\n`);
    if (verbose && err.stack) process.stderr.write(`${redact(err.stack)}\n`);
    else process.stderr.write("phctl: run again with --verbose for details\n");
    return 1;
  }
}
