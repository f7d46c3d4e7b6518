/**
 * The property: random live mutations of a converged organization (the examples
 * applied) → drift --adopt → a plan of the adopted manifests shows no changes, every
 * comment of the original manifests is still there, and every document adoption had no
 * entry for is byte for byte as it was. Each run starts from a fresh server (a copy of the
 * converged database) and a fresh copy of the examples.
 */
import fc from "fast-check";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { documentOf } from "../../src/adopt/places.js";
import {
  client,
  comments,
  convergedDatabase,
  driftAdoptPlan,
  entryLines,
  readTree,
  serverFrom,
  workdir,
} from "./fixture.js";
import { mutate } from "./mutate.js";
import { mutation } from "./mutations.js";

let db: string;
beforeAll(async () => {
  db = await convergedDatabase();
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

describe("drift --adopt, property", () => {
  it("random live mutations → adopt → plan shows no changes; comments and untouched documents kept", async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (ms) => {
        runs++;
        const t = await serverFrom(db);
        try {
          const api = client(t);
          for (const m of ms) await mutate(api, m, t);
          await api.close();
          const dir = workdir();
          const before = readTree(join(dir, "examples"));
          const r = await driftAdoptPlan(t, dir);
          expect(entryLines(r.after)).toEqual([]);
          expect(r.result.adopted.length).toBe(r.drift.entries.length);
          expect(r.written.refused).toEqual([]);
          const after = readTree(join(dir, "examples"));
          const touched = new Set(r.result.adopted.map((e) => documentOf(e.key)));
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
      { numRuns: 15 },
    );
    expect(runs).toBe(15);
  });
});
