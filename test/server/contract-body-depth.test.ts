/**
 * Defect 5 of issue 34: a JSON body nested 10,000 deep was answered 500 ("internal error"):
 * `JSON.parse` took it, but the key walk of json-body.ts recursed once per level and
 * overflowed the stack (ajv and `JSON.stringify` would have next). Now a body nested deeper
 * than MAX_BODY_DEPTH (64) is 400 saying so, at any depth, through `inject()` and over a
 * socket; a body exactly 64 deep still goes through (artifact metadata is stored and read
 * back).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "undici";
import { MAX_BODY_DEPTH, nestingDepth } from "../../src/server/json-body.js";
import { seed } from "../../src/server/seed.js";
import { CONTRACT_TOKENS, contractServer, type ContractServer } from "./contract-helpers.js";

let t: ContractServer;
let url: string;
beforeAll(async () => {
  t = await contractServer();
  seed(t.server.ctx, { parentOrganization: "acme", projects: [{ slug: "deep", name: "Deep" }] });
  url = await t.server.listen();
});
afterAll(() => t.close());

/** `depth` levels of arrays (`[[…1…]]`) or objects (`{"a":{"a":…1}}`). */
const nested = (depth: number, kind: "array" | "object") =>
  kind === "array"
    ? "[".repeat(depth) + "1" + "]".repeat(depth)
    : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

const DEPTH_MESSAGE = new RegExp(`more than ${MAX_BODY_DEPTH} levels deep`);

async function post(path: string, payload: string, method = "POST") {
  const r = await t.server.app.inject({
    method: method as "POST",
    url: path,
    headers: {
      authorization: `Bearer ${CONTRACT_TOKENS.acme.secret}`,
      "content-type": "application/json",
    },
    payload,
  });
  return { status: r.statusCode, body: r.json() };
}

describe("defect 5: deeply nested bodies", () => {
  it("10,000 to 1,000,000 levels, arrays or objects, bare or in a field: 400 saying why", async () => {
    for (const depth of [10_000, 100_000, 1_000_000]) {
      for (const kind of ["array", "object"] as const) {
        for (const body of [
          nested(depth, kind),
          `{"name":"p-${depth}","description":${nested(depth, kind)}}`,
        ]) {
          const r = await post("/v1/projects", body);
          expect([r.status, r.body.status.message]).toEqual([
            400,
            expect.stringMatching(DEPTH_MESSAGE),
          ]);
          expect(r.body.errors).toEqual([{ field: "body", message: expect.any(String) }]);
        }
      }
    }
    expect((await t.call("GET", "/v1/projects?query=p-")).body.data).toEqual([]);
  });

  it("every method and operation with a body refuses it the same way (PUT, PATCH, another section)", async () => {
    const deep = nested(20_000, "object");
    expect((await post("/v1/projects/deep", deep, "PUT")).status).toBe(400);
    expect((await post("/v1/projects/deep", deep, "PATCH")).status).toBe(400);
    expect((await post("/v1/users", deep)).status).toBe(400);
    // a deep text that is not even JSON: still 400, never 500
    expect((await post("/v1/projects", "[".repeat(50_000))).status).toBe(400);
  });

  it("over a real socket: 400 in the envelope, and the server answers the next request", async () => {
    const headers = {
      authorization: `Bearer ${CONTRACT_TOKENS.acme.secret}`,
      "content-type": "application/json",
    };
    const res = await request(`${url}/v1/projects`, {
      method: "POST",
      headers,
      body: nested(10_000, "array"),
    });
    const body = (await res.body.json()) as { status: { code: number; message: string } };
    expect([res.statusCode, body.status.code]).toEqual([400, 400]);
    expect(body.status.message).toMatch(DEPTH_MESSAGE);
    const next = await request(`${url}/v1/projects/deep`, { headers });
    expect(next.statusCode).toBe(200);
    await next.body.dump();
  });

  it(`exactly ${MAX_BODY_DEPTH} levels are taken: artifact metadata that deep is stored and read back`, async () => {
    const repo = await t.call("POST", "/v1/projects/deep/artifactservice/repo", { body: {} });
    expect(repo.status).toBe(201);
    // the body is one level, metadata 63 more
    let metadata: unknown = 1;
    for (let i = 0; i < MAX_BODY_DEPTH - 1; i++) metadata = { a: metadata };
    const body = { sourceFilePath: "s", destinationFilePath: "d/f.bin", metadata };
    expect(nestingDepth(JSON.stringify(body), 100)).toBe(MAX_BODY_DEPTH);
    const base = `/v1/projects/deep/artifactservice/${repo.body.data.id}`;
    const up = await t.call("POST", `${base}/file`, { body });
    expect(up.status).toBe(201);
    const got = await t.call("GET", `${base}/file/d/f.bin`);
    expect(got.body.data.metadata).toEqual(metadata);
    const deeper = await t.call("PATCH", `${base}/file/d/f.bin`, {
      body: { metadata: { b: metadata } },
    });
    expect([deeper.status, deeper.body.status.message]).toEqual([
      400,
      expect.stringMatching(DEPTH_MESSAGE),
    ]);
  });
});

describe("nestingDepth", () => {
  it("counts brackets outside strings only, escapes included, and stops past the limit", () => {
    expect(nestingDepth('{"a":[1,{"b":2}]}', 10)).toBe(3);
    expect(nestingDepth('{"a":"[[[{{{"}', 10)).toBe(1);
    expect(nestingDepth('{"a":"\\"[[[["}', 10)).toBe(1);
    expect(nestingDepth('["\\\\",[[]]]', 10)).toBe(3);
    expect(nestingDepth("1", 10)).toBe(0);
    expect(nestingDepth("[".repeat(1000), 5)).toBe(6);
  });
});
