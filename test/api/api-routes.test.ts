/**
 * `phctl api routes` and `phctl api openapi` (src/cli/api-routes.ts): every operation with
 * its effective method and path, assumed and overridden ones marked; the OpenAPI document
 * as the profile makes it. One run of the built CLI proves the commands are wired.
 */
import { describe, expect, it } from "vitest";
import { buildOpenApi, renderOpenApi } from "../../src/api/openapi.js";
import { loadApiProfile } from "../../src/api/profile-load.js";
import { operations } from "../../src/api/routes.js";
import { renderRoutes, routeRows } from "../../src/cli/api-routes.js";
import { phctl } from "../helpers/cli.js";

const PROFILE = "test/fixtures/api-profiles/shaped.yaml";

describe("api routes", () => {
  it("lists every operation; without a profile nothing is overridden", async () => {
    const { profile, rows } = await routeRows(undefined);
    expect(profile).toBeUndefined();
    expect(rows.map((r) => r.operation)).toEqual(operations.map(([op]) => op));
    expect(rows.filter((r) => r.overridden)).toEqual([]);
    expect(rows.filter((r) => r.assumed).length).toBeGreaterThan(40);
    const text = renderRoutes(rows, profile);
    expect(text.split("\n")[0]).toMatch(/^OPERATION +METHOD +PATH +NOTES$/);
    expect(text).toMatch(/^users\.create +POST +\/v1\/users +assumed$/m);
    expect(text).toMatch(/\d+ operations: \d+ assumed .*, 0 overridden by no API profile\.\n$/);
  });

  it("with a profile: its methods and paths, marked overridden with the table's own", async () => {
    const { profile, rows } = await routeRows(PROFILE);
    expect(profile).toBe(PROFILE);
    expect(rows.find((r) => r.operation === "git.repos.create")).toEqual({
      operation: "git.repos.create",
      method: "PUT",
      path: "/v1/projects/{projectSlug}/git/repositories",
      section: expect.any(String),
      assumed: true,
      overridden: true,
      table: { method: "POST", path: "/v1/projects/{projectSlug}/git/repo" },
    });
    expect(rows.filter((r) => r.overridden)).toHaveLength(6);
    expect(renderRoutes(rows, profile)).toMatch(
      /^users\.create +POST +\/v1\/users\/new +overridden \(table: POST \/v1\/users\), assumed$/m,
    );
  });

  it("the built CLI prints them, filtered, as text or JSON", async () => {
    const r = await phctl(
      ["--api-profile", PROFILE, "api", "routes", "users.create", "--format", "json"],
      {},
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      profile: PROFILE,
      operations: [{ operation: "users.create", path: "/v1/users/new", overridden: true }],
    });
  });
});

describe("api openapi", () => {
  it("shows the profile's paths, envelope, paging parameters and queue id", () => {
    const doc = buildOpenApi(loadApiProfile(PROFILE)) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(doc.paths["/v1/users/new"]?.post?.["x-overridden"]).toBe(true);
    const list = doc.paths["/v1/users"]?.get as {
      parameters: { name: string }[];
      responses: Record<string, { content: Record<string, { schema: unknown }> }>;
    };
    expect(list.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(["pageNumber", "pageSize", "everything"]),
    );
    const schema = JSON.stringify(list.responses["200"]?.content["application/json"]?.schema);
    expect(schema).toContain('"items"');
    expect(schema).toContain('"pageCount"');
    expect(schema).not.toContain('"data"');
    expect(JSON.stringify(doc.paths["/v1/users/{username}/organization"])).toContain('"jobId"');
    expect(renderOpenApi(loadApiProfile(PROFILE)).split("\n")[0]).toBe(
      `# The API as the API profile ${PROFILE} makes it (phctl api openapi).`,
    );
  });
});
