/**
 * Every error the reference server can answer, in one table (as fastify's lib/errors.js):
 * a stable code, the HTTP status, and the body `{status: {code, message}, errors?}`.
 */
import type { Static } from "@sinclair/typebox";
import type { FieldError } from "../api/schemas.js";

export const ERROR_CODES = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RULE_VIOLATED: 422,
  RATE_LIMITED: 429,
  FORK_CLEANUP: 500,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** An error a handler throws to answer the client; anything else is a 500 INTERNAL. */
export class HttpError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: Static<typeof FieldError>[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "HttpError";
    this.statusCode = ERROR_CODES[code];
  }
}

export const badRequest = (message: string, field?: string) =>
  new HttpError("BAD_REQUEST", message, field ? [{ field, message }] : undefined);
export const notFound = (what: string) => new HttpError("NOT_FOUND", `${what} not found`);
export const conflict = (message: string, field?: string) =>
  new HttpError("CONFLICT", message, field ? [{ field, message }] : undefined);
export const ruleViolated = (message: string, field?: string) =>
  new HttpError("RULE_VIOLATED", message, field ? [{ field, message }] : undefined);
export const forbidden = (message: string) => new HttpError("FORBIDDEN", message);

/** The JSON body of an error answer. */
export function errorBody(
  statusCode: number,
  message: string,
  errors?: Static<typeof FieldError>[],
) {
  return errors && errors.length > 0
    ? { status: { code: statusCode, message }, errors }
    : { status: { code: statusCode, message } };
}
