/**
 * createOrFind's outcomes for the apply walk (issue 26, defect 1): a 409 on the first
 * attempt is another writer's object ("existed", witnessed); a 409 after an ambiguous attempt
 * of the same call is most likely that attempt landing ("found", not witnessed).
 */
import { describe, expect, it } from "vitest";
import { createOrFind, createWitness } from "../../src/api/create-or-find.js";
import { AmbiguousRequestError, ApiError } from "../../src/api/errors.js";

const target = { method: "POST", pathTemplate: "/v1/users", operation: "users.create" as const };
const conflict = () =>
  new ApiError({ status: 409, code: "CONFLICT", serverMessage: "exists", target, attempts: 1 });
const lost = () =>
  new AmbiguousRequestError({ status: 0, serverMessage: "dropped", target, attempts: 1 });

async function run(answers: (() => Error)[], foundAfter: number) {
  let finds = 0;
  const witness = { existed: false };
  const r = await createWitness.run(witness, () =>
    createOrFind(
      async () => {
        const next = answers.shift();
        if (next) throw next();
        return "made";
      },
      async () => (++finds >= foundAfter ? "there" : undefined),
      { delayMs: 1 },
    ),
  );
  return { outcome: r.outcome, existed: witness.existed };
}

describe("createOrFind and the walk's witness", () => {
  it("a first create answered 409, the object found: existed, witnessed", async () => {
    expect(await run([conflict], 1)).toEqual({ outcome: "existed", existed: true });
  });
  it("a create whose answer was lost, then 409 on the next attempt: found, not witnessed", async () => {
    // The re-read after the lost answer does not see it yet; the second attempt meets it.
    expect(await run([lost, conflict], 2)).toEqual({ outcome: "found", existed: false });
  });
  it("a create that answers: created, not witnessed", async () => {
    expect(await run([], 1)).toEqual({ outcome: "created", existed: false });
  });
});
