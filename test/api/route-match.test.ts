import { describe, expect, expectTypeOf, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { fillPath, pathParams, type RouteDef } from "../../src/api/route-def.js";
import { operations, routes } from "../../src/api/routes.js";
import { matchRoute, retryClassOf } from "../../src/api/route-match.js";
import type { CallArgs, ResponseOf } from "../../src/api/op-types.js";

/** A value that fits a path parameter of a route. */
function sample(def: RouteDef, name: string): string | number {
  if (def.intParams?.includes(name)) return 42;
  const values = def.paramEnums?.[name];
  if (values) return values[values.length - 1];
  if (name === "filePath") return "dir/sub/file.tar.gz";
  return `x-${name}`;
}

describe("matchRoute", () => {
  it("finds every operation of the table back from its filled path", () => {
    for (const [op, def] of operations) {
      const params = Object.fromEntries(pathParams(def.path).map((n) => [n, sample(def, n)]));
      const m = matchRoute(def.method, fillPath(def.path, params));
      expect(m?.operation, `${op} ${def.path}`).toBe(op);
      for (const [k, v] of Object.entries(params)) expect(m?.params[k]).toBe(String(v));
    }
  });

  it("prefers literal segments and checks parameter types", () => {
    expect(matchRoute("GET", "/v1/users/organization/queue/abc/status")?.operation).toBe(
      "users.transferStatus",
    );
    expect(matchRoute("GET", "/v1/projects/systems/persistent-storage/7")?.operation).toBe(
      "storage.lookup",
    );
    expect(matchRoute("GET", "/v1/projects/tf-a/licenses")?.operation).toBe(
      "projects.licenses.list",
    );
    expect(matchRoute("GET", "/v1/projects/tf-a/maintainers")?.operation).toBe("access.list");
    expect(matchRoute("GET", "/v1/projects/tf-a/nonsense")).toBeUndefined();
    expect(matchRoute("GET", "/v1/projects/tf-a/git/repo/abc")).toBeUndefined();
    expect(matchRoute("get", "/v1/users/")?.operation).toBe("users.list");
  });
});

describe("retryClassOf", () => {
  it("treats queued routes as non-idempotent whatever their method", () => {
    expect(retryClassOf("GET", { operation: "users.list", def: routes["users.list"] })).toEqual({
      idempotent: true,
      forkCleanup: false,
    });
    expect(
      retryClassOf("PUT", {
        operation: "organizations.rename",
        def: routes["organizations.rename"],
      }).idempotent,
    ).toBe(false);
    expect(
      retryClassOf("PUT", { operation: "git.repos.replace", def: routes["git.repos.replace"] })
        .idempotent,
    ).toBe(true);
    expect(retryClassOf("PATCH", undefined).idempotent).toBe(false);
    expect(
      retryClassOf("POST", { operation: "git.fork", def: routes["git.fork"] }).forkCleanup,
    ).toBe(true);
  });
});

describe("types derived from the route table", () => {
  it("types params, query, body and response of a call", () => {
    expectTypeOf<CallArgs<"git.repos.create">["params"]>().toEqualTypeOf<{ projectSlug: string }>();
    expectTypeOf<CallArgs<"git.repos.get">["params"]>().toEqualTypeOf<{
      projectSlug: string;
      repoID: number;
    }>();
    expectTypeOf<CallArgs<"git.repos.create">["body"]>().toHaveProperty("name");
    expectTypeOf<ResponseOf<"licenses.list">>().items.toHaveProperty("name");
    expectTypeOf<ResponseOf<"git.repos.delete">>().toEqualTypeOf<undefined>();
    expectTypeOf<CallArgs<"access.addUser">["params"]["level"]>().toEqualTypeOf<
      "admins" | "controllers" | "editors" | "maintainers" | "developers" | "reporters"
    >();
    type Ops = ApiClient["ops"];
    expectTypeOf<Ops["git"]["repos"]["create"]>()
      .parameter(0)
      .toEqualTypeOf<CallArgs<"git.repos.create">>();
    expectTypeOf<Ops["licenses"]["list"]>().returns.resolves.toEqualTypeOf<
      ResponseOf<"licenses.list">
    >();
    const c = null as unknown as ApiClient;
    // @ts-expect-error a required body is required
    void (() => c.ops.organizations.create({}));
    // @ts-expect-error an unknown operation is refused
    void (() => c.call("nope.list"));
  });

  it("builds a named method for every operation", () => {
    const c = new ApiClient({ apiUrl: "http://127.0.0.1:9", token: "t-xxxx" });
    for (const [op] of operations) {
      const fn = op.split(".").reduce<any>((node, part) => node?.[part], c.ops);
      expect(typeof fn, op).toBe("function");
    }
    void c.close();
  });
});
