/**
 * Answers that are not the API's: a redirect or an HTML page at the API's address (a
 * sign-in gateway, an http:// address moved to https://, a proxy's notice). The client
 * says so, naming the setting to fix, instead of showing the page as the error or "does
 * not fit"; a redirect is never followed; a write answered that way is ambiguous (re-read
 * first), never sent again. The CLI and `phctl doctor` tell it in one line. The "gateway"
 * is a plain Node HTTP server on loopback.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { AmbiguousRequestError, ApiError } from "../../src/api/errors.js";
import { foreignAnswer } from "../../src/api/foreign-answer.js";
import type { WireResponse } from "../../src/api/transport.js";
import { phctl } from "../helpers/cli.js";

const TOKEN = "gateway-test-token-7c1d";
const answer = (status: number, headers: Record<string, string>, body: unknown): WireResponse => ({
  kind: "response",
  status,
  headers,
  body,
});

describe("foreignAnswer", () => {
  it("a redirect names where it points, without the query, and the setting to fix", () => {
    const m = foreignAnswer(
      answer(302, { location: "https://login.example.org/sso?next=/v1/users&state=x1" }, ""),
      "admin",
    );
    expect(m).toBe(
      "the service redirected to https://login.example.org/sso; phctl does not follow redirects (the token would go along): PHCTL_API_URL (or --api-url) must be the API's own address — check http:// against https:// and the path prefix",
    );
    expect(foreignAnswer(answer(301, { location: "/api/v1/users" }, ""), "git")).toMatch(
      /^the service redirected to \/api\/v1\/users; .*PHCTL_GIT_API_URL \(or --git-api-url\)/,
    );
    expect(foreignAnswer(answer(307, {}, ""), "admin")).toMatch(
      /redirected to an address it did not give/,
    );
  });

  it("an HTML page in a 2xx answer, by content type or by its first tag, with its title", () => {
    const page = "<!DOCTYPE html><html><head><title> Sign in \n to Hosting </title></head></html>";
    expect(foreignAnswer(answer(200, { "content-type": "text/html" }, page), "admin")).toBe(
      'the service answered an HTML page ("Sign in to Hosting"), not JSON — a sign-in page or a proxy between phctl and the API: PHCTL_API_URL (or --api-url) must be the API\'s own address',
    );
    expect(
      foreignAnswer(answer(200, {}, "<html><body>maintenance</body></html>"), "admin"),
    ).toMatch(/^the service answered an HTML page, not JSON/);
  });

  it("JSON, empty and non-2xx/3xx answers are the API's to judge", () => {
    const json = { "content-type": "application/json" };
    expect(foreignAnswer(answer(200, json, { data: [] }), "admin")).toBeUndefined();
    expect(foreignAnswer(answer(200, json, "<html>"), "admin")).toBeUndefined(); // a JSON string
    expect(foreignAnswer(answer(204, {}, undefined), "admin")).toBeUndefined();
    expect(
      foreignAnswer(answer(200, { "content-type": "text/plain" }, "ok"), "admin"),
    ).toBeUndefined();
    // An empty body labelled HTML (some frameworks label every answer so) is no page.
    expect(
      foreignAnswer(answer(200, { "content-type": "text/html" }, undefined), "admin"),
    ).toBeUndefined();
    // A proxy's 502 page is a 502: retried and reported as one (elsewhere).
    expect(
      foreignAnswer(answer(502, { "content-type": "text/html" }, "<html>"), "admin"),
    ).toBeUndefined();
  });
});

/** A sign-in gateway: every request answered `status` (a redirect or a page). */
let gateway: Server;
let url = "";
let mode: { status: number; html: boolean } = { status: 302, html: false };
const seen: { method: string; url: string }[] = [];

beforeAll(async () => {
  gateway = createServer((req: IncomingMessage, res) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "" });
    req.resume();
    if (mode.html) {
      res.writeHead(mode.status, { "content-type": "text/html; charset=utf-8" });
      res.end("<!doctype html><html><head><title>Sign in</title></head><body>…</body></html>");
      return;
    }
    res.writeHead(mode.status, { location: `https://login.example.org/sso?next=${req.url}` });
    res.end();
  });
  await new Promise<void>((ok) => gateway.listen(0, "127.0.0.1", ok));
  url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => gateway.close(() => ok())));

/** A fresh client against the gateway answering as `m`, closed after `fn`. */
async function withClient(
  m: { status: number; html: boolean },
  fn: (c: ApiClient) => Promise<void>,
): Promise<void> {
  mode = m;
  seen.length = 0;
  const c = new ApiClient({ apiUrl: url, token: TOKEN });
  try {
    await fn(c);
  } finally {
    await c.close();
  }
}

describe("the client at an address that is not the API", () => {
  it("a read that is redirected fails once with NOT_THE_API; nothing follows the redirect", async () => {
    await withClient({ status: 302, html: false }, async (c) => {
      const e = (await c.call("organizations.list").catch((x: unknown) => x)) as ApiError;
      expect(e).toBeInstanceOf(ApiError);
      expect(e.code).toBe("NOT_THE_API");
      expect(e.status).toBe(302);
      expect(e.message).toMatch(
        /^GET \/v1\/organization\/list \(organizations\.list\): 302 NOT_THE_API: the service redirected to https:\/\/login\.example\.org\/sso; /,
      );
      expect(e.message).not.toContain(TOKEN);
      expect(seen).toHaveLength(1); // not retried, not followed
    });
  });

  it("a write answered with a page is ambiguous and sent once", async () => {
    await withClient({ status: 200, html: true }, async (c) => {
      const e = await c
        .call("users.create", {
          body: {
            username: "ann",
            firstName: "Ann",
            lastName: "X",
            externalEmail: "ann@example.org",
          },
        })
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AmbiguousRequestError);
      expect((e as Error).message).toMatch(
        /the service answered an HTML page \("Sign in"\), not JSON/,
      );
      expect(seen.filter((r) => r.method === "POST")).toHaveLength(1);
    });
  });

  it("an idempotent write (PUT) answered with a page is ambiguous too: a re-read decides", async () => {
    await withClient({ status: 200, html: true }, async (c) => {
      const e = await c
        .call("projects.replace", {
          params: { projectSlug: "tf-a" },
          body: { description: "x" },
        })
        .catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AmbiguousRequestError);
      expect(seen.filter((r) => r.method !== "GET")).toHaveLength(1);
    });
  });

  it("plan exits 1 with one line naming the setting; doctor fails the URL check", async () => {
    mode = { status: 302, html: false };
    const env = { PHCTL_API_URL: url, PHCTL_TOKEN: TOKEN };
    const plan = await phctl(["plan", "examples"], env);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toBe("");
    expect(plan.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(plan.stderr).toMatch(
      /^phctl: GET \/v1\/organization\/list \(organizations\.list\): 302 NOT_THE_API: .*PHCTL_API_URL \(or --api-url\) must be the API's own address/,
    );
    expect(plan.stderr).not.toContain(TOKEN);
    mode = { status: 200, html: true };
    const doctor = await phctl(["doctor"], env);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout + doctor.stderr).toMatch(
      /URL +fail +http:\/\/127\.0\.0\.1:\d+ answers \(200 in \d+ ms\), but not as the API: the service answered an HTML page \("Sign in"\)/,
    );
  });
});
