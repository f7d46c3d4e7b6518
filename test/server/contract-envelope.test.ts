/**
 * Finding 5 of issue 16: fastify's and Node's own errors answered another shape
 * (`{error, code, message, statusCode}`) — bad percent-encoding or invalid UTF-8 in a path,
 * a path parameter over 100 characters, oversized headers. Now every answer is the one
 * envelope `{status: {code, message}}`, checked over a real loopback socket with raw
 * HTTP/1.1 (no client library that could fix up the request).
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer, type PhServer } from "../../src/server/app.js";
import { CONTRACT_TOKENS } from "./contract-helpers.js";

let server: PhServer;
let port: number;
beforeAll(async () => {
  server = await buildServer({ tokens: Object.values(CONTRACT_TOKENS) });
  port = Number(new URL(await server.listen(0, "127.0.0.1")).port);
});
afterAll(() => server.close());

interface RawAnswer {
  status: number;
  headers: string;
  body: any;
}

/** Send raw bytes, read until the server closes; the status, header block and JSON body. */
function raw(request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on("data", (b: Buffer) => chunks.push(b));
    socket.on("error", () => undefined); // the server may reset after answering
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [head, ...rest] = text.split("\r\n\r\n");
      const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (!m) return reject(new Error(`no HTTP answer: ${JSON.stringify(text)}`));
      resolve({ status: Number(m[1]), headers: head, body: JSON.parse(rest.join("\r\n\r\n")) });
    });
  });
}

const HEAD = `Host: 127.0.0.1\r\nAuthorization: Bearer ${CONTRACT_TOKENS.acme.secret}\r\nConnection: close\r\n`;

function expectEnvelope(r: RawAnswer, status: number, message: RegExp) {
  expect(r.status).toBe(status);
  expect(Object.keys(r.body)).toEqual(["status"]);
  expect(r.body.status.code).toBe(status);
  expect(r.body.status.message).toMatch(message);
  expect(r.headers).toMatch(/content-type: application\/json/i);
}

describe("finding 5: fastify's and Node's own errors answer the one envelope", () => {
  it("bad percent-encoding and invalid UTF-8 in a path are 400", async () => {
    for (const path of ["/v1/projects/%zz", "/v1/projects/%ff%fe", "/v1/projects/a%"]) {
      expectEnvelope(
        await raw(`GET ${path} HTTP/1.1\r\n${HEAD}\r\n`),
        400,
        /not valid: percent-encoding/,
      );
    }
  });

  it("a path parameter over 100 characters is 414; 100 characters is an ordinary 404", async () => {
    const long = await raw(`GET /v1/projects/${"a".repeat(101)} HTTP/1.1\r\n${HEAD}\r\n`);
    expectEnvelope(long, 414, /longer than 100 characters/);
    const fits = await raw(`GET /v1/projects/${"a".repeat(100)} HTTP/1.1\r\n${HEAD}\r\n`);
    expectEnvelope(fits, 404, /not found/);
  });

  it("headers over Node's limit are 431", async () => {
    const r = await raw(`GET /v1/projects HTTP/1.1\r\n${HEAD}X-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expectEnvelope(r, 431, /headers are larger than the server accepts/);
  });

  it("a request Node cannot parse is 400", async () => {
    expectEnvelope(await raw("NOT HTTP AT ALL\r\n\r\n"), 400, /not valid HTTP/);
  });

  it("body errors: broken JSON 400, empty JSON 400, another content type 415, too large 413", async () => {
    const post = (headers: string, body = "") =>
      raw(
        `POST /v1/projects HTTP/1.1\r\n${HEAD}${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    expectEnvelope(await post("Content-Type: application/json\r\n", "{bad"), 400, /not valid JSON/);
    expectEnvelope(await post("Content-Type: application/json\r\n"), 400, /empty/i);
    expectEnvelope(
      await post("Content-Type: text/plain\r\n", "hello"),
      415,
      /content type text\/plain is not supported/,
    );
    const big = await raw(
      `POST /v1/projects HTTP/1.1\r\n${HEAD}Content-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024 + 1}\r\n\r\n{}`,
    );
    expectEnvelope(big, 413, /larger than the server accepts/);
  });
});
