/**
 * Runtime errors of phctl. Each has a stable `code` and a `source`: `user` (bad input, a
 * refused plan, a server that said no — a one-line message, exit 1, no stack trace) or
 * `internal` (a bug — shown with details under --verbose). Only the CLI's main() turns
 * them into text and an exit code. Messages never contain a token.
 */
export type ErrorSource = "user" | "internal";

export class PhctlError extends Error {
  readonly code: string;
  readonly source: ErrorSource;
  /** Extra lines shown with --verbose. */
  readonly details: readonly string[];
  /** Process exit code main() uses (default 1). */
  readonly exitCode: number;

  constructor(
    code: string,
    message: string,
    opts: {
      source?: ErrorSource;
      details?: readonly string[];
      exitCode?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "PhctlError";
    this.code = code;
    this.source = opts.source ?? "user";
    this.details = opts.details ?? [];
    this.exitCode = opts.exitCode ?? 1;
  }
}

/** A user mistake: bad flag, unreadable file, invalid input. */
export function userError(code: string, message: string, details?: readonly string[]): PhctlError {
  return new PhctlError(code, message, details ? { details } : {});
}
