/**
 * The sticky-comment logic on an in-memory platform, and the retry policy: which failures
 * are sent again, which surface, and which are ambiguous writes.
 */
import { describe, expect, it } from "vitest";
import { CiHttpError, retrying, waitFromHeaders, type Failure } from "../../src/ci/retry.js";
import {
  carriesMarker,
  planMarker,
  upsertSticky,
  type Comment,
  type CommentApi,
} from "../../src/ci/sticky.js";

const M = planMarker("infra/prod");
const thread = { type: "pull", number: 1 } as const;

/** Comments in memory; `failCreate` makes creates fail without an answer (after landing or not). */
function memory(failCreate: ("landed" | "lost")[] = []) {
  const comments: Comment[] = [];
  const calls: string[] = [];
  let id = 1;
  const api: CommentApi = {
    platform: "Test",
    describe: () => "pull request #1",
    list: async () => (calls.push("list"), comments.map((c) => ({ ...c }))),
    create: async (_t, body) => {
      calls.push("create");
      const c = { id: id++, body, createdAt: `2026-01-01T00:00:0${id}Z` };
      const f = failCreate.shift();
      if (f === "landed") comments.push(c);
      if (f)
        throw new CiHttpError(undefined, "no answer (UND_ERR_SOCKET: other side closed)", true);
      comments.push(c);
      return c;
    },
    update: async (_t, cid, body) => {
      calls.push(`update ${cid}`);
      const c = comments.find((x) => x.id === cid)!;
      c.body = body;
      return c;
    },
  };
  return { api, comments, calls };
}

describe("the marker", () => {
  it("must start the body and match the whole key", () => {
    expect(M).toBe("<!-- phctl:plan key=infra/prod -->");
    expect(carriesMarker(`${M}\n# plan`, M)).toBe(true);
    expect(carriesMarker(`\n  ${M}`, M)).toBe(true);
    expect(carriesMarker(`> quoted\n${M}`, M)).toBe(false);
    expect(carriesMarker("<!-- phctl:plan key=infra/prod-2 -->", M)).toBe(false);
  });
});

describe("upsertSticky", () => {
  it("creates, then updates, then leaves an equal body alone", async () => {
    const { api, comments, calls } = memory();
    expect((await upsertSticky(api, thread, M, `${M}\nv1`)).action).toBe("created");
    expect((await upsertSticky(api, thread, M, `${M}\nv2`)).action).toBe("updated");
    expect((await upsertSticky(api, thread, M, `${M}\nv2`)).action).toBe("unchanged");
    expect(comments).toHaveLength(1);
    expect(calls).toEqual(["list", "create", "list", "update 1", "list"]);
  });

  it("a create that landed without an answer is found by a fresh list, not sent again", async () => {
    const { api, comments, calls } = memory(["landed"]);
    const r = await upsertSticky(api, thread, M, `${M}\nv1`);
    expect(r).toMatchObject({ action: "created", recovered: true });
    expect(comments).toHaveLength(1);
    expect(calls).toEqual(["list", "create", "list"]);
  });

  it("a create lost twice surfaces; it was sent twice only after looking each time", async () => {
    const { api, comments, calls } = memory(["lost", "lost"]);
    await expect(upsertSticky(api, thread, M, `${M}\nv1`)).rejects.toThrow(/no answer/);
    expect(comments).toHaveLength(0);
    expect(calls).toEqual(["list", "create", "list", "create", "list"]);
  });
});

describe("retry policy", () => {
  const fast = { maxRetries: 2, maxRateLimitRetries: 2, baseDelayMs: 1, maxWaitMs: 50, timeoutMs: 1000 }; // prettier-ignore
  const failing = (fails: Failure[]) => {
    let n = 0;
    const attempt = async () => {
      const f = fails[n++];
      if (f) throw Object.assign(new Error(f.message), f);
      return "ok";
    };
    return { attempt, count: () => n };
  };
  const asIs = (e: unknown) => e as Failure;

  it("retries reads on 5xx and connection loss, never a POST's", async () => {
    const get = failing([{ status: 502, message: "Bad Gateway" }, { message: "reset" }]);
    expect(await retrying("GET", get.attempt, asIs, fast)).toBe("ok");
    expect(get.count()).toBe(3);
    const post = failing([{ status: 502, message: "Bad Gateway" }]);
    const e = await retrying("POST", post.attempt, asIs, fast).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 502, ambiguous: true });
    expect(post.count()).toBe(1);
  });

  it("sends anything again when it never left, or after a short rate-limit wait", async () => {
    const refused = failing([{ message: "ECONNREFUSED", notSent: true }]);
    expect(await retrying("POST", refused.attempt, asIs, fast)).toBe("ok");
    const limited = failing([{ status: 429, message: "slow down", retryAfterMs: 5 }]);
    expect(await retrying("POST", limited.attempt, asIs, fast)).toBe("ok");
    const long = failing([{ status: 429, message: "slow down", retryAfterMs: 60_000 }]);
    const e = await retrying("POST", long.attempt, asIs, fast).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 429, ambiguous: false });
    expect((e as Error).message).toMatch(/rate limited: asked to wait 60 s/);
  });

  it("4xx answers surface at once, not ambiguous", async () => {
    const f = failing([{ status: 403, message: "Forbidden" }]);
    const e = await retrying("PATCH", f.attempt, asIs, fast).catch((x: unknown) => x);
    expect(e).toMatchObject({ status: 403, ambiguous: false, platformMessage: "Forbidden" });
    expect(f.count()).toBe(1);
  });

  it("reads Retry-After in seconds or as a date, and GitHub's exhausted rate limit", () => {
    expect(waitFromHeaders({ "retry-after": "3" })).toBe(3000);
    const inTwo = new Date(Date.now() + 2000).toUTCString();
    expect(waitFromHeaders({ "retry-after": inTwo })).toBeGreaterThan(0);
    const reset = String(Math.floor(Date.now() / 1000) + 10);
    expect(waitFromHeaders({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset })).toBeGreaterThan(5000); // prettier-ignore
    expect(waitFromHeaders({})).toBeUndefined();
  });
});
