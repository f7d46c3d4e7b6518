/**
 * API profiles (src/api/profile*.ts): the loader's errors name file:line:col and the field,
 * with a did-you-mean; the defaults; the effective route table the client calls through.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { loadApiProfile, parseApiProfile } from "../../src/api/profile-load.js";
import {
  DEFAULT_LIST,
  DEFAULT_PROFILE,
  effectiveRoutes,
  normaliseProfile,
} from "../../src/api/profile.js";
import { routes } from "../../src/api/routes.js";
import { PhctlError } from "../../src/errors.js";

function problem(text: string): PhctlError {
  try {
    parseApiProfile("p.yaml", text);
  } catch (e) {
    if (e instanceof PhctlError) return e;
    throw e;
  }
  throw new Error("the profile loaded");
}

describe("loading a profile", () => {
  it("fills every default; a queue id name is tried before queueid and queuid", () => {
    const p = parseApiProfile(
      "p.yaml",
      "envelope:\n  list:\n    items: items\nqueue:\n  id: jobId\n",
    );
    expect(p.file).toBe("p.yaml");
    expect(p.list).toEqual({ ...DEFAULT_LIST, items: "items" });
    expect(p.queueId).toEqual(["jobId", "queueid", "queuid"]);
    expect(parseApiProfile("p.yaml", "# nothing to change\n{}\n").list).toEqual(DEFAULT_LIST);
    expect(
      parseApiProfile("p.yaml", "envelope:\n  list:\n    pagination: null\n").list.pagination,
    ).toBeNull();
  });

  it("schema problems are file:line:col field: message (did you mean …?), exit 1", () => {
    const e = problem("envelope:\n  list:\n    itmes: items\n");
    expect(e.message).toBe(
      "p.yaml:3:5 envelope.list.itmes is not a known field (did you mean items?)",
    );
    expect(e.exitCode).toBe(1);
    expect(problem("operations:\n  users.creat:\n    method: POST\n").message).toBe(
      "p.yaml:2:3 operations.users.creat is not an operation id (phctl api routes lists them) (did you mean users.create?)",
    );
    expect(problem("operations:\n  users.create:\n    method: post\n").message).toMatch(
      /^p\.yaml:3:13 operations\["users\.create"\]\.method must be one of GET, POST, PUT, PATCH, DELETE/,
    );
    const many = problem("queue:\n  id: job id\nenvelope: {}\nextra: 1\n");
    expect(many.message).toMatch(
      /^p\.yaml:2:7 queue\.id must be a field name.*\(and 1 more: --verbose lists them\)$/,
    );
    expect(many.details.join("\n")).toMatch(/p\.yaml:4:1 extra is not a known field/);
  });

  it("a path must keep the operation's parameters; two operations cannot share a route", () => {
    expect(
      problem("operations:\n  git.repos.create:\n    path: /v1/projects/{projectslug}/repos\n")
        .message,
    ).toBe(
      "p.yaml:3:5 operations.git.repos.create.path must use the parameters of git.repos.create ({projectSlug}); missing {projectSlug}; unknown {projectslug} (did you mean projectSlug?)",
    );
    expect(problem("operations:\n  users.patch:\n    method: PUT\n").message).toBe(
      "p.yaml:2:3 operations.users.patch: users.replace is already PUT /v1/users/{username}; two operations cannot share a method and path",
    );
    expect(problem("operations:\n  users.get:\n    path: v1/users\n").message).toMatch(
      /path must start with \//,
    );
  });

  it("YAML problems, several documents and unreadable files are errors too", () => {
    expect(problem("envelope: [\n").message).toMatch(/^p\.yaml:\d+:\d+ invalid YAML/);
    expect(problem("queue: {}\n---\nqueue: {}\n").message).toMatch(
      /^p\.yaml:3:1 an API profile is one YAML document/,
    );
    const dir = mkdtempSync(join(tmpdir(), "phctl-profile-"));
    expect(() => loadApiProfile("missing.yaml", dir)).toThrow(
      /^API profile missing\.yaml: ENOENT \(apiProfile: in phctl\.yaml is relative to phctl\.yaml/,
    );
    writeFileSync(join(dir, "ok.yaml"), "queue:\n  id: jobId\n");
    expect(loadApiProfile("ok.yaml", dir).queueId[0]).toBe("jobId");
  });

  it("the example profile and the test fixture load, and fit the published schema", () => {
    const schema = JSON.parse(readFileSync("schemas/api-profile.schema.json", "utf8"));
    const validate = new Ajv2020({ strict: false }).compile(schema);
    for (const f of [
      "profiles/example-api-profile.yaml",
      "test/fixtures/api-profiles/shaped.yaml",
    ]) {
      const text = readFileSync(f, "utf8");
      expect(text.startsWith("# yaml-language-server: $schema=")).toBe(true);
      expect(loadApiProfile(f).file).toBe(f);
      expect(validate(JSON.parse(JSON.stringify(parseYamlLike(text))))).toBe(true);
    }
  });
});

/** The profile document as data (the loader's own reader, through a round trip). */
function parseYamlLike(text: string): unknown {
  const p = parseApiProfile("x.yaml", text);
  return {
    ...(Object.keys(p.operations).length ? { operations: p.operations } : {}),
    envelope: {
      list: {
        items: p.list.items,
        pagination: p.list.pagination,
        pageFields: p.list.fields,
        query: p.list.query,
      },
    },
    queue: { id: p.queueId[0] },
  };
}

describe("the effective route table", () => {
  const profile = normaliseProfile({
    envelope: { list: { query: { page: "p", limit: "size", all: "everything" } } },
    operations: {
      "users.create": { path: "/v1/users/new" },
      "git.repos.create": { method: "PUT" },
    },
  });

  it("is the route table with the profile's methods and paths", () => {
    expect(effectiveRoutes(DEFAULT_PROFILE)).toBe(routes);
    const t = effectiveRoutes(profile);
    expect(t["users.create"]).toMatchObject({
      method: "POST",
      path: "/v1/users/new",
      assumed: true,
    });
    expect(t["git.repos.create"].method).toBe("PUT");
    expect(t["users.list"]).toBe(routes["users.list"]);
  });

  it("the client calls through it: paths, methods, paging parameter names, raw matching", async () => {
    const api = new ApiClient({ apiUrl: "http://127.0.0.1:9", token: "t", profile });
    try {
      expect(api.prepare("users.create", { body: {} })).toMatchObject({
        path: "/v1/users/new",
        target: { method: "POST", pathTemplate: "/v1/users/new", operation: "users.create" },
      });
      expect(
        api.prepare("git.repos.create", { params: { projectSlug: "a" }, body: {} }).target.method,
      ).toBe("PUT");
      expect(
        api.prepare("users.list", { query: { all: true, organization: "acme" } }).query,
      ).toEqual({
        everything: true,
        organization: "acme",
      });
      // Not a paged operation: its query is sent as it is.
      expect(api.prepare("licenses.list", {}).query).toBeUndefined();
      expect(api.route("POST", "/v1/users/new")?.operation).toBe("users.create");
      expect(api.route("POST", "/v1/users")).toBeUndefined();
      expect(api.profile).toBe(profile);
    } finally {
      await api.close();
    }
  });
});
