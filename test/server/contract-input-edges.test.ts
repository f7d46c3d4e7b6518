/**
 * Defect 7 of issue 26 (server input edges): a JSON lone surrogate was stored as three
 * U+FFFD, a `__proto__` key was answered "Body is not valid JSON", a body declared
 * `charset=utf-16` was read as UTF-8, and a token with a space was answered "missing
 * bearer token". Each is now an answer that says what is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTokenSpec } from "../../src/server/auth.js";
import { CONTRACT_TOKENS, contractServer, type ContractServer } from "./contract-helpers.js";

let t: ContractServer;
beforeAll(async () => {
  t = await contractServer();
});
afterAll(() => t.close());

/** POST a raw body to projects.create. */
async function post(payload: string | Buffer, contentType = "application/json") {
  const r = await t.server.app.inject({
    method: "POST",
    url: "/v1/projects",
    headers: {
      authorization: `Bearer ${CONTRACT_TOKENS.acme.secret}`,
      "content-type": contentType,
    },
    payload,
  });
  return { status: r.statusCode, body: r.json() };
}

describe("defect 7: body edges", () => {
  it("a lone surrogate in a string is 400 naming the field, and nothing is created", async () => {
    const r = await post('{"name":"\\ud800x","description":"d","projectSlug":"lone"}');
    expect(r.status).toBe(400);
    expect(r.body.status.message).toMatch(/unpaired surrogate \(\\ud800\) in name/);
    expect(r.body.errors).toEqual([{ field: "name", message: expect.stringMatching(/unpaired/) }]);
    const low = await post('{"name":"ok","description":"a\\udc00","projectSlug":"lone"}');
    expect([low.status, low.body.errors?.[0]?.field]).toEqual([400, "description"]);
    const key = await post('{"name":"ok","description":"d","x\\ud800":1}');
    expect(key.status).toBe(400);
    expect(key.body.status.message).toMatch(/unpaired surrogate/);
    expect((await t.call("GET", "/v1/projects/lone")).status).toBe(404);
    // A pair is one character and is kept.
    const pair = await post('{"name":"\\ud83d\\ude00","description":"d","projectSlug":"pair"}');
    expect(pair.status).toBe(201);
    expect((await t.call("GET", "/v1/projects/pair")).body.data.name).toBe("😀");
  });

  it("bytes that are not UTF-8 are 400 saying so", async () => {
    const r = await post(Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
    expect([r.status, r.body.status.message]).toEqual([
      400,
      expect.stringMatching(/not valid UTF-8/),
    ]);
  });

  it("a __proto__ key is 400 saying __proto__ is not allowed, never 'not valid JSON'", async () => {
    for (const body of [
      '{"__proto__":{"admin":true},"name":"p","description":"d"}',
      '{"name":"p","description":"d","organization":"acme","x":{"__proto__":1}}',
      '{"name":"p","description":"d","constructor":{"prototype":{"admin":true}}}',
      '{"\\u005f_proto__":{"admin":true},"name":"p","description":"d"}',
    ]) {
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(r.body.status.message).toMatch(/(__proto__|constructor\.prototype).* is not allowed/);
      expect(r.body.status.message).not.toMatch(/not valid JSON/);
    }
    const deep = await post('{"name":"p","description":"d","x":{"__proto__":1}}');
    expect(deep.body.errors).toEqual([{ field: "x.__proto__", message: expect.any(String) }]);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    // A key merely named constructor is an ordinary unknown field.
    const plain = await post('{"name":"p","description":"d","constructor":1}');
    expect([plain.status, plain.body.errors]).toEqual([
      400,
      [{ field: "constructor", message: "unknown field" }],
    ]);
  });

  it("a charset other than UTF-8 is 415 naming it; utf-8 in any case is read", async () => {
    const body = '{"name":"Cs","description":"d","projectSlug":"cs"}';
    for (const charset of ["utf-16", "UTF-16LE", "iso-8859-1", '"latin1"']) {
      const r = await post(body, `application/json; charset=${charset}`);
      expect([charset, r.status, r.body.status.message]).toEqual([
        charset,
        415,
        expect.stringMatching(
          new RegExp(`charset ${charset.replace(/"/g, "").toLowerCase()} .*send the body in UTF-8`),
        ),
      ]);
    }
    expect((await post(body, "application/json; charset=UTF-8")).status).toBe(201);
    const utf8 = await post('{"name":"Cs8","description":"d"}', 'application/json;charset="utf-8"');
    expect(utf8.status).toBe(201);
  });
});

describe("defect 7: malformed tokens", () => {
  const get = async (headers: Record<string, string>, url = "/v1/projects") => {
    const r = await t.server.app.inject({ method: "GET", url, headers });
    return { status: r.statusCode, message: r.json().status?.message as string, raw: r.body };
  };

  it("a bearer token with a space or another character no token has is 401 'malformed'", async () => {
    for (const value of [
      "Bearer c-acme x",
      "Bearer c-ac\tme",
      'Bearer "c-acme"',
      "Bearer c-acmé",
    ]) {
      const r = await get({ authorization: value });
      expect([value, r.status, r.message]).toEqual([
        value,
        401,
        expect.stringMatching(/^the bearer token is malformed/),
      ]);
      expect(r.raw).not.toContain("c-ac");
    }
  });

  it("another scheme says Bearer is wanted; no token at all is still 'missing'", async () => {
    const basic = await get({ authorization: "Basic YWxhZGRpbg==" });
    expect([basic.status, basic.message]).toEqual([401, expect.stringMatching(/Bearer/)]);
    expect(basic.message).not.toMatch(/missing/);
    const bare = await get({ authorization: "c-acme" });
    expect(bare.raw).not.toContain("c-acme");
    expect((await get({})).message).toBe("missing bearer token");
    expect((await get({ authorization: "Bearer" })).message).toBe("missing bearer token");
    expect((await get({ authorization: "bearer  c-acme" })).status).toBe(200);
  });

  it("a PRIVATE-TOKEN with a space is 401 'malformed' too", async () => {
    const r = await get({ "private-token": "c-acme x" }, "/git-api/projects/1/dora/metrics");
    expect([r.status, r.message]).toEqual([401, expect.stringMatching(/PRIVATE-TOKEN.*malformed/)]);
  });

  it("a configured secret a client could not send as a bearer token is refused at start", () => {
    expect(() => parseTokenSpec("two words:member:acme")).toThrow(/secret/);
    expect(parseTokenSpec("a.b_c~d+e/f==:member:acme").secret).toBe("a.b_c~d+e/f==");
  });
});
