/**
 * Paged lists over several pages and the fork-cleanup retry, against a seeded server with a
 * small maximum page size.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.js";
import { seed } from "../../src/server/seed.js";
import { postsIn, startClient, type ClientFixture } from "./helpers.js";

let f: ClientFixture;
const UPSTREAM = "ssh://git@git.example.org/acme/src/upstream.git";

beforeAll(async () => {
  f = await startClient({ maxPageSize: 10 });
  seed(f.server.ctx, {
    parentOrganization: "acme",
    users: Array.from({ length: 37 }, (_, i) => ({
      username: `pu${String(i).padStart(2, "0")}`,
      firstName: "P",
      lastName: `U${i}`,
      externalEmail: `pu${i}@example.org`,
    })),
    teams: Array.from({ length: 23 }, (_, i) => ({ name: `pt${String(i).padStart(2, "0")}` })),
    projects: [
      { slug: "src", name: "Source", git: { repositories: [{ name: "upstream" }] } },
      { slug: "dst", name: "Target", git: {} },
    ],
  });
});
afterAll(async () => {
  await f.stop();
});

const logOf = (op: string) => f.server.requestLog.filter((e) => e.operation === op);

describe("listAll", () => {
  it("without all=true: one big-page request, then the remaining pages at the clamped size", async () => {
    const before = logOf("teams.list").length;
    const teams = await f.client.listAll("teams.list");
    expect(teams.map((t) => t.name).filter((n) => n.startsWith("pt"))).toHaveLength(23);
    const urls = logOf("teams.list")
      .slice(before)
      .map((e) => e.url);
    expect(urls[0]).toBe("/v1/teams?page=1&limit=1000");
    expect(urls.slice(1).sort()).toEqual([
      "/v1/teams?page=2&limit=10",
      "/v1/teams?page=3&limit=10",
    ]);
  });

  it("with all=true where the route supports it: one request", async () => {
    const before = logOf("users.list").length;
    const users = await f.client.listAll("users.list", { query: { query: "pu" } });
    expect(users.map((u) => u.username)).toEqual(
      Array.from({ length: 37 }, (_, i) => `pu${String(i).padStart(2, "0")}`),
    );
    expect(
      logOf("users.list")
        .slice(before)
        .map((e) => e.url),
    ).toEqual(["/v1/users?query=pu&all=true"]);
  });

  it("streams a list page by page in order", async () => {
    const names: string[] = [];
    for await (const u of f.client.iterate("users.list", { query: { query: "pu" } }))
      names.push(u.username);
    expect(names).toHaveLength(37);
    expect(names[0]).toBe("pu00");
    expect(names[36]).toBe("pu36");
  });

  it("phctl api --paginate's helper merges every page of a raw path", async () => {
    const all = (await f.client.rawAll("/v1/teams")) as { name: string }[];
    expect(all.filter((t) => t.name.startsWith("pt"))).toHaveLength(23);
    const limited = (await f.client.rawAll("/v1/users?query=pu&limit=5")) as unknown[];
    expect(limited).toHaveLength(37);
  });
});

describe("fork cleanup", () => {
  it("retries the fork-cleanup 500 until the cleanup is over, and forks once", async () => {
    const before = postsIn(f.server.requestLog).length;
    const armed = await f.call("POST", "/_control/fork-failure", { body: { project: "dst" } });
    expect(armed.status).toBe(200);
    const c = f.newClient({ retry: { baseDelayMs: 50, maxDelayMs: 200 } });
    const t0 = performance.now();
    const fork = await c.ops.git.fork({
      params: { projectSlug: "dst" },
      body: { repoPathFrom: UPSTREAM, name: "my-fork" },
    });
    expect(fork.data.name).toBe("my-fork");
    expect(fork.data.gitSourceRepoID).toBeGreaterThan(0);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(300);
    const forks = f.server.requestLog.slice(0).filter((e) => e.operation === "git.fork");
    const statuses = forks.map((e) => e.status);
    expect(statuses[0]).toBe(500);
    expect(statuses.at(-1)).toBe(201);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(c.metrics.snapshot().retryReasons).toMatchObject({
      "fork cleanup in progress (500, retry later)": statuses.length - 1,
    });
    const repos = await c.listAll("git.repos.list", { params: { projectSlug: "dst" } });
    expect(repos.filter((r) => r.name === "my-fork")).toHaveLength(1);
    expect(postsIn(f.server.requestLog).length - before).toBe(statuses.length);
  });

  it("past its deadline the fork-cleanup 500 is a FORK_CLEANUP error", async () => {
    await f.call("POST", "/_control/fork-failure", { body: { project: "dst" } });
    const c = f.newClient({
      retry: { forkCleanupDeadlineMs: 100, baseDelayMs: 20, maxRetryAfterMs: 50 },
    });
    const e = (await c.ops.git
      .fork({ params: { projectSlug: "dst" }, body: { repoPathFrom: UPSTREAM, name: "late-fork" } })
      .catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e.code).toBe("FORK_CLEANUP");
    expect(e.message).toMatch(
      /retry later \(gave up after \d+ attempts: retry deadline 100 ms reached\)$/,
    );
  });
});
