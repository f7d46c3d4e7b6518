/**
 * The five git and artifact kinds together against the server: from projects without any git
 * side, one apply creates groups, a nested subgroup, repositories (one a fork of another
 * project's repository, one with a commit blocker), a disabled mirror and an artifact
 * repository, in dependency order; the plan after it is empty, and a no-change plan reads
 * with the documented number of calls.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { seed } from "../../src/server/seed.js";
import { startClient, type ClientFixture } from "../api/helpers.js";
import { lines, load, projectDoc } from "../helpers/kinds.js";
import { execute, planFor } from "./git-fixtures.js";

const DOCS = `${projectDoc(
  "upstream",
  `
title: Upstream
git:
  repositories: [{ name: core }]
`,
)}---
${projectDoc(
  "fw",
  `
title: Firmware
git:
  group: { path: firmware, enableCi: true }
  subgroups: [tools/ci]
  repositories:
    - name: main
      commitBlocker: { author: [arm.com], committer: [arm.com, linaro.org] }
    - name: core-fork
      subgroup: tools/ci
      forkFrom: ssh://git@git.example.org/acme/upstream/core.git
  mirrors:
    - from: https://github.com/example/fw.git
      to: ssh://git@git.example.org/acme/firmware/main.git
      refSpaceFrom: refs/heads/*
      refSpaceTo: refs/heads/*
      frequency: daily
      enabled: false
artifacts:
  repositories: [{ name: builds }]
`,
)}`;

let t: ClientFixture;
beforeEach(async () => {
  t = await startClient();
  seed(t.server.ctx, {
    parentOrganization: "acme",
    projects: [
      { slug: "upstream", name: "Upstream" },
      { slug: "fw", name: "Firmware" },
    ],
  });
});
afterEach(async () => t.stop());

it("creates every kind in dependency order, then plans nothing", async () => {
  const state = load(DOCS);
  const first = await planFor(t.client, state);
  expect(lines(first.plan)).toEqual([
    "create project/fw/artifact/builds",
    "create project/fw/group",
    "create project/fw/mirror/ssh://git@git.example.org/acme/firmware/main.git",
    "create project/fw/repo/main",
    "create project/fw/repo/tools/ci/core-fork",
    "create project/fw/subgroup/tools",
    "create project/fw/subgroup/tools/ci",
    "create project/upstream/group",
    "create project/upstream/repo/core",
  ]);
  const mirror = first.plan.entries.find((e) => e.kind === "Mirror")!;
  expect(mirror.dependsOn).toEqual(["project/fw", "project/fw/repo/main"]);

  await execute(t.client, first);
  const again = await planFor(t.client, state);
  expect(again.plan.entries).toEqual([]);
  expect(again.plan.unmanaged).toEqual([]);

  // The order the server saw: each group before what lives in it, the source before its fork.
  const ops = t.server.requestLog.map((r) => `${r.operation} ${r.url}`);
  const at = (pred: (s: string) => boolean) => ops.findIndex(pred);
  expect(at((s) => s.startsWith("git.group.create /v1/projects/fw/"))).toBeLessThan(
    at((s) => s.startsWith("git.subgroups.create")),
  );
  expect(at((s) => s.startsWith("git.repos.create /v1/projects/upstream/"))).toBeLessThan(
    at((s) => s.startsWith("git.fork")),
  );
  expect(at((s) => s.startsWith("git.repos.create /v1/projects/fw/"))).toBeLessThan(
    at((s) => s.startsWith("mirrors.create")),
  );

  // A no-change plan of the five kinds (plus the stand-in project kind's shared list):
  // project list 1 + groups 2 + subgroups 2 + repositories 2 + mirrors 2 + artifacts 2.
  expect(again.calls).toBe(11);
});
