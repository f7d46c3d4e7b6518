/**
 * The property: random live mutations of a converged organization (the examples
 * applied) → drift --adopt → a plan of the adopted manifests shows no changes, every
 * comment of the original manifests is still there, and every document adoption had no
 * entry for is byte for byte as it was. Each run starts from a fresh server (a copy of the
 * converged database) and a fresh copy of the examples. Again with Defaults layers that give
 * list entries (fixture.ts's LAYERS), the removals of those entries more likely.
 */
import fc from "fast-check";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { documentOf } from "../../src/adopt/places.js";
import {
  client,
  comments,
  convergedDatabase,
  driftAdoptPlan,
  entryLines,
  load,
  readTree,
  serverFrom,
  workdir,
} from "./fixture.js";
import { mutate } from "./mutate.js";
import { layerMutation, mutation, type Mutation } from "./mutations.js";

let db: string;
let layered: string;
beforeAll(async () => {
  [db, layered] = await Promise.all([convergedDatabase(), convergedDatabase(true)]);
});

/** The documents of a file by `Kind/name`, as text (split on `---` lines). */
function documents(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(/^---\n/m)) {
    const kind = /^kind: (\S+)/m.exec(part)?.[1];
    const name = /^ {2}name: (\S+)/m.exec(part)?.[1];
    if (kind && name) out.set(`${kind}/${name}`, part.replace(/^(#.*\n)+/, ""));
  }
  return out;
}

/** The property over `runs` runs of `mutations` against a copy of `database`. */
async function holds(
  database: string,
  mutations: fc.Arbitrary<Mutation>,
  layers: boolean,
  runs: number,
): Promise<void> {
  let count = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(mutations, { minLength: 1, maxLength: 4 }), async (ms) => {
      count++;
      const t = await serverFrom(database);
      try {
        const api = client(t);
        for (const m of ms) await mutate(api, m, t);
        await api.close();
        const dir = workdir(layers);
        const before = readTree(join(dir, "examples"));
        const r = await driftAdoptPlan(t, dir);
        expect(entryLines(r.after)).toEqual([]);
        expect(r.result.adopted.length).toBe(r.drift.entries.length);
        expect(r.written.refused).toEqual([]);
        const after = readTree(join(dir, "examples"));
        const touched = new Set(r.result.adopted.map((e) => documentOf(e.key)));
        // A layer that selects nothing but an adopted object is adopted into too.
        for (const l of r.result.layers)
          if (l.written === "layer") touched.add(`Defaults/${l.layer}`);
        for (const [file, text] of before) {
          const now = after.get(file) ?? "";
          expect(comments(now), file).toEqual(comments(text));
          const docs = documents(now);
          for (const [id, doc] of documents(text))
            if (!touched.has(id)) expect(docs.get(id), `${file} ${id}`).toBe(doc);
        }
      } finally {
        await t.close();
      }
    }),
    { numRuns: runs },
  );
  expect(count).toBe(runs);
}

describe("drift --adopt, property", () => {
  it("random live mutations → adopt → plan shows no changes; comments and untouched documents kept", async () => {
    await holds(db, mutation, false, 15);
  }, 120_000);

  it("with Defaults layers that give list entries: the same", async () => {
    await holds(layered, fc.oneof(layerMutation, layerMutation, mutation), true, 10);
  }, 120_000);

  it("declarations merged and not applied survive any live mutations: the plan after adopt is their creates", async () => {
    let count = 0;
    const names = fc.uniqueArray(fc.stringMatching(/^[a-z]{3,8}$/), { minLength: 1, maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        names,
        async (ms, users) => {
          count++;
          const t = await serverFrom(db);
          try {
            const api = client(t);
            for (const m of ms) await mutate(api, m, t);
            await api.close();
            const dir = workdir();
            const applied = (await load(dir)).state;
            const file = join(dir, "examples/users/merged.yaml");
            const merged = users
              .map(
                (u) =>
                  `apiVersion: phctl/v1\nkind: User\nmetadata:\n  name: merged-${u}\nspec:\n  firstName: M\n  lastName: U\n  externalEmail: merged-${u}@example.org\n`,
              )
              .join("---\n");
            writeFileSync(file, merged);
            const r = await driftAdoptPlan(t, dir, applied);
            expect(readFileSync(file, "utf8")).toBe(merged);
            expect(entryLines(r.after).map((l) => l.split(" ").slice(0, 2).join(" "))).toEqual(
              users.map((u) => `create user/merged-${u}`).sort(),
            );
          } finally {
            await t.close();
          }
        },
      ),
      { numRuns: 8 },
    );
    expect(count).toBe(8);
  }, 120_000);
});
