/**
 * Strict responses (src/api/strict.ts): an answer phctl relies on that does not fit is a
 * ResponseShapeError naming the operation, the field, what was expected and what came —
 * never an empty list, never "nothing to wait for". Extra fields and fields phctl never
 * reads are fine; the profile's envelope and queue id names are honoured.
 */
import { describe, expect, it } from "vitest";
import { asPaged } from "../../src/api/paging.js";
import { DEFAULT_PROFILE, normaliseProfile } from "../../src/api/profile.js";
import { queueIdOf } from "../../src/api/queue.js";
import { describeValue, profileFixFor, ResponseShapeError } from "../../src/api/shape-error.js";
import { acceptResponse, checkResponse, reliesOn } from "../../src/api/strict.js";

const user = {
  username: "jdoe",
  firstName: "J",
  lastName: "Doe",
  displayName: "J Doe",
  email: "jdoe@acme.example",
  externalEmail: "jdoe@example.org",
  parentOrganization: "acme",
  organization: "acme",
  role: "member",
  active: "true",
  status: "active",
  dateCreated: "2026-01-01T00:00:00.000Z",
  dateLastAccessed: null,
  picture: "",
};
const pagination = { page: 1, limit: 10, total: 1, totalPages: 1 };

function shapeError(f: () => unknown): ResponseShapeError {
  try {
    f();
  } catch (e) {
    if (e instanceof ResponseShapeError) return e;
    throw e;
  }
  throw new Error("no ResponseShapeError");
}

describe("paged lists", () => {
  it("the route table's shape fits, with extra fields anywhere", () => {
    const body = { pagination: { ...pagination, extra: 1 }, data: [{ ...user, more: true }], x: 1 };
    expect(checkResponse("users.list", body)).toEqual([]);
    expect(acceptResponse("users.list", body, DEFAULT_PROFILE)).toMatchObject({ data: [user] });
  });

  it("a list under another name is an error naming the operation, field and profile setting", () => {
    const e = shapeError(() =>
      acceptResponse("users.list", { items: [user], pagination }, DEFAULT_PROFILE),
    );
    expect(e.message).toBe(
      "the service's answer to users.list does not fit: /data expected an array, got nothing (the answer had: items, pagination); if the service names the list differently, set envelope.list.items: items in an API profile (apiProfile: in phctl.yaml, or --api-profile FILE)",
    );
    expect(e.exitCode).toBe(1);
    expect(e.operation).toBe("users.list");
    expect(profileFixFor(e.mismatches[0])).toBe("envelope.list.items: items");
  });

  it("asPaged never reads an unknown shape as an empty list", () => {
    for (const body of [{}, [], null, "x", { data: {} }, { pagination }])
      expect(() => asPaged("teams.list", body)).toThrow(ResponseShapeError);
    expect(asPaged("teams.list", { pagination, data: [] }).data).toEqual([]);
  });

  it("checks the pagination object: a numeric limit, and totalPages or total", () => {
    const m = checkResponse("users.list", {
      data: [],
      pagination: { page: 1, size: 10, pages: 2 },
    });
    expect(m.map((x) => [x.path, x.setting, x.suggestion])).toEqual([
      ["/pagination/limit", "envelope.list.pageFields.limit", "size"],
      ["/pagination/totalPages", "envelope.list.pageFields.totalPages", "pages"],
    ]);
    expect(
      checkResponse("users.list", {
        data: [],
        pagination: { page: "1", limit: 10, totalPages: 1 },
      })[0],
    ).toMatchObject({ path: "/pagination/page", expected: "a number", got: '"1"' });
    // totalPages from total when the service gives only the count.
    const page = acceptResponse(
      "users.list",
      { data: [], pagination: { limit: 10, total: 25 } },
      DEFAULT_PROFILE,
    );
    expect(page).toMatchObject({ pagination: { limit: 10, totalPages: 3 } });
    const missing = checkResponse("users.list", { data: [], meta: { n: 1 } })[0];
    expect(missing).toMatchObject({
      path: "/pagination",
      setting: "envelope.list.pagination",
      suggestion: "meta",
    });
    expect(checkResponse("users.list", { data: [] })[0]?.suggestion).toBe("null");
  });

  it("guesses each pagination field once: pageSize is the limit, so pageCount is the page count", () => {
    // Issue 26: /pages/i took `pageSize` for a page count too, so no totalPages was guessed.
    const profile = normaliseProfile({
      envelope: { list: { items: "items", pagination: "paging" } },
    });
    const body = {
      items: [],
      paging: { pageNumber: 1, pageSize: 10, totalItems: 0, pageCount: 1 },
    };
    expect(checkResponse("users.list", body, profile).map(profileFixFor)).toEqual([
      "envelope.list.pageFields.limit: pageSize",
      "envelope.list.pageFields.totalPages: pageCount",
    ]);
  });

  it("reads a profile's envelope (dotted items path, renamed pagination) into the canonical shape", () => {
    const profile = normaliseProfile({
      envelope: {
        list: {
          items: "result.items",
          pagination: "paging",
          pageFields: { limit: "pageSize", totalPages: "pageCount", page: "n", total: "count" },
        },
      },
    });
    const body = {
      result: { items: [user] },
      paging: { n: 2, pageSize: 5, count: 7, pageCount: 2 },
    };
    expect(acceptResponse("users.list", body, profile)).toEqual({
      data: [user],
      pagination: { page: 2, limit: 5, total: 7, totalPages: 2 },
    });
    const flat = normaliseProfile({ envelope: { list: { items: "items", pagination: null } } });
    expect(acceptResponse("users.list", { items: [user] }, flat)).toEqual({ data: [user] });
  });

  it("an item missing a field phctl reads is an error; one it never reads is not", () => {
    const noRole: Partial<typeof user> = { ...user };
    delete noRole.role;
    const e = shapeError(() =>
      acceptResponse("users.list", { pagination, data: [user, noRole] }, DEFAULT_PROFILE),
    );
    expect(e.message).toMatch(
      /^the service's answer to users.list does not fit: \/data\/1\/role expected one of member, projects-admin, users-admin, system-admin, got nothing \(that object had: username, .*\); phctl reads this field/,
    );
    const lean: Partial<typeof user> = { ...user };
    for (const f of ["picture", "email", "active"] as const) delete lean[f];
    expect(checkResponse("users.list", { pagination, data: [lean] })).toEqual([]);
  });

  it("names the deepest field of a nullable object and what came, shortened", () => {
    const m = checkResponse("users.get", { data: { ...user, dateLastAccessed: 42 } })[0];
    expect(m).toMatchObject({
      path: "/data/dateLastAccessed",
      expected: "a string or null",
      got: "42",
    });
    const long = "x".repeat(200);
    const n = checkResponse("users.get", { data: { ...user, role: long } })[0];
    expect(n.got.length).toBeLessThanOrEqual(80);
    expect(describeValue("s3cret-value", "token")).toBe("a string (not shown)");
    expect(describeValue({ a: 1, b: 2 })).toBe("an object (a, b)");
  });
});

describe("queued answers", () => {
  const accepted = { code: 201, description: "queued", queueid: "q-1" };

  it("a job id under the profile's name is read, and answered as queueid", () => {
    const profile = normaliseProfile({ queue: { id: "jobId" } });
    const body = { code: 201, description: "queued", jobId: "j-9" };
    expect(acceptResponse("users.transfer", body, profile)).toMatchObject({ queueid: "j-9" });
    expect(
      acceptResponse("organizations.rename", { queuid: "r-1" }, DEFAULT_PROFILE),
    ).toMatchObject({
      queueid: "r-1",
    });
    expect(acceptResponse("access.addOrgTeam", [{ jobId: "t-1" }], profile)).toEqual([
      { jobId: "t-1", queueid: "t-1" },
    ]);
  });

  it("an answer without a job id is an error naming queue.id — never 'nothing to wait for'", () => {
    const e = shapeError(() =>
      acceptResponse(
        "users.transfer",
        { code: 201, description: "queued", jobId: "j-9" },
        DEFAULT_PROFILE,
      ),
    );
    expect(e.message).toBe(
      "the service's answer to users.transfer does not fit: /queueid expected a job id (a string), got nothing (the answer had: code, description, jobId); if the service names the job id differently, set queue.id: jobId in an API profile (apiProfile: in phctl.yaml, or --api-profile FILE)",
    );
    expect(() => queueIdOf({ code: 201, jobId: "x" })).toThrow(/queue\.id/);
    expect(() => queueIdOf({ status: { code: 200, message: "ok" } }, "users.transfer")).toThrow(
      ResponseShapeError,
    );
    expect(() => acceptResponse("access.addOrgTeam", [], DEFAULT_PROFILE)).toThrow(/\/0\/queueid/);
  });

  it("an immediate answer is fine where the route table allows one (adding an admin)", () => {
    const immediate = { status: { code: 200, message: "added" } };
    expect(checkResponse("access.addUser", immediate)).toEqual([]);
    expect(queueIdOf(immediate, "access.addUser")).toBeUndefined();
    expect(queueIdOf(accepted, "access.addUser")).toBe("q-1");
  });
});

describe("what is checked", () => {
  it("reads and the creates whose record a kind reads; not the echo of other writes", () => {
    expect(reliesOn("users.list")).toBe("all");
    expect(reliesOn("git.repos.create")).toBe("all");
    expect(reliesOn("users.transfer")).toBe("queue id");
    expect(reliesOn("users.patch")).toBe("nothing");
    expect(checkResponse("users.patch", "anything")).toEqual([]);
    expect(
      checkResponse("git.repos.create", { status: { code: 201, message: "ok" } })[0],
    ).toMatchObject({
      path: "/data",
    });
  });

  it("job status records need a status word; the message only when there is one", () => {
    expect(checkResponse("users.entitlementStatus", { status: "running" })).toEqual([]);
    expect(checkResponse("users.entitlementStatus", { state: "completed" })[0]).toMatchObject({
      path: "/status",
      expected: "a string",
    });
  });
});
