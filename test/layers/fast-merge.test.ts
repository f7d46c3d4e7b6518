/**
 * The fast merge (src/layers/fast-merge.ts) gives what mergeNode gives, key order included,
 * or gives up (BAIL) exactly where mergeNode reports a problem: random projects and layers
 * (both forms of access levels, duplicate and shared keys, repository layers, priorities that
 * tie and disagree).
 */
import { describe, expect, it } from "vitest";
import {
  byPrecedence,
  OWN_PRIORITY,
  type Contributor,
  type Layer,
} from "../../src/layers/contributor.js";
import { BAIL, fastNode } from "../../src/layers/fast-merge.js";
import { specPlace } from "../../src/layers/place.js";
import { mergeNode, type MergeContext } from "../../src/layers/merge.js";
import type { DocHandle } from "../../src/manifest/positions.js";

const handle = {} as DocHandle;

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const some = <T>(xs: readonly T[]): T[] => xs.filter(() => next() < 0.4);
  return { next, pick, some };
}

type R = ReturnType<typeof random>;

function repository(r: R): Record<string, unknown> {
  const repo: Record<string, unknown> = { name: r.pick(["a", "b", "c"]) };
  if (r.next() < 0.5) repo.subgroup = r.pick(["docs", "tools/ci"]);
  if (r.next() < 0.4) repo.enableLFS = r.next() < 0.5;
  if (r.next() < 0.3) repo.issueTracking = r.pick(["enabled", "disabled"]);
  if (r.next() < 0.2) repo.commitBlocker = { author: r.some(["x.org", "y.org"]) };
  return repo;
}

function spec(r: R): Record<string, unknown> {
  const s: Record<string, unknown> = {};
  if (r.next() < 0.5) s.description = r.pick(["one", "two"]);
  if (r.next() < 0.5) s.licenses = r.some(["MIT", "Apache-2.0", "GPL"]);
  if (r.next() < 0.6) {
    const users = r.some(["u1", "u2", "u3"]);
    s.access = {
      [r.pick(["admins", "reporters"])]:
        r.next() < 0.5 ? users : { users, organizationTeams: r.some(["acme/a", "acme/b"]) },
    };
  }
  if (r.next() < 0.8) {
    const git: Record<string, unknown> = {};
    if (r.next() < 0.5) git.subgroups = r.some(["docs", "tools/ci"]);
    if (r.next() < 0.4) git.group = { enableCi: r.next() < 0.5 };
    if (r.next() < 0.8)
      git.repositories = Array.from({ length: r.pick([0, 1, 2, 3]) }, () => repository(r));
    s.git = git;
  }
  return s;
}

const layer = (r: R, order: number, values: Record<string, unknown>): Layer => ({
  name: `l${order}`,
  priority: r.pick([0, 0, 10]),
  select: { kind: "Project" },
  values,
  handle,
  order,
});

const say = (l: Layer): Contributor => ({
  layer: l,
  priority: l.priority,
  handle,
  at: ["spec", "values"],
  value: l.values,
});

describe("fast merge", () => {
  it("equals mergeNode, or gives up where mergeNode reports a problem (1,000 random objects)", () => {
    let fast = 0;
    let bailed = 0;
    for (let seed = 1; seed <= 1000; seed++) {
      const r = random(seed);
      const layers = Array.from({ length: r.pick([1, 2, 3]) }, (_, i) => layer(r, i, spec(r)));
      const repoLayers = Array.from({ length: r.pick([0, 1, 2]) }, (_, i) =>
        layer(r, 10 + i, repository(r)),
      );
      const own: Contributor = { priority: OWN_PRIORITY, handle, at: ["spec"], value: spec(r) };
      const cs = [own, ...layers.map(say)].sort(byPrecedence);
      const reach = (key: string) =>
        repoLayers
          .filter((l) => key.length % 2 === l.order % 2)
          .map(say)
          .sort(byPrecedence);
      const ctx: MergeContext = {
        kind: "Project",
        name: "p",
        repositoryLayers: reach,
        problems: [],
      };
      const slow = mergeNode(ctx, "spec", "spec", cs);
      let got: unknown;
      try {
        got = fastNode(
          { kind: "Project", name: "p", repositoryLayers: reach },
          specPlace("Project"),
          cs,
          cs.map((c) => c.value),
        );
      } catch (e) {
        if (e !== BAIL) throw e;
        expect(ctx.problems.length, `seed ${seed}`).toBeGreaterThan(0);
        bailed++;
        continue;
      }
      expect(ctx.problems, `seed ${seed}`).toEqual([]);
      expect(JSON.stringify(got), `seed ${seed}`).toBe(JSON.stringify(slow));
      fast++;
    }
    // Both ways are exercised.
    expect(fast).toBeGreaterThan(500);
    expect(bailed).toBeGreaterThan(20);
  });
});
