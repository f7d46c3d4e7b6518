/**
 * `export --factor` in process: the factored files load to the same desired state as the plain
 * export (every kind's desired objects, keys and fields; sources aside) — on the rich
 * organization, on a uniform one where every layer is written, and on random organizations
 * (property) — and a plan of them shows no changes.
 */
import fc from "fast-check";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { generate } from "../../bench/generate.js";
import { ApiClient } from "../../src/api/client.js";
import { desiredOf } from "../../src/engine/scope.js";
import { runPlan } from "../../src/engine/run-plan.js";
import { exportOrganization, type ExportResult } from "../../src/export/index.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import type { DesiredState } from "../../src/manifest/types.js";
import { seed, type SeedDocument } from "../../src/server/seed.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { organization } from "./arbitraries.js";
import { entryLines, richOrganization } from "./fixtures.js";

/** The files of an export, loaded. */
function load(r: ExportResult) {
  return loadManifestTexts(
    r.files
      .filter((f) => f.holds !== "schema")
      .map((f) => ({ file: f.path, content: f.text, config: f.holds === "config" })),
  );
}

/** Every desired object of every kind, by key: what a plan compares. */
function normalised(state: DesiredState | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!state) return out;
  for (const [kind, list] of desiredOf(state))
    for (const d of list) out[`${kind} ${d.key}`] = d.fields;
  return out;
}

/** Export plain and factored; both loaded; a plan of the factored files. */
async function both(t: TestServer, share = 0.6) {
  const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  try {
    const plain = await exportOrganization(api, { organization: "acme" });
    const factored = await exportOrganization(api, { organization: "acme", factor: share });
    const p = load(plain);
    const f = load(factored);
    const plan = f.state ? await runPlan({ api, state: f.state, apiUrl: t.url }) : undefined;
    return { plain, factored, p, f, plan };
  } finally {
    await api.close();
  }
}

const errors = (r: ReturnType<typeof load>) =>
  r.diagnostics
    .filter((d) => d.severity === "error")
    .map((d) => `${d.file}:${d.line} ${d.message}`);

const lineCount = (r: ExportResult) =>
  r.files
    .filter((f) => f.holds !== "schema")
    .reduce((n, f) => n + f.text.split("\n").length - 1, 0);

async function withServer<T>(doc: SeedDocument, run: (t: TestServer) => Promise<T>): Promise<T> {
  const t = await startServer();
  try {
    seed(t.server.ctx, doc);
    return await run(t);
  } finally {
    await t.close();
  }
}

describe("export --factor", () => {
  it("a uniform organization: layers for projects, users and teams; fewer lines; same state; no changes", async () => {
    const org = generate({ users: 40, teams: 2, projects: 10, repos: 50 });
    await withServer(org.seed, async (t) => {
      const r = await both(t);
      expect(errors(r.f)).toEqual([]);
      expect(normalised(r.f.state)).toEqual(normalised(r.p.state));
      expect(entryLines(r.plan)).toEqual([]);
      const defaults = r.factored.files.find((f) => f.path === "defaults.yaml")!;
      expect(defaults.holds).toBe("Defaults");
      expect(defaults.names).toEqual(["projects", "users", "teams"]);
      const docs = defaults.text.split(/^---$/m).map((d) => parse(d) as Record<string, any>);
      expect(docs[0].spec.values).toEqual({
        licenses: ["Apache-2.0"],
        git: { subgroups: ["docs", "tools/ci"] },
      });
      expect(docs[1].spec.values).toEqual({ services: { git: {} } });
      expect(r.factored.counts.defaults).toBe(3);
      const p0 = r.factored.files.find((f) => f.path === "projects/p0.yaml")!.text;
      expect(p0).not.toContain("licenses");
      expect(p0).not.toContain("subgroups");
      expect(lineCount(r.factored)).toBeLessThan(lineCount(r.plain));
    });
  }, 30_000);

  it("the rich organization: same state, no changes", async () => {
    await withServer(richOrganization(), async (t) => {
      const r = await both(t, 0.51);
      expect(errors(r.f)).toEqual([]);
      expect(normalised(r.f.state)).toEqual(normalised(r.p.state));
      expect(entryLines(r.plan)).toEqual([]);
    });
  }, 30_000);

  it("an object that cannot say what it lacks (a user without the git account the others have) is written whole with inherit: false", async () => {
    const doc = generate({ users: 6, teams: 1, projects: 2, repos: 2 }).seed;
    doc.users![5].services = {};
    await withServer(doc, async (t) => {
      const r = await both(t);
      expect(errors(r.f)).toEqual([]);
      expect(normalised(r.f.state)).toEqual(normalised(r.p.state));
      const users = r.factored.files.find((f) => f.path === "users.yaml")!.text;
      const docs = users.split(/^---$/m).map((d) => parse(d) as Record<string, any>);
      expect(docs.find((d) => d.metadata.name === "user5")!.spec).toEqual({
        inherit: false,
        firstName: "F5",
        lastName: "L5",
        externalEmail: "user5@example.org",
      });
      expect(docs.find((d) => d.metadata.name === "user4")!.spec.services).toBeUndefined();
    });
  }, 30_000);

  it("tombstones: a project without the license every other has removes it; a repository says the default the layer overrides", async () => {
    const doc = generate({ users: 6, teams: 1, projects: 4, repos: 8 }).seed;
    doc.projects![3].licenses = ["MIT"];
    for (const p of doc.projects!)
      for (const repo of p.git!.repositories!)
        repo.requiresDCO = !(p.slug === "p1" && repo.name === "main");
    await withServer(doc, async (t) => {
      const r = await both(t);
      expect(errors(r.f)).toEqual([]);
      expect(normalised(r.f.state)).toEqual(normalised(r.p.state));
      const p3 = r.factored.files.find((f) => f.path === "projects/p3.yaml")!.text;
      expect(parse(p3.replace(/^#.*$/gm, "")).spec.licenses).toEqual([
        "MIT",
        { $remove: "Apache-2.0" },
      ]);
      const defaults = r.factored.files.find((f) => f.path === "defaults.yaml")!.text;
      expect(defaults).toMatch(/kind: Repository\n {2}values:\n {4}requiresDCO: true\n/);
      const p1 = parse(r.factored.files.find((f) => f.path === "projects/p1.yaml")!.text);
      expect(p1.spec.git.repositories[0]).toMatchObject({ name: "main", requiresDCO: false });
      expect(p1.spec.git.repositories[1]).toEqual({ name: "repo1", subgroup: "docs" });
    });
  }, 30_000);

  it("any small organization: factored and plain exports load to the same desired state (property)", async () => {
    await fc.assert(
      fc.asyncProperty(organization, fc.integer({ min: 51, max: 100 }), async (doc, pct) => {
        await withServer(doc, async (t) => {
          const r = await both(t, pct / 100);
          expect(errors(r.f)).toEqual([]);
          expect(normalised(r.f.state)).toEqual(normalised(r.p.state));
        });
      }),
      { numRuns: 10 },
    );
  }, 60_000);
});
