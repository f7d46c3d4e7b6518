/**
 * `phctl doctor` and the git host's delivery-metrics API (`phctl report delivery` reads it):
 * with PHCTL_GIT_TOKEN set, one DORA read of the git group doctor found — ok, or failed
 * naming what to set (never the token); without it, one line saying it was not checked.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { richOrganization } from "../export/fixtures.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const NAME = "delivery-metrics API";

let t: TestServer;
let dir: string;
let env: Record<string, string>;
let groupId: number;

beforeAll(async () => {
  t = await startServer({ requestLog: true });
  seed(t.server.ctx, richOrganization());
  dir = mkdtempSync(join(tmpdir(), "phctl-doctor-git-"));
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.member.secret };
  // The first project with a git group (doctor reads projects in the list's order).
  const projects = await t.call("GET", "/v1/projects", { query: { all: true } });
  for (const p of projects.body.data as { projectSlug: string }[]) {
    const g = await t.call("GET", `/v1/projects/${p.projectSlug}/git/groups`);
    if (g.status === 200) {
      groupId = g.body.data.id;
      break;
    }
  }
});
afterAll(async () => {
  await t.close();
});

const lines = (out: string) => out.split("\n");
const rowAt = (out: string) => lines(out).findIndex((l) => l.startsWith(`  ${NAME} `));
const row = (out: string) => lines(out)[rowAt(out)];
/** The row's `→ fix` line, if it has one. */
const fixOf = (out: string) => {
  const next = lines(out)[rowAt(out) + 1] ?? "";
  return next.trim().startsWith("→") ? next.trim() : undefined;
};

/** A loopback HTTP server that answers every request with `status` and JSON `body`. */
async function answering(status: number, body: unknown): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("phctl doctor checks the delivery-metrics API", () => {
  it("the right git token: one DORA read of the first git group, ok; exit 0", async () => {
    const before = t.server.requestLog.length;
    const r = await phctl(["doctor"], { ...env, PHCTL_GIT_TOKEN: TOKENS.member.secret }, dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(row(r.stdout)).toMatch(
      new RegExp(`ok +${t.url}/git-api answers: deployment_frequency of git group ${groupId} `),
    );
    expect(fixOf(r.stdout)).toBeUndefined();
    const dora = t.server.requestLog.slice(before).filter((e) => e.operation === "dora.group");
    expect(dora.length).toBe(1);
    expect(dora[0]).toMatchObject({ method: "GET", status: 200 });
    const q = new URL(dora[0].url, t.url).searchParams;
    expect(q.get("metric")).toBe("deployment_frequency");
    expect(q.get("interval")).toBe("all");
    expect(new URL(dora[0].url, t.url).pathname).toBe(`/git-api/groups/${groupId}/dora/metrics`);

    const j = await phctl(
      ["doctor", "--format", "json"],
      { ...env, PHCTL_GIT_TOKEN: TOKENS.member.secret },
      dir,
    );
    expect(j.code).toBe(0);
    const check = JSON.parse(j.stdout).checks.find((c: { name: string }) => c.name === NAME);
    expect(check).toMatchObject({ status: "ok" });
    expect(check.fix).toBeUndefined();
  });

  it("a wrong git token: the row fails naming PHCTL_GIT_TOKEN, exit 1, never the token", async () => {
    const secret = "wrong-git-token-Qz81xV";
    for (const format of ["text", "json"]) {
      const r = await phctl(
        ["doctor", "--format", format],
        { ...env, PHCTL_GIT_TOKEN: secret },
        dir,
      );
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).not.toContain(secret);
      if (format === "json") {
        const check = JSON.parse(r.stdout).checks.find((c: { name: string }) => c.name === NAME);
        expect(check).toMatchObject({ status: "fail" });
        expect(check.fix).toContain("PHCTL_GIT_TOKEN");
        continue;
      }
      expect(row(r.stdout)).toMatch(/fail +the git token was not accepted \(401 /);
      expect(fixOf(r.stdout)).toMatch(/PHCTL_GIT_TOKEN/);
      expect(r.stdout).toContain(`1 problem (${NAME})`);
    }
  });

  it("--git-api-url answering another shape: the row fails naming PHCTL_GIT_API_URL", async () => {
    const git = await answering(200, { hello: 1 });
    try {
      const r = await phctl(
        ["doctor", "--git-api-url", git.url],
        { ...env, PHCTL_GIT_TOKEN: TOKENS.member.secret },
        dir,
      );
      expect(r.code).toBe(1);
      expect(row(r.stdout)).toMatch(
        new RegExp(`fail +${git.url} answers \\(200\\), but not as the delivery-metrics API`),
      );
      expect(fixOf(r.stdout)).toMatch(/PHCTL_GIT_API_URL \(or --git-api-url\)/);
      expect(r.stdout).not.toContain(TOKENS.member.secret);
    } finally {
      git.server.close();
    }
  });

  it("a git host that does not know the group: the row names the group id", async () => {
    const git = await answering(404, { message: "404 Group Not Found" });
    try {
      const r = await phctl(
        ["doctor"],
        { ...env, PHCTL_GIT_TOKEN: TOKENS.member.secret, PHCTL_GIT_API_URL: git.url },
        dir,
      );
      expect(r.code).toBe(1);
      expect(row(r.stdout)).toMatch(
        new RegExp(`fail +git group ${groupId} \\(of project [\\w-]+\\) not found at ${git.url}`),
      );
      expect(row(r.stdout)).toContain("the git host may not know the service's groups");
      expect(fixOf(r.stdout)).toMatch(/PHCTL_GIT_API_URL/);
    } finally {
      git.server.close();
    }
  });

  it("no git token: one line saying it was not checked and how to check it; exit as before", async () => {
    const before = t.server.requestLog.length;
    const r = await phctl(["doctor"], env, dir);
    expect(r.code).toBe(0);
    expect(row(r.stdout)).toMatch(/skip +not checked: PHCTL_GIT_TOKEN is not set — set it/);
    expect(fixOf(r.stdout)).toBeUndefined();
    expect(r.stdout).toContain("phctl can work with this service: 19 of 19 read operations fit.");
    const sent = t.server.requestLog.slice(before);
    expect(sent.filter((e) => e.operation === "dora.group")).toEqual([]);
  });
});
