/**
 * One error envelope, `{status: {code, message}, errors?}`, for every error the server
 * answers — the handlers' HttpErrors and fastify's and Node's own: a JSON body that does
 * not parse, an unsupported content type (415), a body over the limit (413), a path that
 * is not valid percent-encoded UTF-8 (400), a path parameter over 100 characters (414),
 * headers over Node's limit (431, answered from the socket: Node's HTTP parser refuses
 * them before fastify sees a request), a method the path does not have (405 with `Allow`)
 * and an unknown path (404).
 */
import { maxHeaderSize, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AllowedMethods } from "./allowed-methods.js";
import { errorBody, HttpError } from "./errors.js";
import { mapValidation, type AjvError } from "./validation-errors.js";

/** Largest request body, bytes (fastify's `bodyLimit`); larger is 413. */
export const BODY_LIMIT = 10 * 1024 * 1024;

/** Longest path parameter the router accepts (find-my-way's `maxParamLength`); longer is 414. */
export const MAX_PARAM_LENGTH = 100;

/** The request's path without its query string, shortened for a message. */
function shownPath(url: string): string {
  const path = url.split("?")[0];
  return path.length > 160 ? `${path.slice(0, 120)}…(${path.length} characters)` : path;
}

const noOperation = (req: FastifyRequest) =>
  errorBody(404, `no operation ${req.method} ${shownPath(req.url)}`);

/** Clearer words for fastify's own body errors (their codes are in fastify's lib/errors.js). */
function fastifyMessage(code: string | undefined, req: FastifyRequest): string | undefined {
  if (code === "FST_ERR_CTP_INVALID_MEDIA_TYPE")
    return `content type ${req.headers["content-type"] ?? "(none)"} is not supported: send application/json`;
  if (code === "FST_ERR_CTP_BODY_TOO_LARGE")
    return `the body is larger than the server accepts (${BODY_LIMIT} bytes)`;
  return undefined;
}

/** The error handler of every route: HttpErrors, validation, SQLite constraints, fastify's 4xx. */
export function sendError(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof HttpError) {
    if (err.headers) void reply.headers(err.headers);
    return reply.code(err.statusCode).send(errorBody(err.statusCode, err.message, err.errors));
  }
  const e = err as {
    validation?: AjvError[];
    validationContext?: string;
    statusCode?: number;
    code?: string;
    message?: string;
  };
  if (e.validation) {
    // A path parameter of the wrong type (a word for an integer id): no such object.
    if (e.validationContext === "params") return reply.code(404).send(noOperation(req));
    const m = mapValidation(
      e.validation,
      e.validationContext,
      req.method,
      req.routeOptions.config?.queryNames,
    );
    return reply.code(m.status).send(errorBody(m.status, m.message, m.errors));
  }
  if (e.code === "SQLITE_CONSTRAINT_UNIQUE" || e.code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    return reply.code(409).send(errorBody(409, "conflict: the object already exists"));
  }
  if (e.code === "SQLITE_CONSTRAINT_FOREIGNKEY") {
    return reply.code(422).send(errorBody(422, "a referenced object does not exist"));
  }
  if (typeof e.statusCode === "number" && e.statusCode >= 400 && e.statusCode < 500) {
    const message = fastifyMessage(e.code, req) ?? e.message ?? "bad request";
    return reply.code(e.statusCode).send(errorBody(e.statusCode, message));
  }
  req.log.error(err);
  return reply.code(500).send(errorBody(500, "internal error"));
}

/**
 * fastify's router errors (its `frameworkErrors` option): a path that does not decode
 * (400) and a path parameter over the router's limit (414). They never reach a route, so
 * no hook runs: `answered` is told, for the request log.
 */
export function frameworkErrorHandler(answered: (req: FastifyRequest, status: number) => void) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply): void => {
    const [status, message] =
      err.code === "FST_ERR_MAX_PARAM_LENGTH"
        ? [
            414,
            `a path parameter of ${shownPath(req.url)} is longer than ${MAX_PARAM_LENGTH} characters`,
          ]
        : [
            400,
            `the path ${shownPath(req.url)} is not valid: percent-encoding must be complete and decode to UTF-8`,
          ];
    void reply.code(status).send(errorBody(status, message));
    answered(req, status);
  };
}

/**
 * Errors of a connection before fastify has a request (the server's `clientError`):
 * headers over the limit (431), a request Node cannot parse (400), a request that took too
 * long to arrive (408). Written to the socket in the envelope, then the socket is closed.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  const [status, message] =
    err.code === "HPE_HEADER_OVERFLOW"
      ? [
          431,
          `the request's headers are larger than the server accepts (${maxHeaderSize} bytes in all)`,
        ]
      : err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "the request did not arrive in time"]
        : [400, "the request is not valid HTTP/1.1"];
  const body = JSON.stringify(errorBody(status, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        "Content-Type: application/json; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/**
 * The error handler, the 404/405 handler and the body parsers: JSON only (fastify also
 * parses text/plain by default, which made a text body a 400 "must be object" instead of
 * 415), and every error in the envelope.
 */
export function installErrorHandling(app: FastifyInstance, allowed: AllowedMethods): void {
  app.removeContentTypeParser("text/plain");
  app.setErrorHandler((err: unknown, req, reply) => sendError(err, req, reply));
  app.setNotFoundHandler((req, reply) => {
    const methods = allowed.at(req.url.split("?")[0]);
    if (methods.length === 0) return reply.code(404).send(noOperation(req));
    return reply
      .code(405)
      .header("allow", methods.join(", "))
      .send(
        errorBody(
          405,
          `${req.method} is not an operation of ${shownPath(req.url)}; it has ${methods.join(", ")}`,
        ),
      );
  });
}
