/**
 * Plans scoped to a change (src/engine/scope.ts, scope-read.ts, run-plan.ts): the pure
 * parts on the examples, and a fast-check property against the reference server holding
 * the examples with drift in several places — for random changes of the config, the
 * scoped plan is the full plan restricted to its scope, and everything the change alters
 * in a full plan lies inside that scope.
 */
import equal from "fast-deep-equal";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import type { Plan, PlanEntry } from "../../src/engine/plan.js";
import { runPlanWithLive } from "../../src/engine/run-plan.js";
import { changeScope, desiredOf, scopeState, topKeyOf } from "../../src/engine/scope.js";
import { kinds } from "../../src/kinds/index.js";
import { targetScope } from "../../src/engine/scope-read.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import type { DesiredState } from "../../src/manifest/types.js";
import { populate } from "../helpers/populate.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { change, inputsOf, readConfig, withPending, type Config } from "./scope-changes.js";

const examples = readConfig("examples");
/** The base: the examples, live, plus a user and a repository declared but not live. */
const config = withPending(examples);
/** The config loaded; undefined when a change made it invalid (the loader refuses it). */
const tryLoad = (c: Config): DesiredState | undefined => loadManifestTexts(inputsOf(c)).state;
const load = (c: Config): DesiredState => {
  const state = tryLoad(c);
  if (!state)
    throw new Error(`invalid: ${JSON.stringify(loadManifestTexts(inputsOf(c)).diagnostics)}`);
  return state;
};
const base = load(config);

let t: TestServer;
let api: ApiClient;
let fullBase: Plan;

beforeAll(async () => {
  t = await startServer({ checkResponses: false, requestLog: true });
  api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret, concurrency: 8 });
  await populate(api, load(examples));
  // Drift in several projects and a user; an undeclared live user with a wiki account.
  await t.call("PATCH", "/v1/projects/trusted-firmware-a", { body: { description: "drifted" } });
  await t.call("DELETE", "/v1/projects/mbed-tls/developers/users/asmith");
  await t.call("PATCH", "/v1/users/bwong", { body: { firstName: "Bob" } });
  const ghost = { username: "ghost", firstName: "G", lastName: "Host", externalEmail: "g@h.org" };
  expect((await t.call("POST", "/v1/users", { body: ghost })).status).toBeLessThan(300);
  await t.call("POST", "/v1/users/ghost/wiki", { body: {} });
  fullBase = (await plan(base)).plan;
  expect(fullBase.entries.length).toBeGreaterThan(0);
});
afterAll(async () => {
  await api.close();
  await t.close();
});

function plan(state: DesiredState, scope?: readonly string[]) {
  return runPlanWithLive({ api, state, apiUrl: "test", ...(scope ? { scope } : {}) });
}

const byKey = (a: PlanEntry, b: PlanEntry) =>
  a.key === b.key ? a.action.localeCompare(b.action) : a.key < b.key ? -1 : 1;
/** What an entry asks for, sources and before-values aside (they move with unrelated edits). */
const ask = (e: PlanEntry) =>
  JSON.stringify([
    e.action,
    e.action === "create" ? e.after : e.changes.map((c) => [c.field, c.after]),
    e.ticket?.subject,
    e.blocked,
  ]);

describe("changeScope", () => {
  it("is empty for the same config, everything when a planning setting differs", () => {
    expect(changeScope(base, load(config))).toEqual({ keys: [], settings: [] });
    const pruned = structuredClone(config);
    pruned.settings.prune.repositories = true;
    pruned.settings.concurrency = 2;
    expect(changeScope(base, load(pruned))).toEqual({ keys: [], settings: ["prune"] });
  });

  it("names the top-level object of every changed document, and projects reading a user's facts", () => {
    const c = structuredClone(config);
    const doc = (name: string) => c.docs.find((d) => d.doc.metadata.name === name)!.doc;
    doc("ci-tools").spec.git.repositories.push({ name: "extra" });
    doc("asmith").spec.services = { wiki: { status: "active" } };
    doc("mbed-tls").spec.access.editors = ["asmith"];
    const head = load(c);
    expect(changeScope(base, head).keys).toEqual([
      "project/ci-tools",
      "project/mbed-tls",
      "user/asmith",
    ]);
    // asmith no longer declared: whatever names asmith reads that (access checks, dependencies).
    c.docs = c.docs.filter((d) => d.doc.metadata.name !== "asmith");
    doc("mbed-tls").spec.access.editors = [];
    expect(changeScope(head, load(c)).keys).toEqual([
      "project/ci-tools",
      "project/mbed-tls",
      "project/trusted-firmware-a",
      "team/tfa-maintainers",
      "user/asmith",
    ]);
  });

  it("scopeState keeps the top-level objects of any key given", () => {
    const s = scopeState(base, ["project/ci-tools/repo/pipelines", "user/jdoe"]);
    expect(s.projects.map((p) => p.slug)).toEqual(["ci-tools"]);
    expect(s.users.map((u) => u.username)).toEqual(["jdoe"]);
    expect([s.teams, s.organizations, s.referencedUsers]).toEqual([[], [], []]);
    expect(topKeyOf("project/a/repo/b/c")).toBe("project/a");
  });
});

/** The definition: top-level objects of every kind's desired objects added, removed or changed. */
function desiredTouched(base: DesiredState, head: DesiredState): string[] {
  const before = desiredOf(base);
  const after = desiredOf(head);
  const out = new Set<string>();
  for (const k of kinds) {
    const was = new Map((before.get(k.kind) ?? []).map((d) => [d.key, d]));
    const now = new Map((after.get(k.kind) ?? []).map((d) => [d.key, d]));
    for (const key of new Set([...was.keys(), ...now.keys()])) {
      const [a, b] = [was.get(key), now.get(key)];
      const same =
        a &&
        b &&
        equal(a.fields, b.fields) &&
        equal(a.dependsOn, b.dependsOn) &&
        (a.protect ?? false) === (b.protect ?? false);
      if (!same) out.add(topKeyOf(key));
    }
  }
  return [...out].sort();
}

describe("changeScope holds every changed desired object (property, no server)", () => {
  it("for random changes, each kind's added, removed or changed objects are in scope", () => {
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 4 }), (changes) => {
        const c = structuredClone(config);
        for (const [, f] of changes) f(c);
        const head = tryLoad(c);
        fc.pre(head !== undefined);
        const found = changeScope(base, head);
        if (found.settings.length > 0) return;
        const missing = desiredTouched(base, head).filter((k) => !found.keys.includes(k));
        expect(missing).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});

describe("targetScope", () => {
  const declared = ["project/a", "project/a/repo/r", "user/u", "project/b/group"];
  const tops = new Set(["project/a", "project/b", "user/u"]);
  it("maps keys, prefixes, globs and keys under a declared object to top-level keys", () => {
    expect(targetScope(declared, tops, ["project/a/repo/r"])).toEqual(["project/a"]);
    expect(targetScope(declared, tops, ["project/b/repo/new"])).toEqual(["project/b"]);
    expect(targetScope(declared, tops, ["project/*/group", "user/u"])).toEqual([
      "project/b",
      "user/u",
    ]);
  });
  it("refuses a target that matches nothing declared", () => {
    expect(() => targetScope(declared, tops, ["project/nope"])).toThrow(
      /^--target project\/nope matches nothing declared; declared keys look like project\/<slug>, user\/<name>/,
    );
  });
});

describe("scoped plans against the reference server (property)", () => {
  it("equal the full plan restricted to the scope, and hold every key the change alters", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 3 }), async (changes) => {
        const c = structuredClone(config);
        for (const [, f] of changes) f(c);
        const head = tryLoad(c);
        fc.pre(head !== undefined);
        const found = changeScope(base, head);
        // A change may reference a user it also removes (a config plan refuses): then the
        // scoped plan must refuse it the same way, never plan around it.
        const refused = await plan(head).then(
          () => undefined,
          (e: unknown) => e,
        );
        if (refused !== undefined) {
          expect(refused).toMatchObject({ code: "UNKNOWN_REFERENCE" });
          if (found.settings.length === 0)
            await expect(plan(head, found.keys)).rejects.toMatchObject({
              code: "UNKNOWN_REFERENCE",
            });
          return;
        }
        const full = (await plan(head)).plan;
        if (found.settings.length > 0) return; // everything: the full plan is the plan
        t.server.requestLog.length = 0;
        const scoped = (await plan(head, found.keys)).plan;
        const scope = new Set(scoped.scope);
        expect(scoped.scope).toEqual(expect.arrayContaining(found.keys));
        const inScope = (key: string) => scope.has(topKeyOf(key));
        expect([...scoped.entries].sort(byKey)).toEqual(
          full.entries.filter((e) => inScope(e.key)).sort(byKey),
        );
        expect(scoped.unmanaged.filter((u) => !inScope(u.key))).toEqual([]);
        // Closed: what its entries depend on and a full plan would do is in the scope too.
        const planned = new Set(full.entries.map((e) => e.key));
        const needs = scoped.entries.flatMap((e) => e.dependsOn.filter((d) => planned.has(d)));
        expect(needs.filter((d) => !inScope(d))).toEqual([]);
        // Every key whose entry the change alters (a full plan of head vs of base) is in scope.
        const was = new Map(fullBase.entries.map((e) => [`${e.key} ${e.action}`, ask(e)]));
        const now = new Map(full.entries.map((e) => [`${e.key} ${e.action}`, ask(e)]));
        const altered = [...new Set([...was.keys(), ...now.keys()])]
          .filter((k) => was.get(k) !== now.get(k))
          .map((k) => k.split(" ")[0]);
        expect(altered.filter((k) => !inScope(k))).toEqual([]);
        expect(t.server.requestLog.length).toBeLessThanOrEqual(full.stats.apiCalls);
      }),
      { numRuns: 30 },
    );
  }, 60_000);
});
