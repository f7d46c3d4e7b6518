/**
 * The executor: the DAG walk on fake kinds (order, failure spread, unreachable nodes, no
 * node-level limit), queued jobs against the reference server (ids reported and journaled
 * before waiting, no slot held while waiting), the safety rails, and convergence — the
 * examples from empty, and a fast-check property on random manifests and live mutations.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import type { ApplyEvent } from "../../src/engine/apply-events.js";
import { planGraph, runApply, walk } from "../../src/engine/apply.js";
import {
  adminFloor,
  allowedRemovals,
  checkRails,
  massRemovals,
  staleObjects,
} from "../../src/engine/guards.js";
import { buildGraph } from "../../src/engine/graph.js";
import { Journal, readJournal, settleJobs, type JournalData } from "../../src/engine/journal.js";
import type { Action, Plan, PlanEntry } from "../../src/engine/plan.js";
import { fingerprint } from "../../src/engine/planner.js";
import { runPlanWithLive } from "../../src/engine/run-plan.js";
import type { LiveObject, ResourceKind } from "../../src/kinds/kind.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import { loadManifests } from "../../src/pipeline/load.js";
import type { DesiredState } from "../../src/manifest/types.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

const FAST = {
  retry: { baseDelayMs: 5, maxDelayMs: 40 },
  wait: { pollStartMs: 10, pollMaxMs: 40 },
};

function entry(action: Action, key: string, dependsOn: string[] = [], kind = "Fake"): PlanEntry {
  return {
    key,
    kind,
    action,
    before: action === "create" ? null : {},
    after: action === "delete" ? null : {},
    changes: [],
    reason: "test",
    source: null,
    dependsOn,
    destructive: false,
  };
}

/** A kind whose apply functions sleep, record, and fail for the keys in `failing`. */
function fakeKind(
  log: { key: string; start: number; end: number }[],
  failing: Set<string>,
  ms = 20,
): ResourceKind {
  const run = async (e: PlanEntry) => {
    const start = performance.now();
    await new Promise((r) => setTimeout(r, ms));
    log.push({ key: e.key, start, end: performance.now() });
    if (failing.has(e.key)) throw new Error(`${e.key} broke`);
  };
  return {
    kind: "Fake",
    ownership: { mode: "unmanaged" },
    immutable: {},
    destructiveDelete: false,
    desired: () => [],
    read: async () => [],
    create: (_api, e) => run(e),
    update: (_api, e) => run(e),
    delete: (_api, e) => run(e),
  };
}

const fakeApi = {} as ApiClient;
const liveOf = (...keys: string[]) =>
  new Map<string, LiveObject>(keys.map((k) => [k, { key: k, fields: {}, ids: {} }]));

describe("walk (fake kinds)", () => {
  it("runs an order-only node after its `after` prefix whatever those end in, and a hard dependency still skips it", async () => {
    const log: { key: string; start: number; end: number }[] = [];
    const entries = [
      entry("create", "u"),
      entry("create", "u/service/git", ["u"]),
      entry("create", "u/service/wiki", ["u"]),
      entry("create", "u/welcome", ["u"]),
      entry("create", "v"),
      entry("create", "v/service/git", ["v"]),
      entry("create", "v/welcome", ["v"]),
    ];
    const graph = buildGraph(entries, {
      after: (e) => (e.key.endsWith("/welcome") ? [e.key.replace(/welcome$/, "service/")] : []),
    });
    const out = await walk({
      api: fakeApi,
      graph,
      live: new Map(),
      // u's wiki account and v itself fail.
      kinds: [fakeKind(log, new Set(["u/service/wiki", "v"]))],
      reporter: () => {},
    });
    const at = new Map(log.map((l) => [l.key, l]));
    // u's welcome waited for both accounts — the one that failed too — and ran.
    expect(out.get("create u/welcome")).toMatchObject({ status: "done" });
    for (const k of ["u/service/git", "u/service/wiki"])
      expect(at.get(k)!.end).toBeLessThanOrEqual(at.get("u/welcome")!.start);
    // v failed: its welcome needs v (dependsOn) and is skipped, naming v.
    expect(out.get("create v/welcome")).toMatchObject({ status: "skipped", root: "v" });
  });

  it("starts a node only when its dependencies are done, and ready nodes at once", async () => {
    const log: { key: string; start: number; end: number }[] = [];
    const entries = [
      entry("create", "a"),
      entry("create", "b", ["a"]),
      entry("create", "c", ["a"]),
      entry("create", "d", ["b", "c"]),
      ...Array.from({ length: 10 }, (_, i) => entry("create", `free${i}`)),
    ];
    const graph = buildGraph(entries);
    const t0 = performance.now();
    const out = await walk({
      api: fakeApi,
      graph,
      live: new Map(),
      kinds: [fakeKind(log, new Set())],
      reporter: () => {},
    });
    const elapsed = performance.now() - t0;
    expect([...out.values()].every((o) => o.status === "done")).toBe(true);
    const at = new Map(log.map((l) => [l.key, l]));
    for (const e of entries)
      for (const d of e.dependsOn) expect(at.get(d)!.end).toBeLessThanOrEqual(at.get(e.key)!.start);
    // Three levels of 20 ms; the ten free nodes ran alongside, not one after another.
    expect(elapsed).toBeLessThan(20 * 3 + 150);
  });

  it("reports a failure once at its root, skips what needed it (root named), and goes on elsewhere", async () => {
    const log: { key: string; start: number; end: number }[] = [];
    const events: ApplyEvent[] = [];
    const graph = buildGraph([
      entry("create", "a"),
      entry("create", "b", ["a"]),
      entry("create", "c", ["b"]),
      entry("create", "e", ["c", "a"]),
      entry("create", "d", ["a"]),
      entry("create", "x"),
      entry("create", "y", ["x"]),
    ]);
    const out = await walk({
      api: fakeApi,
      graph,
      live: new Map(),
      kinds: [fakeKind(log, new Set(["b"]))],
      reporter: (e) => events.push(e),
    });
    const failed = events.filter((e) => e.type === "action-failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ key: "b", message: "b broke" });
    const skipped = events.filter((e) => e.type === "action-skipped");
    expect(skipped.map((e) => e.key).sort()).toEqual(["c", "e"]);
    for (const s of skipped)
      expect(s).toMatchObject({ root: "b", reason: "needs b, which failed" });
    expect(log.map((l) => l.key).sort()).toEqual(["a", "b", "d", "x", "y"]);
    expect(out.get("create d")).toMatchObject({ status: "done" });
    expect(out.get("create y")).toMatchObject({ status: "done" });
  });

  it("skips, without a call, what needs a key that a blocked entry keeps from existing", async () => {
    const log: { key: string; start: number; end: number }[] = [];
    const events: ApplyEvent[] = [];
    const blocked: PlanEntry = {
      ...entry("blocked", "p"),
      before: null,
      blocked: { field: "status", reason: "no" },
    };
    const graph = buildGraph([
      blocked,
      entry("create", "p/g", ["p"]),
      entry("create", "p/g/r", ["p/g"]),
    ]);
    await walk({
      api: fakeApi,
      graph,
      live: new Map(),
      kinds: [fakeKind(log, new Set())],
      reporter: (e) => events.push(e),
    });
    expect(log).toEqual([]);
    expect(
      events.map((e) => (e.type === "action-skipped" ? `${e.key} ← ${e.root}` : e.type)),
    ).toEqual(["p/g ← p", "p/g/r ← p"]);
  });

  it("a delete of something already gone is done without a call; a missing operation fails clearly", async () => {
    const log: { key: string; start: number; end: number }[] = [];
    const noUpdate: ResourceKind = { ...fakeKind(log, new Set()), kind: "NoUpdate" };
    delete (noUpdate as { update?: unknown }).update;
    const events: ApplyEvent[] = [];
    const out = await walk({
      api: fakeApi,
      graph: buildGraph([entry("delete", "gone"), entry("update", "u", [], "NoUpdate")]),
      live: liveOf("u"),
      kinds: [fakeKind(log, new Set()), noUpdate],
      reporter: (e) => events.push(e),
    });
    expect(log).toEqual([]);
    expect(out.get("delete gone")).toMatchObject({ status: "done" });
    expect(out.get("update u")).toMatchObject({
      status: "failed",
      message: "NoUpdate u: phctl cannot update a NoUpdate (no API operation is wired for it)",
    });
  });

  it("runApply counts ticket and blocked entries, never sending them", async () => {
    const log: { key: string; start: number; end: number }[] = [];
    const entries = [
      entry("create", "a"),
      { ...entry("ticket", "t"), ticket: { subject: "s", body: "b" } },
      { ...entry("blocked", "z"), blocked: { field: "f", reason: "r" } },
    ];
    const events: ApplyEvent[] = [];
    const r = await runApply({
      api: fakeApi,
      entries,
      graph: buildGraph(entries),
      live: new Map(),
      kinds: [fakeKind(log, new Set())],
      reporter: (e) => events.push(e),
    });
    expect(log.map((l) => l.key)).toEqual(["a"]);
    expect(r.summary).toMatchObject({ done: 1, failed: 0, skipped: 0, ticket: 1, blocked: 1 });
    expect(events[0]).toMatchObject({ type: "apply-started", total: 1, ticket: 1, blocked: 1 });
    expect(events.at(-1)).toMatchObject({ type: "apply-done" });
  });
});

// ---------------------------------------------------------------------------------------

const EXAMPLES = join(import.meta.dirname, "../../examples");

async function planAndApply(
  api: ApiClient,
  state: DesiredState,
  reporter: (e: ApplyEvent) => void = () => {},
) {
  const { plan, live } = await runPlanWithLive({ api, state, apiUrl: "test" });
  const graph = planGraph(plan.entries);
  return runApply({
    api,
    entries: plan.entries,
    graph,
    live,
    reporter,
    verify: { state, apiUrl: "test" },
  });
}

async function replan(api: ApiClient, state: DesiredState): Promise<Plan> {
  return (await runPlanWithLive({ api, state, apiUrl: "test" })).plan;
}

describe("apply against the reference server", () => {
  let t: TestServer;
  let api: ApiClient;
  beforeAll(async () => {
    t = await startServer({ queueDelayMs: 0 });
    api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret, ...FAST });
  });
  afterAll(async () => {
    await api.close();
    await t.close();
  });

  it("applies the examples from empty; the next plan is empty and verify finds nothing", async () => {
    const { state } = await loadManifests([EXAMPLES]);
    const events: ApplyEvent[] = [];
    const r = await planAndApply(api, state!, (e) => events.push(e));
    expect(r.summary).toMatchObject({ failed: 0, skipped: 0, inconsistent: 0 });
    expect(r.summary.done).toBeGreaterThan(50);
    expect(events.filter((e) => e.type === "job-waiting").length).toBeGreaterThan(5);
    expect((await replan(api, state!)).entries).toEqual([]);
  });
});

describe("queued jobs", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer({ queueDelayMs: 400 });
  });
  afterAll(async () => t.close());

  it("journals a job's id before waiting, and holds no concurrency slot while waiting", async () => {
    const api = new ApiClient({
      apiUrl: t.url,
      token: TOKENS.admin.secret,
      ...FAST,
      concurrency: 1,
    });
    const r = loadManifestTexts([
      { file: "phctl.yaml", content: "organization: acme\n", config: true },
      {
        file: "users.yaml",
        content: ["ann", "bob"]
          .map(
            (u) =>
              `---\napiVersion: phctl/v1\nkind: User\nmetadata: { name: ${u} }\nspec:\n  firstName: ${u}\n  lastName: X\n  externalEmail: ${u}@example.org\n  services: { git: {} }\n`,
          )
          .join(""),
      },
    ]);
    const state = r.state!;
    const file = join(mkdtempSync(join(tmpdir(), "phctl-journal-")), "journal.jsonl");
    const { plan, live } = await runPlanWithLive({ api, state, apiUrl: "test" });
    const journal = Journal.start(file, {
      createdAt: plan.createdAt,
      apiUrl: "test",
      organization: "acme",
      digest: "x",
      targets: [],
    });
    const seen: string[] = [];
    const onDisk: JournalData[] = [];
    const started = performance.now();
    let walked = 0;
    await runApply({
      api,
      entries: plan.entries,
      graph: planGraph(plan.entries),
      live,
      reporter: (e) => {
        journal.record(e);
        if (e.type === "job-waiting" || e.type === "job-done") {
          seen.push(`${e.type} ${e.key}`);
          onDisk.push(readJournal(file)!);
        }
        if (e.type === "action-done") walked = performance.now() - started;
      },
    });
    await api.close();
    // Both jobs were in flight at once with a single slot: neither blocked the other.
    expect(seen.slice(0, 2).sort()).toEqual([
      "job-waiting user/ann/service/git",
      "job-waiting user/bob/service/git",
    ]);
    expect(walked).toBeLessThan(2 * 400);
    // The id was on disk when the wait began, and gone once the job completed (a job's end
    // is written with the next batch: losing it costs one status read).
    expect(onDisk[0].inFlight).toHaveLength(1);
    expect(onDisk[1].inFlight).toHaveLength(2);
    const final = readJournal(file)!;
    expect(final.inFlight).toHaveLength(0);
    expect(final.status).toBe("finished");
    expect(final.done.sort()).toEqual([
      "create user/ann",
      "create user/ann/service/git",
      "create user/bob",
      "create user/bob/service/git",
    ]);
  });
});

describe("resume", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startServer({ queueDelayMs: 300 });
  });
  afterAll(async () => t.close());

  it("waits on an interrupted run's jobs without sending them again; a failed one is planned again", async () => {
    const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret, ...FAST });
    const yaml = ["cat", "dan"]
      .map(
        (u) =>
          `---\napiVersion: phctl/v1\nkind: User\nmetadata: { name: ${u} }\nspec:\n  firstName: ${u}\n  lastName: X\n  externalEmail: ${u}@example.org\n  services: { git: {} }\n`,
      )
      .join("");
    const state = loadManifestTexts([
      { file: "phctl.yaml", content: "organization: acme\n", config: true },
      { file: "users.yaml", content: yaml },
    ]).state!;
    // The interrupted run: users created, both git accounts sent, then killed while waiting.
    for (const u of ["cat", "dan"])
      await api.call("users.create", {
        body: { username: u, firstName: u, lastName: "X", externalEmail: `${u}@example.org` },
      });
    t.server.ctx.queue.failNext({ queue: "entitlement", message: "the git host refused" });
    const inFlight = [];
    for (const u of ["cat", "dan"]) {
      const res = await api.call("users.git.create", { params: { username: u }, body: {} });
      const key = `user/${u}/service/git`;
      inFlight.push({
        id: `create ${key}`,
        key,
        kind: "UserService",
        action: "create" as const,
        queue: "entitlement" as const,
        queueId: (res as { queueid: string }).queueid,
        since: "",
      });
    }
    const file = join(mkdtempSync(join(tmpdir(), "phctl-resume-")), "journal.jsonl");
    const journal = Journal.start(
      file,
      { createdAt: "", apiUrl: "test", organization: "acme", digest: "", targets: [] },
      { done: ["create user/cat", "create user/dan"] },
    );
    for (const j of inFlight) journal.record({ type: "job-waiting", ...j, resumed: false });
    const postsBefore = t.server.requestLog.filter((e) => e.method === "POST").length;

    const events: ApplyEvent[] = [];
    const { failed: failures, open } = await settleJobs(api, journal, (e) => events.push(e));
    expect(open).toEqual([]);
    expect(
      events
        .map((e) =>
          e.type === "job-done"
            ? `${e.key} ${e.ok}`
            : e.type === "job-waiting"
              ? `${e.type} ${e.key}`
              : e.type,
        )
        .sort(),
    ).toEqual([
      "job-waiting user/cat/service/git",
      "job-waiting user/dan/service/git",
      "user/cat/service/git false",
      "user/dan/service/git true",
    ]);
    expect([...failures.keys()]).toEqual(["create user/cat/service/git"]);
    expect(failures.get("create user/cat/service/git")).toMatch(/the git host refused/);
    expect(readJournal(file)!.inFlight).toEqual([]);

    // What is left is planned again: the failed job changed nothing, so its create is sent
    // once more (a new request, not a re-send of one that may have landed).
    const { plan, live } = await runPlanWithLive({ api, state, apiUrl: "test" });
    expect(plan.entries.map((e) => `${e.action} ${e.key}`)).toEqual([
      "create user/cat/service/git",
    ]);
    const after: ApplyEvent[] = [];
    const r = await runApply({
      api,
      entries: plan.entries,
      graph: planGraph(plan.entries),
      live,
      reporter: (e) => after.push(e),
    });
    expect(r.summary).toMatchObject({ done: 1, failed: 0 });
    expect(t.server.requestLog.filter((e) => e.method === "POST")).toHaveLength(postsBefore + 1);
    await api.close();
  });
});

describe("safety rails (pure)", () => {
  const del = (key: string, kind = "ProjectAccess") => entry("delete", key, [], kind);
  const add = (key: string, kind = "ProjectAccess") => entry("create", key, [], kind);

  it("allows at most maxRemovals of a scope, and always one removal unless it is 0", () => {
    expect(allowedRemovals(4, 0.25)).toBe(1);
    expect(allowedRemovals(3, 0.25)).toBe(1);
    expect(allowedRemovals(8, 0.25)).toBe(2);
    expect(allowedRemovals(8, 0)).toBe(0);
    const live = liveOf(
      ...["a", "b", "c", "d"].map((u) => `project/p/access/developers/user/${u}`),
    );
    expect(massRemovals([del("project/p/access/developers/user/a")], live, 0.25)).toEqual([]);
    const refused = massRemovals(
      [del("project/p/access/developers/user/a"), del("project/p/access/developers/user/b")],
      live,
      0.25,
    );
    expect(refused).toHaveLength(1);
    expect(refused[0].message).toBe(
      "refusing a mass removal: the plan removes 2 of 4 access entries of project p (50 %, more than maxRemovals 25 %): project/p/access/developers/user/a, project/p/access/developers/user/b; pass --allow-mass-removal if that is intended, or raise maxRemovals in phctl.yaml",
    );
  });

  it("counts team memberships and repositories per team and project", () => {
    const live = liveOf(
      "team/t/member/a",
      "team/t/member/b",
      "project/p/repo/r1",
      "project/p/repo/r2",
    );
    const msgs = massRemovals(
      [
        del("team/t/member/a", "TeamMember"),
        del("team/t/member/b", "TeamMember"),
        del("project/p/repo/r1", "Repository"),
      ],
      live,
      0.25,
    ).map((r) => r.message);
    expect(msgs).toHaveLength(1);
    expect(msgs[0]).toMatch(/removes 2 of 2 team memberships of team t/);
  });

  const level = (users: string[] = []) => ({ users, organizationTeams: [] });
  const state = (git: boolean, admins: string[] = []) =>
    ({
      projects: [
        {
          slug: "p",
          access: { admins: level(admins), maintainers: level(admins) },
          ...(git ? { git: {} } : {}),
        },
      ],
    }) as unknown as DesiredState;

  it("keeps an admin on every project and a maintainer on every declared git group", () => {
    const live = liveOf(
      "project/p/access/admins/user/a",
      "project/p/access/maintainers/user/m",
      "project/p/access/maintainers/team/acme/t",
    );
    expect(adminFloor([del("project/p/access/admins/user/a")], live, state(true))[0].message).toBe(
      "refusing: project p would be left without any admin (the plan removes user/a); declare one under spec.access.admins (or pass --allow-no-admin if that is intended)",
    );
    // Replaced, not removed: fine.
    expect(
      adminFloor(
        [del("project/p/access/admins/user/a"), add("project/p/access/admins/user/b")],
        live,
        state(true),
      ),
    ).toEqual([]);
    // A team is a maintainer too.
    expect(adminFloor([del("project/p/access/maintainers/user/m")], live, state(true))).toEqual([]);
    const both = [
      del("project/p/access/maintainers/user/m"),
      del("project/p/access/maintainers/team/acme/t"),
    ];
    expect(adminFloor(both, live, state(true))[0].message).toMatch(
      /^refusing: the git group of project p would be left without a maintainer \(the plan removes user\/m, team\/acme\/t\)/,
    );
    expect(adminFloor(both, live, state(false))).toEqual([]);
    // --allow-no-admin: the deliberate override.
    const rails = (allowNoAdmin: boolean) =>
      checkRails([del("project/p/access/admins/user/a")], live, state(true), {
        allowDelete: false,
        allowMassRemoval: true,
        allowNoAdmin,
        maxRemovals: 1,
      });
    expect(rails(false).map((r) => r.rail)).toContain("admin-floor");
    expect(rails(true)).toEqual([]);
    // A new project with no admin declared.
    expect(adminFloor([add("project/p", "Project")], new Map(), state(false))[0].message).toMatch(
      /project p would be left without any admin \(none is declared\)/,
    );
    // A new project whose admins the plan leaves to a later apply (a dependency of a
    // targeted object): judged by its manifest, which declares one.
    expect(adminFloor([add("project/p", "Project")], new Map(), state(true, ["a"]))).toEqual([]);
    // …but not when the plan touches its admins and none gets added (blocked).
    const blocked = { ...add("project/p/access/admins/user/a"), action: "blocked" as const };
    expect(
      adminFloor([add("project/p", "Project"), blocked], new Map(), state(false, ["a"]))[0].message,
    ).toMatch(/project p would be left without any admin/);
  });

  it("deletes data-bearing objects only with allowDelete, never under phctl/protect", async () => {
    const { state: s } = await loadManifests([EXAMPLES]);
    const rails = (allowDelete: boolean) =>
      checkRails(
        [
          del("project/trusted-firmware-a/mirror/x", "Mirror"),
          del("project/ci-tools/mirror/y", "Mirror"),
        ],
        new Map(),
        s!,
        {
          allowDelete,
          allowMassRemoval: true,
          maxRemovals: 0.25,
        },
      ).map((r) => `${r.rail}: ${r.message}`);
    expect(rails(false)).toEqual([
      "protect: refusing to delete 1 object under phctl/protect: project/trusted-firmware-a/mirror/x (remove the annotation first if they must go)",
      "delete: the plan deletes 2 data-bearing objects: project/trusted-firmware-a/mirror/x, project/ci-tools/mirror/y; pass --allow-delete to delete them, or leave them out with --target",
    ]);
    expect(rails(true)).toHaveLength(1);
    // Access removals are not data-bearing: no --allow-delete needed.
    expect(
      checkRails([del("project/ci-tools/access/developers/user/x")], new Map(), s!, {
        allowDelete: false,
        allowMassRemoval: true,
        maxRemovals: 1,
      }),
    ).toEqual([]);
  });

  it("a saved plan is stale when a touched object moved; the message says how", () => {
    const then = { key: "project/p", fields: { title: "A", description: "d" }, ids: { id: 1 } };
    const saved = {
      entries: [
        {
          ...entry("update", "project/p", [], "Project"),
          before: { title: "A" },
          after: { title: "B" },
        },
        entry("create", "project/p/repo/r", [], "Repository"),
        entry("delete", "project/p/repo/gone", [], "Repository"),
      ],
      fingerprints: { "project/p": fingerprint(then), "project/p/repo/gone": "x" },
    } as unknown as Plan;
    const now = new Map<string, LiveObject>([
      ["project/p", { ...then, fields: { title: "C", description: "changed" } }],
      ["project/p/repo/r", { key: "project/p/repo/r", fields: {}, ids: {} }],
    ]);
    const fresh = {
      entries: [
        {
          ...entry("update", "project/p"),
          changes: [{ field: "description", before: "changed", after: "d" }],
        },
      ],
    } as unknown as Plan;
    expect(staleObjects(saved, now, fresh)).toEqual([
      { key: "project/p", changes: ['title: "A" → "C"', 'description: "d" → "changed"'] },
      { key: "project/p/repo/r", changes: ["created since the plan was made"] },
      { key: "project/p/repo/gone", changes: ["deleted since the plan was made"] },
    ]);
    expect(staleObjects(saved, new Map([["project/p", then]]), fresh)).toEqual([
      { key: "project/p/repo/gone", changes: ["deleted since the plan was made"] },
    ]);
  });
});

// ---------------------------------------------------------------------------------------

const USERS = ["jdoe", "asmith", "bwong", "pkumar", "lchen"] as const;
const BASE = ["users/acme.yaml", "users/linaro-partner.yaml", "organizations.yaml"].map((f) => ({
  file: f,
  content: readFileSync(join(EXAMPLES, f), "utf8"),
}));

const subset = <T>(xs: readonly T[], min = 0) => fc.subarray([...xs], { minLength: min });
const arbRepo = (subgroups: string[]) =>
  fc.record({
    subgroup: fc.constantFrom("", ...subgroups),
    issueTracking: fc.constantFrom("enabled", "disabled", "private"),
    mergeRequests: fc.constantFrom("enabled", "disabled"),
    requiresDCO: fc.boolean(),
    enableLFS: fc.boolean(),
    status: fc.constantFrom("active", "active", "archived"),
  });
const arbProject = fc
  .record({
    title: fc.constantFrom("Alpha", "Beta tools", "Gamma"),
    admins: subset(USERS, 1),
    maintainers: subset(USERS, 1),
    developers: subset(USERS),
    licenses: subset(["MIT", "Apache-2.0"]),
    subgroups: subset(["docs", "tools", "tools/ci"]),
    artifacts: subset(["bin", "py"]),
    git: fc.boolean(),
  })
  .chain((p) =>
    fc.record({
      p: fc.constant(p),
      repos: fc.uniqueArray(
        fc.tuple(fc.constantFrom("core", "site", "tests"), arbRepo(p.subgroups)),
        {
          maxLength: 3,
          selector: ([n]) => n,
        },
      ),
    }),
  );

type GenProject = typeof arbProject extends fc.Arbitrary<infer T> ? T : never;

function projectYaml(slug: string, { p, repos }: GenProject): string {
  const list = (xs: string[]) => `[${xs.join(", ")}]`;
  const lines = [
    "apiVersion: phctl/v1",
    "kind: Project",
    `metadata: { name: ${slug} }`,
    "spec:",
    `  title: ${p.title}`,
    `  description: generated`,
    `  licenses: ${list(p.licenses)}`,
    "  access:",
    `    admins: ${list(p.admins)}`,
    `    maintainers: ${list(p.maintainers)}`,
    `    developers: ${list(p.developers)}`,
  ];
  if (p.git) {
    lines.push(
      "  git:",
      "    group: {}",
      `    subgroups: ${list(p.subgroups)}`,
      "    repositories:",
    );
    if (repos.length === 0) lines[lines.length - 1] = "    repositories: []";
    for (const [name, r] of repos)
      lines.push(
        `      - { name: ${name}, subgroup: "${r.subgroup}", issueTracking: ${r.issueTracking}, mergeRequests: ${r.mergeRequests}, requiresDCO: ${r.requiresDCO}, enableLFS: ${r.enableLFS}, status: ${r.status} }`,
      );
  }
  lines.push(
    "  artifacts:",
    `    repositories: [${p.artifacts.map((a) => `{ name: ${a} }`).join(", ")}]`,
  );
  return `${lines.join("\n")}\n`;
}

const arbConfig = fc.record({
  projects: fc.uniqueArray(fc.tuple(fc.constantFrom("alpha", "beta", "gamma"), arbProject), {
    minLength: 1,
    maxLength: 2,
    selector: ([s]) => s,
  }),
  team: subset(USERS),
  /** Live mutations after the first apply: 0 title, 1 extra developer, 2 removed admin. */
  mutations: fc.uniqueArray(fc.nat(2), { maxLength: 3 }),
});

describe("convergence property", () => {
  it("random manifests → apply → plan is empty; random live mutations → apply → plan is empty", async () => {
    await fc.assert(
      fc.asyncProperty(arbConfig, async (cfg) => {
        const t = await startServer({ queueDelayMs: 0 });
        const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret, ...FAST });
        try {
          const files = [
            { file: "phctl.yaml", content: "organization: acme\n", config: true },
            ...BASE,
            ...cfg.projects.map(([slug, p]) => ({
              file: `projects/${slug}.yaml`,
              content: projectYaml(slug, p),
            })),
            {
              file: "teams.yaml",
              content: `apiVersion: phctl/v1\nkind: Team\nmetadata: { name: crew }\nspec:\n  members: [${cfg.team.join(", ")}]\n`,
            },
          ];
          const loaded = loadManifestTexts(files);
          const errors = loaded.diagnostics.filter((d) => d.severity === "error");
          expect(errors).toEqual([]);
          const state = loaded.state!;
          const first = await planAndApply(api, state);
          expect(first.summary).toMatchObject({ failed: 0, skipped: 0, inconsistent: 0 });
          expect((await replan(api, state)).entries).toEqual([]);

          const [slug, { p }] = cfg.projects[0];
          for (const m of cfg.mutations) {
            if (m === 0)
              await api.call("projects.patch", {
                params: { projectSlug: slug },
                body: { name: "Mutated" },
              });
            if (m === 1) {
              const extra = USERS.find((u) => !p.developers.includes(u));
              if (extra)
                await api.callAndWait("access.addUser", {
                  params: { projectSlug: slug, level: "developers", username: extra },
                });
            }
            if (m === 2)
              await api.call("access.removeUser", {
                params: { projectSlug: slug, level: "admins", username: p.admins[0] },
              });
          }
          const second = await planAndApply(api, state);
          expect(second.summary).toMatchObject({ failed: 0, skipped: 0, inconsistent: 0 });
          expect((await replan(api, state)).entries).toEqual([]);
        } finally {
          await api.close();
          await t.close();
        }
      }),
      { numRuns: Number(process.env.PHCTL_PROPERTY_RUNS ?? 6) },
    );
  }, 120_000);
});
