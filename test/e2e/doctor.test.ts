/**
 * `phctl doctor` end to end: the built CLI against the reference server on loopback (plain,
 * behind an HTTPS front with a private CA and a CONNECT proxy, and shaped by an API
 * profile). It exits 0 when every read fits, 1 naming the problem otherwise, and only ever
 * sends GETs.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadApiProfile } from "../../src/api/profile-load.js";
import { seed } from "../../src/server/seed.js";
import { DEFAULT_PROFILE } from "../../src/api/profile.js";
import { applyProfileFixes } from "../../src/cli/doctor-fixes.js";
import { profileYaml, renderDoctorText } from "../../src/cli/doctor-render.js";
import { PLAIN } from "../../src/render/style.js";
import { richOrganization } from "../export/fixtures.js";
import { phctl } from "../helpers/cli.js";
import {
  CA_FILE,
  startConnectProxy,
  startTlsFront,
  type Loopback,
  type Proxy,
} from "../helpers/network.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "api-profiles");

const READS = [
  "organizations.list",
  "licenses.list",
  "users.list",
  "users.get",
  "users.services",
  "teams.list",
  "teams.get",
  "orgTeams.list",
  "projects.list",
  "projects.get",
  "git.group.get",
  "git.subgroups.list",
  "git.repos.list",
  "git.repos.get",
  "bundles.list",
  "mirrors.list",
  "mirrors.get",
  "artifacts.repos.list",
  "artifacts.repos.get",
];

let t: TestServer;
let front: Loopback;
let proxy: Proxy;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  t = await startServer({ requestLog: true });
  seed(t.server.ctx, richOrganization());
  front = await startTlsFront(Number(new URL(t.url).port));
  proxy = await startConnectProxy();
  dir = mkdtempSync(join(tmpdir(), "phctl-doctor-"));
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.member.secret };
});
afterAll(async () => {
  await proxy.close();
  await front.close();
  await t.close();
});

const mkdir = (path: string) => (mkdirSync(path, { recursive: true }), path);
const writes = () => t.server.requestLog.filter((e) => e.method !== "GET");
const row = (out: string, name: string) => out.split("\n").find((l) => l.startsWith(`  ${name} `));

describe("phctl doctor against the reference server", () => {
  it("exits 0 and lists every read operation as fitting; sends only GETs", async () => {
    const before = t.server.requestLog.length;
    const r = await phctl(["doctor"], env, dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    for (const op of READS) expect(row(r.stdout, op)).toMatch(/ ok {6}fits/);
    expect(row(r.stdout, "users.list")).toMatch(/all=true ok; page\/limit ok \(total 4\)/);
    expect(row(r.stdout, "mirrors.list")).toMatch(/page\/limit ok \(total 2\)/);
    expect(row(r.stdout, "token")).toMatch(/ok +accepted/);
    expect(row(r.stdout, "parent organization")).toMatch(/ok +acme/);
    expect(row(r.stdout, "clock")).toMatch(/ok +in step/);
    expect(r.stdout).toContain("phctl can work with this service: 19 of 19 read operations fit.");
    expect(r.stdout).not.toContain(TOKENS.member.secret);
    const mine = t.server.requestLog.slice(before);
    expect(mine.length).toBeGreaterThan(READS.length);
    expect(mine.filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("--format json is the same report as data", async () => {
    const r = await phctl(["doctor", "--format", "json"], env, dir);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ formatVersion: 1, apiUrl: t.url, ok: true, profileFixes: [] });
    expect(report.reads.map((x: { operation: string }) => x.operation)).toEqual(READS);
    expect(report.reads.every((x: { status: string }) => x.status === "ok")).toBe(true);
    const check = (name: string) => report.checks.find((c: { name: string }) => c.name === name);
    expect(check("parent organization").detail).toMatch(/^acme /);
    expect(check("proxy").detail).toMatch(/^none/);
    expect(report.notProbed[0].operations).toContain("users.entitlementStatus");
    expect(writes()).toEqual([]);
  });

  it("a bad token: exit 1, naming the token problem and the fix, never the token", async () => {
    const r = await phctl(["doctor"], { ...env, PHCTL_TOKEN: "not-the-token" }, dir);
    expect(r.code).toBe(1);
    expect(row(r.stdout, "token")).toMatch(/fail +not accepted \(401 /);
    expect(r.stdout).toContain("→ set a valid token in PHCTL_TOKEN or pass --token-file FILE");
    expect(r.stdout).toContain("phctl cannot work with this service as it is: 1 problem (token).");
    expect(r.stdout + r.stderr).not.toContain("not-the-token");
  });

  it("phctl.yaml naming another organization than the token's is a failure", async () => {
    const cfg = join(dir, "other-org");
    writeFileSync(join(mkdir(cfg), "phctl.yaml"), `apiUrl: ${t.url}\norganization: globex\n`);
    const r = await phctl(["doctor", "other-org"], { PHCTL_TOKEN: TOKENS.member.secret }, dir);
    expect(r.code).toBe(1);
    expect(row(r.stdout, "parent organization")).toMatch(
      /fail +acme \(.*\), but phctl\.yaml says organization: globex/,
    );
  });
});

describe("phctl doctor on a corporate network", () => {
  it("through HTTPS_PROXY with caFile: in phctl.yaml: shows the proxy and CA in use, exit 0", async () => {
    const cfg = mkdir(join(dir, "corp"));
    copyFileSync(CA_FILE, join(cfg, "corp-ca.pem"));
    writeFileSync(join(cfg, "phctl.yaml"), `apiUrl: ${front.url}\ncaFile: corp-ca.pem\n`);
    const before = proxy.tunnels.length;
    const r = await phctl(
      ["doctor", "corp"],
      { PHCTL_TOKEN: TOKENS.member.secret, HTTPS_PROXY: proxy.url },
      dir,
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(row(r.stdout, "proxy")).toContain(
      `${proxy.url} (CONNECT tunnel; HTTPS_PROXY ${proxy.url})`,
    );
    expect(row(r.stdout, "CA")).toMatch(
      /Node's default roots \+ caFile .*corp\/corp-ca\.pem \(1 certificate\)/,
    );
    expect(row(r.stdout, "TLS")).toMatch(
      /ok +TLSv1\.[23]; CN=127\.0\.0\.1, O=phctl tests, issuer CN=phctl test CA, O=phctl tests, expires 2126-/,
    );
    expect(proxy.tunnels.length).toBeGreaterThan(before);
    expect(new Set(proxy.tunnels.slice(before).map((x) => x.target))).toEqual(
      new Set([`127.0.0.1:${front.port}`]),
    );
    expect(JSON.stringify(proxy.tunnels)).not.toContain(TOKENS.member.secret);
  });

  it("without the CA: exit 1, the certificate named and how to supply its CA", async () => {
    const r = await phctl(["doctor"], { ...env, PHCTL_API_URL: front.url }, dir);
    expect(r.code).toBe(1);
    expect(row(r.stdout, "TLS")).toMatch(/fail +TLSv1\.[23]; CN=127\.0\.0\.1/);
    expect(r.stdout).toContain(
      `→ TLS: the certificate of 127.0.0.1:${front.port} (subject: CN=127.0.0.1, O=phctl tests; issuer: CN=phctl test CA, O=phctl tests) is not trusted (SELF_SIGNED_CERT_IN_CHAIN): set NODE_EXTRA_CA_CERTS=/path/ca.pem or caFile: in phctl.yaml`,
    );
    expect(row(r.stdout, "URL")).toMatch(/fail +not reachable: TLS: the certificate of/);
  });
});

describe("phctl doctor and an API profile", () => {
  const PROFILE = [
    "envelope:",
    "  list: { items: items }",
    "operations:",
    '  users.services: { path: "/v1/users/{username}/service-accounts" }',
    "",
  ].join("\n");

  it("a service shaped differently: exit 1 with the profile line that fixes it; with the profile, exit 0", async () => {
    const file = join(dir, "profile.yaml");
    writeFileSync(file, PROFILE);
    const shaped = await startServer({ apiProfile: loadApiProfile(file) });
    try {
      seed(shaped.server.ctx, richOrganization());
      const e = { PHCTL_API_URL: shaped.url, PHCTL_TOKEN: TOKENS.member.secret };
      const without = await phctl(["doctor"], e, dir);
      expect(without.code).toBe(1);
      expect(row(without.stdout, "users.list")).toMatch(/fail +answers, but does not fit/);
      expect(without.stdout).toMatch(
        /\/data expected an array, got nothing.*→ profile: envelope\.list\.items: items/,
      );
      // Read again with that line applied, doctor finds the moved operation too.
      expect(without.stdout).toContain(
        [
          "    envelope:",
          "      list:",
          "        items: items",
          "    operations:",
          "      users.services:",
          "        path: <the service's path for /v1/users/{username}/services>",
          "",
          "  Read again with the other lines applied (not operations.users.services.path: the service's value is needed): 18 of 19 read operations fit.",
          "    fail  users.services: 404 NOT_FOUND",
        ].join("\n"),
      );

      const withIt = await phctl(["--api-profile", "profile.yaml", "doctor"], e, dir);
      expect(withIt.code).toBe(0);
      expect(row(withIt.stdout, "users.services")).toMatch(
        /GET \/v1\/users\/\{username\}\/service-accounts +ok/,
      );
      expect(row(withIt.stdout, "API profile")).toMatch(
        /profile\.yaml \(1 operation overridden, list items at items\)/,
      );
      expect(shaped.server.requestLog.filter((x) => x.method !== "GET")).toEqual([]);
    } finally {
      await shaped.close();
    }
  });

  it("the lines it suggests for a differently paged service are what its re-read applies, and they fit", async () => {
    // Issue 26: lists in `items`, pagination in `paging` with other field names. Doctor
    // suggested `pageFields.limit: pageSize` and `totalPages: <the service's name>` (it
    // took `pageSize` for a page count too), then reread without them and failed on
    // /paging/limit under "Read again with those lines applied".
    const shaped = await startServer({
      apiProfile: loadApiProfile(join(FIXTURES, "shaped.yaml")),
    });
    try {
      seed(shaped.server.ctx, richOrganization());
      const e = { PHCTL_API_URL: shaped.url, PHCTL_TOKEN: TOKENS.member.secret };
      const first = await phctl(["doctor", "--format", "json"], e, dir);
      const report = JSON.parse(first.stdout) as {
        profileFixes: string[];
        withFixes: { profileFixes: string[]; reads: { operation: string; shape?: unknown[] }[] };
      };
      expect(report.profileFixes).toEqual(
        expect.arrayContaining([
          "envelope.list.items: items",
          "envelope.list.pagination: paging",
          "envelope.list.pageFields.limit: pageSize",
          "envelope.list.pageFields.totalPages: pageCount",
        ]),
      );
      expect(report.withFixes.profileFixes.sort()).toEqual([...report.profileFixes].sort());
      const misfits = report.withFixes.reads.filter((r) => r.shape?.length);
      expect(misfits).toEqual([]);
      // The lines written to a profile: doctor reads the same way as its re-read did.
      writeFileSync(
        join(dir, "suggested.yaml"),
        `${profileYaml(report.profileFixes).join("\n")}\n`,
      );
      const withThem = await phctl(["--api-profile", "suggested.yaml", "doctor"], e, dir);
      expect(withThem.stdout).not.toMatch(/expected a number|does not fit/);
    } finally {
      await shaped.close();
    }
  });

  it("profile lines become one YAML snippet (operation ids keep their dots)", () => {
    expect(
      profileYaml([
        "envelope.list.items: items",
        "envelope.list.pageFields.total: count",
        "operations.users.get.path: /v1/people/{username}",
      ]),
    ).toEqual([
      "envelope:",
      "  list:",
      "    items: items",
      "    pageFields:",
      "      total: count",
      "operations:",
      "  users.get:",
      "    path: /v1/people/{username}",
    ]);
  });
});

describe("the re-read says which lines it applied", () => {
  it("a line without a value is named as not tried, never counted as applied", () => {
    const text = renderDoctorText(
      {
        formatVersion: 1,
        apiUrl: "http://x",
        ok: false,
        checks: [],
        reads: [],
        notProbed: [],
        profileFixes: [
          "envelope.list.items: items",
          "envelope.list.pageFields.total: <the service's name>",
        ],
        withFixes: { profileFixes: ["envelope.list.items: items"], reads: [] },
      },
      PLAIN,
    );
    expect(text).toContain(
      "Read again with the other lines applied (not envelope.list.pageFields.total: the service's value is needed): 0 of 0",
    );
  });
});

describe("profile fixes applied in memory", () => {
  it("shape settings with a guessed value apply; an unknown path or setting does not", () => {
    const base = DEFAULT_PROFILE;
    const fixed = applyProfileFixes(base, [
      "envelope.list.items: items",
      "envelope.list.pagination: meta",
      "envelope.list.pageFields.total: count",
      "queue.id: jobId",
    ]);
    expect(fixed?.list).toMatchObject({
      items: "items",
      pagination: "meta",
      fields: { total: "count", limit: "limit" },
    });
    expect(fixed?.queueId[0]).toBe("jobId");
    expect(applyProfileFixes(base, ["operations.users.get.path: <the service's path>"])).toBe(
      undefined,
    );
    expect(applyProfileFixes(base, ["envelope.list.pageFields.nope: x"])).toBe(undefined);
  });
});
