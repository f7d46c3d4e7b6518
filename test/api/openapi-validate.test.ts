/**
 * The published OpenAPI document (`buildOpenApi()`, schemas/openapi.yaml, `phctl api
 * openapi`) passes an OpenAPI validator we did not write (@seriousme/openapi-schema-validator),
 * with and without an API profile; every example in it validates against its own schema;
 * and it states the limits the server enforces (issue 16, findings 4, 6, 7 and 9).
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildOpenApi } from "../../src/api/openapi.js";
import { loadApiProfile } from "../../src/api/profile-load.js";
import { operations } from "../../src/api/routes.js";
import { EMAIL_LIST_PATTERN, EMAIL_PATTERN } from "../../src/api/schemas.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const PROFILE = "profiles/example-api-profile.yaml";

type Json = Record<string, any>;
const METHODS = ["get", "post", "put", "patch", "delete"];

/** Every operation of a document as [method path, operation object]. */
function operationsOf(doc: Json): [string, Json][] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => m in item).map((m): [string, Json] => [`${m} ${path}`, item[m]]),
  );
}

/** Every (where, schema, example) of a document, $refs to components resolved. */
function examplesOf(doc: Json): { where: string; schema: Json; example: unknown }[] {
  const out: { where: string; schema: Json; example: unknown }[] = [];
  const deref = (x: Json): Json =>
    typeof x.$ref === "string"
      ? deref(
          x.$ref
            .split("/")
            .slice(1)
            .reduce((o: Json, k: string) => o[k], doc),
        )
      : x;
  const media = (where: string, content: Json | undefined) => {
    const m = content?.["application/json"];
    if (m) out.push({ where, schema: deref(m.schema), example: m.example });
  };
  for (const [where, op] of operationsOf(doc)) {
    media(`${where} request body`, op.requestBody?.content);
    for (const [status, r] of Object.entries(op.responses as Json))
      media(`${where} ${status}`, deref(r).content);
  }
  return out;
}

function ajv() {
  const a = new Ajv2020({ strict: false, allErrors: true });
  addFormats(a);
  return a;
}

describe("the OpenAPI document passes an independent validator", () => {
  // schemas/openapi.yaml is this document rendered (test/unit/generated.test.ts).
  it("as generated", async () => {
    const v = new Validator();
    const res = await v.validate(buildOpenApi());
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(v.version).toBe("3.1");
  });

  it("it catches a broken document (the check is live)", async () => {
    const doc = buildOpenApi() as Json;
    doc.paths["/v1/users"].get.responses["200"] = { content: {} };
    expect((await new Validator().validate(doc)).valid).toBe(false);
  });

  it("with the example API profile", async () => {
    const res = await new Validator().validate(buildOpenApi(loadApiProfile(PROFILE)));
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
  });
});

describe("examples", () => {
  for (const [name, doc] of [
    ["without a profile", buildOpenApi()],
    ["with the example profile", buildOpenApi(loadApiProfile(PROFILE))],
  ] as const) {
    it(`every operation has a response example and one per body, each valid (${name})`, () => {
      const d = doc as Json;
      const a = ajv();
      const bad: string[] = [];
      const all = examplesOf(d);
      for (const { where, schema, example } of all) {
        if (example === undefined) bad.push(`${where}: no example`);
        else if (!a.validate(schema, example)) bad.push(`${where}: ${a.errorsText(a.errors)}`);
      }
      expect(bad).toEqual([]);
      for (const [where, op] of operationsOf(d)) {
        if (op.requestBody)
          expect(op.requestBody.content["application/json"].example, where).toBeDefined();
        const success = Object.keys(op.responses as Json).filter((s) => /^2/.test(s));
        expect(success.length, where).toBeGreaterThan(0);
      }
      expect(all.length).toBeGreaterThan(operations.length);
    });
  }
});

describe("what the server enforces, the document says", () => {
  const doc = buildOpenApi() as Json;
  const op = (path: string, method: string) => doc.paths[path][method] as Json;
  const param = (o: Json, name: string) => (o.parameters as Json[]).find((p) => p.name === name)!;

  it("info.license and servers", () => {
    expect(doc.info.license).toEqual({ name: "Apache-2.0", identifier: "Apache-2.0" });
    expect(doc.servers[0].variables.base_url.default).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("finding 4: access.addUser answers 200 (admins, controllers, editors) and 201 (queued)", () => {
    const r = op("/v1/projects/{projectSlug}/{level}/users/{username}", "post").responses;
    expect(r["200"].content["application/json"].schema.required).toEqual(["status"]);
    expect(r["201"].content["application/json"].schema.required).toContain("queueid");
  });

  it("every operation documents its 4xx with the error envelope, never a bare default", () => {
    for (const [where, o] of operationsOf(doc)) {
      expect(Object.keys(o.responses), where).not.toContain("default");
      expect(Object.keys(o.responses), where).toContain("401");
      expect(Object.keys(o.responses), where).toContain("429");
    }
    expect(doc.components.responses.BadRequest.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Error",
    });
  });

  it("finding 6: a team name that becomes {teamname} is at most 100 characters at create", () => {
    const body = op("/v1/teams", "post").requestBody.content["application/json"].schema;
    expect(body.properties.name.maxLength).toBe(100);
    expect(param(op("/v1/teams/{teamname}", "get"), "teamname").schema.maxLength).toBe(100);
  });

  it("finding 7: sha pattern, strict dates, enumerated query parameters", () => {
    expect(param(op("/v1/metrics/git/search/{sha}", "get"), "sha").schema.pattern).toBe(
      "^[0-9a-fA-F]{7,40}$",
    );
    const start = param(op("/v1/projects/{projectSlug}/pipelines", "get"), "startDate").schema;
    expect(start.anyOf.map((s: Json) => s.format)).toEqual(["date", "date-time"]);
    const users = op("/v1/users", "get");
    expect(param(users, "status").schema.enum).toEqual(["active", "inactive"]);
    expect(param(users, "role").schema.enum).toContain("system-admin");
    expect(param(users, "service").schema.enum).toContain("gitservice");
    expect(param(op("/v1/teams", "get"), "serviceType").schema.enum).toHaveLength(3);
    const mirrors = op("/v1/projects/{projectSlug}/git/mirrors", "get");
    expect(new RegExp(param(mirrors, "frequency").schema.pattern).test("daily,weekly")).toBe(true);
    expect(new RegExp(param(mirrors, "status").schema.pattern).test("pending,nope")).toBe(false);
  });

  it("finding 7: one e-mail rule, the same as the manifest's `email` format", () => {
    const full = new RegExp(EMAIL_PATTERN);
    const list = new RegExp(EMAIL_LIST_PATTERN);
    const a = ajv();
    const format = a.compile({ type: "string", format: "email" });
    const local = fc.stringMatching(/^[a-zA-Z0-9.!#ä_-]{1,6}$/);
    const host = fc.stringMatching(/^[a-zA-Z0-9.ä-]{1,8}$/);
    fc.assert(
      fc.property(local, host, fc.constantFrom("", ".org", ".c"), (l, h, tld) => {
        const address = `${l}@${h}${tld}`;
        expect(full.test(address), address).toBe(format(address));
        expect(list.test(address), address).toBe(format(address));
        expect(list.test(`${address}, bob@example.org`), address).toBe(format(address));
      }),
      { seed: 16, numRuns: 400 },
    );
  });
});
