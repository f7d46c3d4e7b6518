/** ArtifactRepo kind: the `<org>-<id>-` prefix mapped back, diff outcomes, and the server. */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diffObject } from "../../src/engine/diff.js";
import { artifactRepoKind, declaredName, livePrefix } from "../../src/kinds/artifact-repo.js";
import { seed } from "../../src/server/seed.js";
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

const REL = projectDoc(
  "rel",
  `
title: Releases
artifacts:
  repositories:
    - { name: releases, type: generic }
    - { name: images, type: docker }
    - { type: npm }
`,
);
const state = load(REL);
const ctx = diffContext(state);
const desired = artifactRepoKind.desired(state);

describe("desired and names", () => {
  it("keys by the declared name (default: the slug), after the project", () => {
    expect(desired.map((d) => [d.key, d.fields, d.dependsOn])).toEqual([
      ["project/rel/artifact/images", { name: "images", type: "docker" }, ["project/rel"]],
      ["project/rel/artifact/rel", { name: "rel", type: "npm" }, ["project/rel"]],
      ["project/rel/artifact/releases", { name: "releases", type: "generic" }, ["project/rel"]],
    ]);
  });

  it("maps a live name back by stripping the project's prefix; another name stays whole", () => {
    const prefix = livePrefix("acme", 12);
    expect(prefix).toBe("acme-12-");
    expect(declaredName("acme-12-releases", prefix)).toBe("releases");
    expect(declaredName("acme-12-my-12-x", prefix)).toBe("my-12-x");
    expect(declaredName("acme-13-releases", prefix)).toBe("acme-13-releases");
    expect(declaredName("legacy", prefix)).toBe("legacy");
    expect(declaredName("acme-12-", prefix)).toBe("acme-12-");
  });
});

describe("diff", () => {
  const d = desired[2];
  it("nothing in sync; a type change is blocked with the reason", () => {
    expect(
      diffObject(artifactRepoKind, d, { key: d.key, fields: { ...d.fields }, ids: { id: 1 } }, ctx),
    ).toEqual([]);
    const [e, ...rest] = diffObject(
      artifactRepoKind,
      d,
      { key: d.key, fields: { ...d.fields, type: "maven" }, ids: { id: 1 } },
      ctx,
    );
    expect(rest).toEqual([]);
    expect(e).toMatchObject({
      action: "blocked",
      blocked: {
        field: "type",
        reason: expect.stringContaining("the type of an artifact repository cannot be changed"),
      },
    });
  });

  it("property: diff with itself is empty; a mutation is reported as exactly those fields", () => {
    const fields = fc.record({
      name: fc.constant("releases"),
      type: fc.constantFrom("generic", "docker", "npm"),
    });
    fc.assert(
      fc.property(fields, fields, (a, b) => {
        const o = { ...d, fields: a };
        expect(
          diffObject(artifactRepoKind, o, { key: d.key, fields: { ...a }, ids: {} }, ctx),
        ).toEqual([]);
        const es = diffObject(artifactRepoKind, o, { key: d.key, fields: b, ids: {} }, ctx);
        expect(actualOutcome(es)).toEqual(expectedOutcome(artifactRepoKind, a, b));
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

  const projectId = (slug: string) =>
    t.server.ctx.db.get<{ id: number }>("SELECT id FROM projects WHERE slug = ?", slug)!.id;
  /** A repository whose live name lacks the prefix (made before the naming rule, say). */
  const insertRaw = (slug: string, name: string, type = "generic") =>
    t.server.ctx.db.run(
      "INSERT INTO artifact_repos (project_id, name, repo_type, created) VALUES (?, ?, ?, ?)",
      projectId(slug),
      name,
      type,
      "2026-01-01T00:00:00.000Z",
    );

  it("reads 1 call per declared live project, names mapped back", async () => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [
        {
          slug: "rel",
          name: "Releases",
          artifacts: [{ name: "releases" }, { name: "images", repoType: "docker" }],
        },
        { slug: "idle", name: "Idle" },
      ],
    });
    insertRaw("rel", "legacy-store");
    const s = load(`${REL}---\n${projectDoc("idle", "title: Idle")}`);
    const { objects, calls } = await readKind(t.client, artifactRepoKind, s);
    expect(objects.map((o) => [o.key, o.fields])).toEqual([
      ["project/rel/artifact/releases", { name: "releases", type: "generic" }],
      ["project/rel/artifact/images", { name: "images", type: "docker" }],
      ["project/rel/artifact/legacy-store", { name: "legacy-store", type: "generic" }],
    ]);
    expect(objects[0].ids).toEqual({ id: expect.any(Number) });
    expect(calls).toBe(3); // project list + rel + idle
  });

  it("creates the declared repositories under their prefixed names, then no changes", async () => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [{ slug: "rel", name: "Releases" }],
    });
    const first = await planFor(t.client, state);
    expect(lines(first.plan)).toEqual(desired.map((d) => `create ${d.key}`));
    const again = await applyAndReplan(t.client, state);
    expect(again.plan.entries).toEqual([]);
    const live = await t.call("GET", "/v1/projects/rel/artifactservice/repos", {
      query: { all: true },
    });
    const id = projectId("rel");
    expect(
      live.body.data.map((r: { name: string; repoType: string }) => [r.name, r.repoType]).sort(),
    ).toEqual([
      [`acme-${id}-images`, "docker"],
      [`acme-${id}-rel`, "npm"],
      [`acme-${id}-releases`, "generic"],
    ]);
  });

  it("a type change is blocked and never sent; an undeclared repository is pruned only with the setting", async () => {
    seed(t.server.ctx, {
      parentOrganization: "acme",
      projects: [
        {
          slug: "rel",
          name: "Releases",
          artifacts: [
            { name: "releases", repoType: "maven" },
            { name: "images", repoType: "docker" },
            { name: "rel", repoType: "npm" },
            { name: "old" },
          ],
        },
      ],
    });
    const p = await planFor(t.client, state);
    expect(lines(p.plan)).toEqual(["blocked project/rel/artifact/releases"]);
    expect(p.plan.unmanaged.map((u) => u.key)).toEqual(["project/rel/artifact/old"]);
    const seq = t.server.requestLog.at(-1)!.seq;
    await execute(t.client, p);
    expect(t.server.requestLog.filter((r) => r.seq > seq)).toEqual([]);

    const pruning = load(REL, "organization: acme\nprune: { artifactRepositories: true }\n");
    const q = await planFor(t.client, pruning);
    expect(lines(q.plan)).toEqual([
      "blocked project/rel/artifact/releases",
      "delete project/rel/artifact/old",
    ]);
    await execute(t.client, q);
    const after = await planFor(t.client, pruning);
    expect(lines(after.plan)).toEqual(["blocked project/rel/artifact/releases"]);
  });
});
