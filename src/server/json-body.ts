/**
 * The JSON body parser (in place of fastify's): a body is UTF-8 JSON, and what cannot be
 * stored as sent is refused with a message saying what is wrong rather than mended or
 * misnamed —
 * - a `charset` other than UTF-8 is 415 naming it (fastify read a UTF-16 body as UTF-8);
 * - bytes that are not UTF-8 are 400 (they were replaced by U+FFFD);
 * - an unpaired surrogate (`"\ud800"`: JSON escapes UTF-16, so it can say what is not a
 *   character) is 400 naming the field (SQLite stored it as three U+FFFD);
 * - a `__proto__` key, or `constructor.prototype`, is 400 saying the key is not allowed
 *   (fastify's secure-json-parse refuses them as "Body is not valid JSON"). `JSON.parse`
 *   makes them plain own properties, but a merge (metadata PATCH) could give one to an
 *   object's prototype, so they never reach a handler;
 * - arrays and objects nested deeper than `MAX_BODY_DEPTH` are 400 saying so. `JSON.parse`
 *   itself is iterative, but what reads a body after it recurses (the key walk below, ajv,
 *   the metadata merge, `JSON.stringify`): at about 10,000 levels each overflowed the stack,
 *   a RangeError that answered 500. The depth is measured on the text, before parsing, so a
 *   deep body costs one pass over its characters and no allocation.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { errorCodes } from "fastify";
import { HttpError } from "./errors.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The deepest nesting of arrays and objects a body may have. The API's own bodies nest
 * fewer than 10 levels (a seed document through /_control/seed the most); artifact
 * metadata is free-form, and 64 leaves it room (System.Text.Json's default limit).
 */
export const MAX_BODY_DEPTH = 64;

/**
 * How deep `text` nests `[` and `{` outside strings; the scan stops as soon as it passes
 * `limit` (and answers `limit + 1`). Any text is scanned, JSON or not: brackets need not
 * balance.
 */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** The charset parameter of a content type, lower-cased and unquoted, or undefined. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType ?? "");
  return m ? m[2].toLowerCase() : undefined;
}

const UTF8_NAMES = new Set(["utf-8", "utf8"]);

/** An unpaired surrogate (with the `u` flag a pair is one code point and does not match). */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

const hex = (s: string) => `\\u${s.charCodeAt(0).toString(16)}`;

function refused(message: string, field: string): HttpError {
  return new HttpError("BAD_REQUEST", message, [{ field, message }]);
}

/** Throw for the first forbidden key or unpaired surrogate under `value`. */
function walk(value: unknown, path: string[]): void {
  if (typeof value === "string") {
    const lone = LONE_SURROGATE.exec(value);
    if (lone) {
      const field = path.join(".") || "body";
      throw refused(
        `the body has an unpaired surrogate (${hex(lone[0])}) in ${field}: it is half of a UTF-16 pair, not a character; send whole characters`,
        field,
      );
    }
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [k, v] of Object.entries(value)) {
    const at = [...path, k];
    const forbidden =
      k === "__proto__"
        ? at
        : k === "constructor" &&
            typeof v === "object" &&
            v !== null &&
            Object.hasOwn(v, "prototype")
          ? [...at, "prototype"]
          : undefined;
    if (forbidden) {
      const field = forbidden.join(".");
      throw refused(`the body key ${field} is not allowed (it names an object's prototype)`, field);
    }
    if (LONE_SURROGATE.test(k)) walk(k, at);
    walk(v, at);
  }
}

/** Parse a JSON body as described above; throws the answer's error. */
export function parseJsonBody(contentType: string | undefined, raw: Buffer): unknown {
  const charset = charsetOf(contentType);
  if (charset !== undefined && !UTF8_NAMES.has(charset)) {
    throw new HttpError(
      "UNSUPPORTED_MEDIA_TYPE",
      `charset ${charset} is not supported: send the body in UTF-8 (application/json; charset=utf-8)`,
    );
  }
  if (raw.length === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new HttpError("BAD_REQUEST", "the body is not valid UTF-8: send JSON in UTF-8");
  }
  if (nestingDepth(text, MAX_BODY_DEPTH) > MAX_BODY_DEPTH) {
    throw refused(
      `the body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep; the server accepts at most ${MAX_BODY_DEPTH}: send a flatter body`,
      "body",
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
  // Every body is walked: a key can be spelled with escapes (`"\u005f_proto__"`), so no
  // cheap test of the text would do.
  walk(body, []);
  return body;
}

/** Replace fastify's JSON parser with `parseJsonBody`. */
export function installJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser(
    "application/json",
    { parseAs: "buffer" },
    (req: FastifyRequest, raw: Buffer, done: (err: Error | null, body?: unknown) => void) => {
      try {
        done(null, parseJsonBody(req.headers["content-type"], raw));
      } catch (err) {
        done(err as Error);
      }
    },
  );
}
