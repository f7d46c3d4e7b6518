/**
 * Finding 8 of issue 16 (loose parsing): pipeline date filters read `foo 1`, `-1` and `1`
 * as dates (all 2001-01-01), and a method the API does not have answered 404. Now a date
 * filter is exactly YYYY-MM-DD or an RFC 3339 date-time (else 400 naming the parameter),
 * and a known path with another method is 405 with `Allow`. Finding 9's serving part: the
 * OpenAPI document is served at /openapi.json and /openapi.yaml.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseStrictDate } from "../../src/server/dates.js";
import { contractServer, type ContractServer } from "./contract-helpers.js";

let t: ContractServer;
beforeAll(async () => {
  t = await contractServer({ control: true });
  const seeded = await t.call("POST", "/_control/seed", {
    body: {
      users: [
        {
          username: "old",
          firstName: "O",
          lastName: "L",
          externalEmail: "o@example.org",
          dateCreated: "2020-01-15T10:00:00.000Z",
        },
      ],
      projects: [
        {
          slug: "web",
          name: "Web",
          pipelines: [
            { status: "success", ref: "main", created: "2026-01-10T10:00:00.000Z", duration: 60 },
            { status: "failed", ref: "main", created: "2026-01-11T10:00:00.000Z", duration: 30 },
          ],
        },
      ],
    },
  });
  expect(seeded.status).toBe(200);
});
afterAll(() => t.close());

const q = encodeURIComponent;

describe("finding 8: strict date filters", () => {
  it("pipeline and user date filters refuse what is not exactly a date (400 naming the parameter)", async () => {
    const cases: [string, string][] = [
      ["/v1/projects/web/pipelines", "startDate"],
      ["/v1/projects/web/pipelines", "endDate"],
      ["/v1/metrics/projects/web/ci/pipelines", "startDate"],
      ["/v1/metrics/projects/web/ci/pipelines/counts", "endDate"],
      ["/v1/users", "createdAt"],
    ];
    for (const [path, param] of cases) {
      for (const bad of [
        "foo 1",
        "-1",
        "1",
        "2026-02-30",
        "2026-1-5",
        "2026-01-10T10:00Z",
        "2026-01-10 10:00:00Z",
        "",
      ]) {
        const r = await t.call("GET", `${path}?${param}=${q(bad)}`);
        expect(r.status, `${path} ${param}=${bad}`).toBe(400);
        expect(r.body.errors[0].field).toBe(param);
        expect(r.body.status.message).toContain(param);
      }
    }
  });

  it("YYYY-MM-DD and RFC 3339 date-times are read as such", async () => {
    const ids = async (query: string) =>
      (await t.call("GET", `/v1/projects/web/pipelines?${query}`)).body.map(
        (p: { status: string }) => p.status,
      );
    expect(await ids("startDate=2026-01-11")).toEqual(["failed"]);
    expect(await ids("endDate=2026-01-10")).toEqual(["success"]);
    expect(
      await ids(`startDate=${q("2026-01-10T11:00:00+01:00")}&endDate=2026-01-10T10:00:00.000Z`),
    ).toEqual(["success"]);
    const users = await t.call("GET", `/v1/users?createdAt=${q("2020-01-01 TO 2020-01-31")}`);
    expect(users.body.data.map((u: { username: string }) => u.username)).toEqual(["old"]);
    expect(parseStrictDate("2024-02-29")).toEqual({ ms: Date.UTC(2024, 1, 29), dateOnly: true });
    expect(parseStrictDate("2023-02-29")).toBeUndefined();
    expect(parseStrictDate("2026-01-31t12:00:00.5z")?.ms).toBe(
      Date.UTC(2026, 0, 31, 12, 0, 0, 500),
    );
  });
});

describe("finding 8: 405 with Allow for a method a known path does not have", () => {
  it("a known path answers 405 naming its methods; an unknown path stays 404", async () => {
    const put = await t.call("PUT", "/v1/licenses");
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe("GET, HEAD");
    expect(put.body.status).toEqual({ code: 405, message: expect.stringContaining("GET, HEAD") });
    const del = await t.call("DELETE", "/v1/organization");
    expect(del.status).toBe(405);
    expect(del.headers.allow).toBe("POST");
    const project = await t.call("POST", "/v1/projects/web");
    expect(project.status).toBe(405);
    expect(String(project.headers.allow).split(", ")).toEqual(["GET", "HEAD", "PATCH", "PUT"]);
    const unknown = await t.call("PUT", "/v1/nothing-here");
    expect(unknown.status).toBe(404);
    expect(unknown.body.status.code).toBe(404);
    // a word where an integer id belongs is no path of the API
    expect((await t.call("POST", "/v1/projects/web/git/repo/abc")).status).toBe(404);
  });
});

describe("finding 9 (serving): the OpenAPI document over HTTP", () => {
  it("/openapi.json and /openapi.yaml answer the document, without a token", async () => {
    const json = await t.call("GET", "/openapi.json", { as: null });
    expect(json.status).toBe(200);
    expect(json.headers["content-type"]).toMatch(/application\/json/);
    expect(json.body.openapi).toMatch(/^3\./);
    expect(Object.keys(json.body.paths)).toContain("/v1/projects");
    const yaml = await t.server.app.inject({ method: "GET", url: "/openapi.yaml" });
    expect(yaml.statusCode).toBe(200);
    expect(yaml.headers["content-type"]).toMatch(/application\/yaml/);
    // (parsing 300 KB of YAML here would cost a second; the text says enough)
    expect(yaml.body).toMatch(/^openapi: ["']?3\./m);
    expect(yaml.body).toContain(`  /v1/projects:\n`);
    expect(yaml.body).toContain(`operationId: ${json.body.paths["/v1/projects"].get.operationId}`);
  });
});
