/**
 * Defect 6 of issue 26: huge page numbers. `?page=1e18` (1e20, 1e309, Infinity) answered
 * 500 on the pipelines list, and `page=Infinity`/`1e309` answered 200 with
 * `pagination.page: null` on nine paged lists. An integer in the query is now decimal
 * digits within its documented range, else 400 naming the parameter and the range.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadApiProfile } from "../../src/api/profile-load.js";
import { QUERY_INT_MAX } from "../../src/api/schemas.js";
import { contractServer, type ContractServer } from "./contract-helpers.js";

let t: ContractServer;
beforeAll(async () => {
  t = await contractServer({ control: true });
  const seeded = await t.call("POST", "/_control/seed", {
    body: {
      projects: [
        {
          slug: "web",
          name: "Web",
          pipelines: [
            { status: "success", ref: "main", created: "2026-01-10T10:00:00.000Z", duration: 60 },
          ],
        },
      ],
    },
  });
  expect(seeded.status).toBe(200);
});
afterAll(() => t.close());

const LISTS = [
  "/v1/projects/web/pipelines",
  "/v1/users",
  "/v1/projects",
  "/v1/teams",
  "/v1/projects/web/git/subgroups",
  "/v1/projects/web/git/mirrors",
];
const BAD = ["1e18", "1e20", "1e309", "Infinity", "-Infinity", "NaN", "1e3", "0x10", " 1", "1.5"];

describe("defect 6: integers in the query", () => {
  it("page and limit that are not decimal integers from 1 to 2^31-1 are 400 naming the parameter", async () => {
    const range = `must be an integer from 1 to ${QUERY_INT_MAX}`;
    for (const path of LISTS) {
      for (const param of ["page", "limit"]) {
        for (const bad of [...BAD, "0", String(QUERY_INT_MAX + 1)]) {
          const r = await t.call("GET", `${path}?${param}=${encodeURIComponent(bad)}`);
          expect({ path, param, bad, status: r.status, body: r.body }).toEqual({
            path,
            param,
            bad,
            status: 400,
            body: {
              status: { code: 400, message: `invalid query: ${param} ${range}` },
              errors: [{ field: param, message: range }],
            },
          });
        }
      }
    }
  });

  it("the largest page is answered: an empty page, its number an integer", async () => {
    const r = await t.call("GET", `/v1/projects?page=${QUERY_INT_MAX}&limit=${QUERY_INT_MAX}`);
    expect(r.status).toBe(200);
    expect(r.body.pagination).toEqual({ page: QUERY_INT_MAX, limit: 100, total: 1, totalPages: 1 });
    expect(r.body.data).toEqual([]);
    const p = await t.call("GET", `/v1/projects/web/pipelines?page=${QUERY_INT_MAX}`);
    expect([p.status, p.body]).toEqual([200, []]);
    const first = await t.call("GET", "/v1/projects/web/pipelines?page=001&limit=1");
    expect([first.status, first.body.length]).toEqual([200, 1]);
  });

  it("the other integer parameters (strict, statusCode) are checked the same way", async () => {
    for (const [path, param] of [
      ["/v1/projects/web/git/subgroups", "strict"],
      ["/v1/projects/web/git/mirrors", "statusCode"],
    ]) {
      for (const bad of ["Infinity", "1e309", "2147483648", "-2147483649", "1e0"]) {
        const r = await t.call("GET", `${path}?${param}=${bad}`);
        expect([param, bad, r.status, r.body.errors]).toEqual([
          param,
          bad,
          400,
          [{ field: param, message: `must be an integer from -2147483648 to ${QUERY_INT_MAX}` }],
        ]);
      }
      // In range: past validation (the seeded project has no git group: 404 for subgroups).
      const ok = await t.call("GET", `${path}?${param}=-1`);
      expect([param, ok.status]).toEqual([param, param === "strict" ? 404 : 200]);
    }
  });
});

describe("integer path parameters", () => {
  it("are decimal digits too: /pipelines/0x10 is no pipeline (404), not pipeline 16", async () => {
    for (const id of ["0x10", "1e1", "Infinity", "1e309", " 1"]) {
      const r = await t.call("GET", `/v1/projects/web/pipelines/${encodeURIComponent(id)}`);
      expect([id, r.status, r.body.status.message]).toEqual([
        id,
        404,
        expect.stringMatching(/^no operation GET/),
      ]);
    }
  });
});

describe("defect 6 with an API profile", () => {
  it("the 400 names the paging parameter as the profile calls it (pageNumber, not page)", async () => {
    const shaped = await contractServer({
      apiProfile: loadApiProfile(
        new URL("../fixtures/api-profiles/shaped.yaml", import.meta.url).pathname,
      ),
    });
    try {
      const range = `must be an integer from 1 to ${QUERY_INT_MAX}`;
      for (const [param, bad] of [
        ["pageNumber", "1e309"],
        ["pageSize", "Infinity"],
      ]) {
        const r = await shaped.call("GET", `/v1/users?${param}=${bad}`);
        expect([r.status, r.body]).toEqual([
          400,
          {
            status: { code: 400, message: `invalid query: ${param} ${range}` },
            errors: [{ field: param, message: range }],
          },
        ]);
      }
    } finally {
      await shaped.close();
    }
  });
});
