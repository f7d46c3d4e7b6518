/** Repository kind: normal forms (desired, live record, fork), diff outcomes, properties. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { diffObject } from "../../src/engine/diff.js";
import type { LiveRepository } from "../../src/engine/readers.js";
import type { DesiredObject, LiveObject } from "../../src/kinds/kind.js";
import { repositoryKind } from "../../src/kinds/repository.js";
import {
  liveFork,
  normaliseBlocker,
  normaliseSince,
  recordFields,
  type RepoFields,
} from "../../src/kinds/repository-fields.js";
import { diffContext, load, projectDoc } from "../helpers/kinds.js";
import { actualOutcome, expectedOutcome } from "./git-fixtures.js";

const UPSTREAM = projectDoc(
  "upstream",
  `
title: Upstream
git:
  repositories:
    - name: core
`,
);
const FW = projectDoc(
  "fw",
  `
title: Firmware
git:
  subgroups: [tools/ci]
  repositories:
    - name: main
      issueTracking: enabled
      requiresDCO: true
      status: archived
      commitBlocker: { author: [Example.COM, example.com, arm.com], committer: [arm.com], since: "2024-03-01" }
      persistentStorage: true
      bundle: { frequency: weekly }
    - name: fork-of-core
      subgroup: tools/ci
      forkFrom: https://git.example.org/acme/upstream/core.git
    - name: plain
`,
);

const state = load(`${UPSTREAM}---\n${FW}`);
const ctx = diffContext(state);
const desired = new Map(repositoryKind.desired(state).map((d) => [d.key, d]));
const MAIN = desired.get("project/fw/repo/main")!;
const FORK = desired.get("project/fw/repo/tools/ci/fork-of-core")!;
const PLAIN = desired.get("project/fw/repo/plain")!;

function record(over: Partial<LiveRepository> = {}): LiveRepository {
  return {
    name: "core",
    repoSlug: "core",
    gitRepoID: 11,
    status: "active",
    issueTracking: "disabled",
    mergeRequests: "disabled",
    requiresDCO: false,
    enableLFS: false,
    enableForking: true,
    sshURI: "ssh://git@git.example.org/acme/upstream/core.git",
    httpURI: "https://git.example.org/acme/upstream/core.git",
    subgroups: "",
    created: "2026-01-01T00:00:00.000Z",
    gitSourceRepoID: 0,
    lastPush: null,
    lastPull: null,
    repoSizeBytes: 0,
    commitBlocker: null,
    persistentStorage: null,
    ...over,
  };
}

const live = (d: DesiredObject, over: Partial<RepoFields> = {}): LiveObject => ({
  key: d.key,
  fields: { ...d.fields, ...over },
  ids: { gitRepoID: 5 },
});

describe("desired", () => {
  it("normalises settings, the commit blocker and the bundle", () => {
    expect(MAIN.fields).toEqual({
      name: "main",
      subgroup: "",
      issueTracking: "enabled",
      mergeRequests: "disabled",
      requiresDCO: true,
      enableLFS: false,
      enableForking: true,
      status: "archived",
      fork: null,
      commitBlocker: {
        author: ["arm.com", "example.com"],
        committer: ["arm.com"],
        since: "2024-03-01T00:00:00.000Z",
      },
      persistentStorage: true,
      bundle: "weekly",
    });
    expect(MAIN.dependsOn).toEqual(["project/fw/group"]);
  });

  it("no blocker declared is no blocker; no bundle declared means bundle not managed", () => {
    expect(PLAIN.fields.commitBlocker).toBeNull();
    expect("bundle" in PLAIN.fields).toBe(false);
    expect(PLAIN.fields.persistentStorage).toBe(false);
  });

  it("a fork depends on its group, its subgroup and its declared source in another project", () => {
    expect(FORK.fields.fork).toBe("https://git.example.org/acme/upstream/core.git");
    expect(FORK.dependsOn).toEqual([
      "project/fw/group",
      "project/fw/subgroup/tools/ci",
      "project/upstream/repo/core",
    ]);
  });

  it("normaliseSince and normaliseBlocker agree between a date and the instant", () => {
    expect(normaliseSince("2024-03-01")).toBe(normaliseSince("2024-03-01T00:00:00Z"));
    expect(normaliseSince(null)).toBeNull();
    expect(normaliseBlocker({ author: ["@Arm.com "], since: null })).toEqual({
      author: ["arm.com"],
      committer: [],
      since: null,
    });
    expect(normaliseBlocker(null)).toBeNull();
  });
});

describe("live record", () => {
  it("maps the record: status, blocker, storage, bundle (only when read)", () => {
    const r = record({
      name: "main",
      status: "archived",
      issueTracking: "enabled",
      requiresDCO: true,
      commitBlocker: {
        author: ["example.com", "arm.com"],
        committer: ["arm.com"],
        since: "2024-03-01",
      },
      persistentStorage: { filesystemId: 4, status: "active" },
    });
    expect(recordFields(r, null, "weekly")).toEqual(MAIN.fields);
    expect("bundle" in recordFields(r, null)).toBe(false);
  });

  const src = { key: "project/upstream/repo/core", record: record() };
  const forkDecl = state.projects
    .find((p) => p.slug === "fw")!
    .git!.repositories.find((r) => r.forkFrom)!;
  const plainDecl = state.projects
    .find((p) => p.slug === "fw")!
    .git!.repositories.find((r) => r.name === "plain")!;

  it("a non-fork is null", () => {
    expect(liveFork(record(), forkDecl, undefined)).toBeNull();
  });

  it("a fork of the declared source gives the declared URL (https, ssh, or by key)", () => {
    const f = record({ gitSourceRepoID: 11 });
    expect(liveFork(f, forkDecl, src)).toBe(forkDecl.forkFrom);
    const viaSsh = { ...forkDecl, forkFrom: "ssh://git@git.example.org/acme/upstream/core.git" };
    delete viaSsh.forkFromKey;
    expect(liveFork(f, viaSsh, src)).toBe(viaSsh.forkFrom);
  });

  it("a fork of another source gives that source's URL; an unread source keeps fork-ness only", () => {
    const f = record({ gitSourceRepoID: 12 });
    const other = {
      key: "project/upstream/repo/other",
      record: record({
        gitRepoID: 12,
        httpURI: "https://git.example.org/acme/upstream/other.git",
        sshURI: "ssh://git@git.example.org/acme/upstream/other.git",
      }),
    };
    expect(liveFork(f, forkDecl, other)).toBe("https://git.example.org/acme/upstream/other.git");
    expect(liveFork(f, forkDecl, undefined)).toBe(forkDecl.forkFrom);
    expect(liveFork(f, plainDecl, undefined)).toBe("a fork of repository 12");
  });
});

describe("diff", () => {
  it("nothing in sync; a create when absent, after its dependencies", () => {
    for (const d of [MAIN, FORK, PLAIN])
      expect(diffObject(repositoryKind, d, live(d), ctx)).toEqual([]);
    const [c] = diffObject(repositoryKind, FORK, undefined, ctx);
    expect(c).toMatchObject({ action: "create", after: FORK.fields, dependsOn: FORK.dependsOn });
  });

  it("a changed setting is an update naming exactly that field", () => {
    const es = diffObject(repositoryKind, MAIN, live(MAIN, { mergeRequests: "enabled" }), ctx);
    expect(es).toMatchObject([
      {
        action: "update",
        changes: [{ field: "mergeRequests", before: "enabled", after: "disabled" }],
      },
    ]);
  });

  it("fork-ness cannot change: both directions are blocked with the reason", () => {
    for (const [d, over] of [
      [FORK, { fork: null }],
      [PLAIN, { fork: "https://git.example.org/acme/upstream/core.git" }],
    ] as const) {
      const es = diffObject(repositoryKind, d, live(d, over), ctx);
      expect(es).toHaveLength(1);
      expect(es[0].action).toBe("blocked");
      expect(es[0].blocked!.reason).toContain("a repository cannot become a fork after creation");
    }
  });

  it("a missing bundle is created by an update; a different frequency is blocked", () => {
    const missing = diffObject(
      repositoryKind,
      MAIN,
      live(MAIN, { bundle: null, requiresDCO: false }),
      ctx,
    );
    expect(missing).toMatchObject([
      {
        action: "update",
        changes: [{ field: "requiresDCO" }, { field: "bundle", before: null, after: "weekly" }],
      },
    ]);
    const other = diffObject(
      repositoryKind,
      MAIN,
      live(MAIN, { bundle: "daily", requiresDCO: false }),
      ctx,
    );
    expect(other.map((e) => [e.action, e.changes.map((c) => c.field)])).toEqual([
      ["update", ["requiresDCO"]],
      ["blocked", ["bundle"]],
    ]);
    expect(other[1].blocked!.reason).toContain(
      "bundles cannot be updated or deleted through the API",
    );
  });

  it("a commit blocker change is one update of commitBlocker", () => {
    const es = diffObject(repositoryKind, MAIN, live(MAIN, { commitBlocker: null }), ctx);
    expect(es.map((e) => e.changes.map((c) => c.field))).toEqual([["commitBlocker"]]);
  });

  const domain = fc.constantFrom("arm.com", "example.com", "linaro.org");
  const blocker = fc.option(
    fc.record(
      {
        author: fc.uniqueArray(domain).map((xs) => xs.sort()),
        committer: fc.uniqueArray(domain, { minLength: 1 }).map((xs) => xs.sort()),
        since: fc.constantFrom(null, "2024-03-01T00:00:00.000Z"),
      },
      { noNullPrototype: true },
    ), // as parsed JSON: plain objects
  );
  const fields = fc.record({
    name: fc.constant("main"),
    subgroup: fc.constant(""),
    issueTracking: fc.constantFrom("enabled", "private", "disabled"),
    mergeRequests: fc.constantFrom("enabled", "private", "disabled"),
    requiresDCO: fc.boolean(),
    enableLFS: fc.boolean(),
    enableForking: fc.boolean(),
    status: fc.constantFrom("active", "archived"),
    fork: fc.constantFrom(null, "https://git.example.org/acme/upstream/core.git"),
    commitBlocker: blocker,
    persistentStorage: fc.boolean(),
    bundle: fc.constantFrom("daily", "weekly"),
  });
  const obj = (f: Record<string, unknown>): DesiredObject => ({ ...MAIN, fields: f });

  it("property: diff with itself is empty; a mutation is reported as exactly those fields", () => {
    fc.assert(
      fc.property(fields, fields, (a, b) => {
        expect(
          diffObject(repositoryKind, obj(a), { key: MAIN.key, fields: { ...a }, ids: {} }, ctx),
        ).toEqual([]);
        const es = diffObject(repositoryKind, obj(a), { key: MAIN.key, fields: b, ids: {} }, ctx);
        expect(actualOutcome(es)).toEqual(expectedOutcome(repositoryKind, a, b));
      }),
    );
  });
});
