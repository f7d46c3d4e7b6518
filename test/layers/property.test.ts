/**
 * No leaks, no order effects: an object's effective document is computed from its own document
 * and the layers alone. Random layered configs, loaded (1) with their documents shuffled across
 * files in any order and (2) with other objects left out, give each object the same effective
 * document and the same problems.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LoadResult } from "../../src/pipeline/types.js";
import { defaults, file, load, project, user, type Doc } from "./helpers.js";

const USERS = ["jdoe", "asmith", "bob", "carol"];
const REPOS = ["app", "app-docs", "tools"];

const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const defined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const repoFields = fc.record(
  {
    enableForking: fc.boolean(),
    requiresDCO: fc.boolean(),
    issueTracking: fc.constantFrom("enabled", "private", "disabled"),
  },
  { requiredKeys: [] },
);

const projectDoc = (slug: string) =>
  fc
    .record({
      tier: maybe(fc.constantFrom("critical", "sandbox")),
      description: maybe(fc.constantFrom("own", "mine")),
      reporters: fc.subarray(USERS),
      remove: maybe(fc.constantFrom(...USERS)),
      repos: fc.subarray(REPOS, { minLength: 1 }),
      fields: repoFields,
      inherit: fc.boolean(),
    })
    .map((p) =>
      project(
        slug,
        defined({
          description: p.description,
          access: {
            admins: ["jdoe"],
            reporters: [...p.reporters, ...(p.remove ? [{ $remove: p.remove }] : [])],
          },
          git: {
            repositories: p.repos.map((name, i) =>
              defined({
                name,
                ...(i === 0 ? p.fields : {}),
                ...(p.inherit && i === 1 ? { inherit: false } : {}),
              }),
            ),
          },
        }),
        p.tier ? { tier: p.tier } : undefined,
      ),
    );

const layerDoc = (name: string) =>
  fc
    .record({
      kind: fc.constantFrom("Project", "Repository"),
      priority: fc.constantFrom(0, 1, 2),
      tier: maybe(fc.constantFrom("critical", "sandbox")),
      repoGlob: maybe(fc.constantFrom("*-docs", "app*")),
      description: maybe(fc.constantFrom("layer-a", "layer-b")),
      reporters: fc.subarray(USERS),
      fields: repoFields,
    })
    .map((l) =>
      defaults(name, {
        priority: l.priority,
        select: defined({
          kind: l.kind,
          matchLabels: l.tier ? { tier: l.tier } : undefined,
          repositories: l.kind === "Repository" && l.repoGlob ? [l.repoGlob] : undefined,
        }),
        values:
          l.kind === "Repository"
            ? l.fields
            : defined({ description: l.description, access: { reporters: l.reporters } }),
      }),
    );

const config = fc.record({
  projects: fc.tuple(projectDoc("p1"), projectDoc("p2"), projectDoc("p3")),
  layers: fc
    .array(fc.constantFrom("l1", "l2", "l3", "l4"), { maxLength: 4 })
    .chain((names) => fc.tuple(...[...new Set(names)].map(layerDoc))),
});

/** Each object's effective spec and the problems about it, without positions. */
function outcome(r: LoadResult, only?: string) {
  const objects: Record<string, unknown> = {};
  for (const p of r.state?.projects ?? [])
    if (!only || p.slug === only)
      objects[p.slug] = {
        ...p,
        source: undefined,
        git: p.git && {
          ...p.git,
          group: { ...p.git.group, source: undefined },
          repositories: p.git.repositories.map((x) => ({ ...x, source: undefined })),
        },
      };
  for (const [k, o] of r.layers?.layered ?? [])
    if (!only || k === `Project/${only}`) objects[`${k} effective`] = o.doc.value;
  const problems = r.diagnostics
    .filter((d) => d.kind === "Project" && (!only || d.name === only))
    .map((d) => `${d.severity} ${d.code} ${d.name ?? ""} ${d.path ?? ""}`)
    .sort();
  return { objects, problems, failed: r.state === undefined };
}

const users = () => file("users.yaml", ...USERS.map((u) => user(u)));

/** The documents spread over files in the order `order` gives. */
function spread(docs: Doc[], order: number[], files: number) {
  const buckets: Doc[][] = Array.from({ length: files }, () => []);
  order.forEach((i, n) => buckets[n % files].push(docs[i]));
  return buckets
    .map((b, i) => file(`f${(i * 7) % files}-${files}.yaml`, ...b))
    .filter((_, i) => buckets[i].length > 0);
}

describe("effective objects (property)", () => {
  it("do not depend on the order of files or documents", () => {
    fc.assert(
      fc.property(
        config,
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (c, files, seed) => {
          const docs = [...c.projects, ...c.layers];
          const identity = docs.map((_, i) => i);
          const shuffled = [...identity].sort(
            (a, b) => ((a * 7919 + seed) % 101) - ((b * 7919 + seed) % 101),
          );
          const a = load(users(), ...spread(docs, identity, 1));
          const b = load(users(), ...spread(docs, shuffled, files));
          const strip = (o: ReturnType<typeof outcome>) => ({
            ...o,
            // Problems are the same, but sit at the lines of the files they are in.
            objects: o.failed ? {} : o.objects,
          });
          expect(strip(outcome(b))).toEqual(strip(outcome(a)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("do not depend on which other objects exist", () => {
    fc.assert(
      fc.property(config, (c) => {
        const all = load(users(), file("p.yaml", ...c.projects), file("d.yaml", ...c.layers));
        for (const p of c.projects) {
          const slug = (p.metadata as { name: string }).name;
          const alone = load(users(), file("p.yaml", p), file("d.yaml", ...c.layers));
          const mine = outcome(all, slug);
          const solo = outcome(alone, slug);
          expect(solo.problems).toEqual(mine.problems);
          if (!mine.failed && !solo.failed) expect(solo.objects).toEqual(mine.objects);
        }
      }),
      { numRuns: 100 },
    );
  });
});
