/** Mirror kind: normal form, identity by destination, diff outcomes, and against the server. */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diffObject } from "../../src/engine/diff.js";
import type { LiveMirror } from "../../src/engine/readers.js";
import type { DesiredObject, LiveObject } from "../../src/kinds/kind.js";
import { liveMirrors, mirrorKind } from "../../src/kinds/mirror.js";
import { seed, type SeedMirror } from "../../src/server/seed.js";
import { startClient, type ClientFixture } from "../api/helpers.js";
import { diffContext, lines, load, projectDoc } from "../helpers/kinds.js";
import {
  actualOutcome,
  applyAndReplan,
  execute,
  expectedOutcome,
  planFor,
  readKind,
} from "./git-fixtures.js";

const UP = "https://github.com/example/fw.git";
const TO_MAIN = "ssh://git@git.example.org/acme/fw/main.git";
const TO_OLD = "ssh://git@backup.example.net/mirrors/fw-old.git";

const fwDoc = (mirrors: string) =>
  projectDoc(
    "fw",
    `
title: Firmware
git:
  repositories: [{ name: main }]
  mirrors:
${mirrors}`,
  );

const MIRRORS = `
    - from: ${UP}
      to: ${TO_MAIN}
      refSpaceFrom: refs/heads/*
      refSpaceTo: refs/heads/*
      frequency: daily
      notificationEmails: [ops@example.org, dev@example.org]
    - from: ${UP}
      to: ${TO_OLD}
      refSpaceFrom: refs/tags/*
      refSpaceTo: refs/tags/*
      frequency: weekly
      excludeTags: true
      enabled: false`;

const state = load(fwDoc(MIRRORS));
const ctx = diffContext(state);
const byTo = (to: string) => mirrorKind.desired(state).find((d) => d.fields.to === to);
const MAIN = byTo(TO_MAIN);
const OLD = byTo(TO_OLD);

const record = (over: Partial<LiveMirror> = {}): LiveMirror => ({
  mirrorID: "1",
  repoURLFrom: UP,
  repoURLTo: TO_MAIN,
  refSpaceFrom: "refs/heads/*",
  refSpaceTo: "refs/heads/*",
  frequency: "daily",
  excludeTags: false,
  notificationEmails: ["ops@example.org", "dev@example.org"],
  status: "pending",
  enabled: true,
  notes: "",
  statusCode: null,
  created: "2026-01-01T00:00:00.000Z",
  lastRun: null,
  ...over,
});

describe("desired and live", () => {
  it("normalises a mirror: sorted addresses, defaults; after the project and its destination", () => {
    expect(MAIN).toMatchObject({
      key: `project/fw/mirror/${TO_MAIN}`,
      fields: {
        to: TO_MAIN,
        from: UP,
        refSpaceFrom: "refs/heads/*",
        refSpaceTo: "refs/heads/*",
        frequency: "daily",
        excludeTags: false,
        enabled: true,
        notificationEmails: ["dev@example.org", "ops@example.org"],
      },
      dependsOn: ["project/fw", "project/fw/repo/main"],
    });
    // The destination of OLD is not a declared repository: only the project comes first.
    expect(OLD!.dependsOn).toEqual(["project/fw"]);
  });

  it("a live record maps to the same fields", () => {
    const [l] = liveMirrors("fw", [record()], state.projects[0].git!.mirrors);
    expect(l).toEqual({ key: MAIN!.key, fields: MAIN!.fields, ids: { mirrorID: "1" } });
  });

  it("two live mirrors to one destination: the declared source keeps the key", () => {
    const other = record({ mirrorID: "2", repoURLFrom: "https://example.net/x.git" });
    const ls = liveMirrors(
      "fw",
      [other, record({ mirrorID: "3" })],
      state.projects[0].git!.mirrors,
    );
    expect(ls.map((l) => [l.key, l.ids.mirrorID])).toEqual([
      [MAIN!.key, "3"],
      [`${MAIN!.key}#2`, "2"],
    ]);
  });
});

describe("diff", () => {
  const live = (d: DesiredObject, over: object = {}): LiveObject => ({
    key: d.key,
    fields: { ...d.fields, ...over },
    ids: { mirrorID: "9" },
  });

  it("nothing in sync; frequency/excludeTags/enabled are updates naming exactly those fields", () => {
    expect(diffObject(mirrorKind, MAIN!, live(MAIN!), ctx)).toEqual([]);
    const es = diffObject(mirrorKind, OLD!, live(OLD!, { enabled: true, frequency: "once" }), ctx);
    expect(es.map((e) => [e.action, e.changes.map((c) => c.field)])).toEqual([
      ["update", ["frequency", "enabled"]],
    ]);
  });

  it("source, ref spaces and addresses are blocked: delete and re-create", () => {
    const es = diffObject(
      mirrorKind,
      MAIN!,
      live(MAIN!, { from: "https://x.org/y.git", refSpaceTo: "refs/x/*", notificationEmails: [] }),
      ctx,
    );
    expect(es.map((e) => [e.action, e.blocked?.field])).toEqual([
      ["blocked", "from"],
      ["blocked", "refSpaceTo"],
      ["blocked", "notificationEmails"],
    ]);
    for (const e of es)
      expect(e.blocked!.reason).toContain("can only change by deleting and re-creating the mirror");
  });

  const fields = fc.record({
    to: fc.constant(TO_MAIN),
    from: fc.constantFrom(UP, "https://example.net/x.git"),
    refSpaceFrom: fc.constantFrom("refs/heads/*", "refs/tags/*"),
    refSpaceTo: fc.constantFrom("refs/heads/*", "refs/tags/*"),
    frequency: fc.constantFrom("once", "daily", "weekly"),
    excludeTags: fc.boolean(),
    enabled: fc.boolean(),
    notificationEmails: fc
      .uniqueArray(fc.constantFrom("a@x.org", "b@x.org"))
      .map((xs) => xs.sort()),
  });

  it("property: diff with itself is empty; a mutation is reported as exactly those fields", () => {
    fc.assert(
      fc.property(fields, fields, (a, b) => {
        const d = { ...MAIN!, fields: a };
        expect(diffObject(mirrorKind, d, { key: d.key, fields: { ...a }, ids: {} }, ctx)).toEqual(
          [],
        );
        const es = diffObject(mirrorKind, d, { key: d.key, fields: b, ids: {} }, ctx);
        expect(actualOutcome(es)).toEqual(expectedOutcome(mirrorKind, a, b));
      }),
    );
  });
});

describe("against the server", () => {
  let t: ClientFixture;
  beforeEach(async () => {
    t = await startClient();
  });
  afterEach(async () => t.stop());

  const seedFw = (mirrors: SeedMirror[]) =>
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [
        { slug: "fw", name: "Firmware", git: { repositories: [{ name: "main" }] }, mirrors },
        { slug: "docs", name: "Docs" },
      ],
    });
  const inSync: SeedMirror[] = [
    {
      repoURLFrom: UP,
      repoURLTo: TO_MAIN,
      refSpaceFrom: "refs/heads/*",
      refSpaceTo: "refs/heads/*",
      frequency: "daily",
      notificationEmails: ["ops@example.org", "dev@example.org"],
    },
    {
      repoURLFrom: UP,
      repoURLTo: TO_OLD,
      refSpaceFrom: "refs/tags/*",
      refSpaceTo: "refs/tags/*",
      frequency: "weekly",
      excludeTags: true,
      enabled: false,
    },
  ];
  const mirrorsOf = async () =>
    (await t.call("GET", "/v1/projects/fw/git/mirrors", { query: { limit: 100 } })).body.data;

  it("reads 1 paged call per declared live project with a git section", async () => {
    seedFw(inSync);
    const s = load(`${fwDoc(MIRRORS)}---\n${projectDoc("docs", "title: Docs")}`);
    const { objects, calls } = await readKind(t.client, mirrorKind, s);
    expect(objects.map((o) => o.fields)).toEqual([MAIN!.fields, OLD!.fields]); // oldest first
    expect(calls).toBe(2); // project list + fw (docs declares no git section)
  });

  it("creates an enabled and a disabled mirror (notes name the manifest line), then no changes", async () => {
    seedFw([]);
    const first = await planFor(t.client, state);
    expect(lines(first.plan)).toEqual([`create ${OLD!.key}`, `create ${MAIN!.key}`]);
    const again = await applyAndReplan(t.client, state);
    expect(again.plan.entries).toEqual([]);
    const live = await mirrorsOf();
    const old = live.find((m: LiveMirror) => m.repoURLTo === TO_OLD);
    expect(old).toMatchObject({ enabled: false, excludeTags: true, frequency: "weekly" });
    expect(old.notes).toBe(`phctl apply: projects/p.yaml:${OLD!.source!.line}`);
    const ops = t.server.requestLog.map((r) => r.operation);
    expect(ops.filter((o) => o === "mirrors.disableSelected")).toHaveLength(1);
    expect(ops.filter((o) => o === "mirrors.create")).toHaveLength(2);
  });

  it("frequency and enabled drift are repaired with update and enable-selected only", async () => {
    seedFw([{ ...inSync[0], frequency: "once", enabled: false }, inSync[1]]);
    const p = await planFor(t.client, state);
    expect(p.plan.entries.map((e) => [e.action, e.changes.map((c) => c.field)])).toEqual([
      ["update", ["frequency", "enabled"]],
    ]);
    const seq = t.server.requestLog.at(-1)!.seq;
    await execute(t.client, p);
    expect(t.server.requestLog.filter((r) => r.seq > seq).map((r) => r.operation)).toEqual([
      "mirrors.update",
      "mirrors.enableSelected",
    ]);
    expect((await planFor(t.client, state)).plan.entries).toEqual([]);
  });

  it("a changed source is blocked and never sent; an undeclared mirror is pruned only with prune.mirrors", async () => {
    seedFw([
      { ...inSync[0], repoURLFrom: "https://example.net/other.git" },
      inSync[1],
      { ...inSync[1], repoURLTo: "ssh://git@x.org/stray.git" },
    ]);
    const p = await planFor(t.client, state);
    expect(p.plan.entries.map((e) => [e.action, e.blocked?.field])).toEqual([["blocked", "from"]]);
    expect(p.plan.unmanaged.map((u) => u.key)).toEqual([
      "project/fw/mirror/ssh://git@x.org/stray.git",
    ]);
    const seq = t.server.requestLog.at(-1)!.seq;
    await execute(t.client, p);
    expect(t.server.requestLog.filter((r) => r.seq > seq)).toEqual([]);

    const pruning = load(fwDoc(MIRRORS), "organization: acme\nprune: { mirrors: true }\n");
    const q = await planFor(t.client, pruning);
    expect(lines(q.plan)).toEqual([
      `blocked ${MAIN!.key}`,
      "delete project/fw/mirror/ssh://git@x.org/stray.git",
    ]);
    await execute(t.client, q);
    expect((await mirrorsOf()).map((m: LiveMirror) => m.repoURLTo).sort()).toEqual(
      [TO_MAIN, TO_OLD].sort(),
    );
  });
});
