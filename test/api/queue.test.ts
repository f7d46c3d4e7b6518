/**
 * Queued jobs through the organization rename (the rename queue answers `queuid`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobFailedError, JobTimeoutError } from "../../src/api/errors.js";
import { queueIdOf, waitForJob, type JobStatus } from "../../src/api/queue.js";
import { startClient, type ClientFixture } from "./helpers.js";

let f: ClientFixture;
beforeAll(async () => {
  f = await startClient({ queueDelayMs: 300 });
});
afterAll(async () => {
  await f.stop();
});

async function newOrg(name: string): Promise<number> {
  return (await f.client.ops.organizations.create({ body: { organization: name } })).data.id;
}

describe("waitForJob", () => {
  it("waits for a rename to complete; the effect is visible afterwards", async () => {
    const id = await newOrg("q-old");
    const { response, job } = await f.client.callAndWait("organizations.rename", {
      params: { orgid: id },
      body: { new_name: "q-new" },
    });
    expect(response.queuid).toMatch(/.+/);
    expect(job).toMatchObject({ status: "completed", old_name: "q-old", new_name: "q-new" });
    const names = (await f.client.ops.organizations.list()).map((o) => o.name);
    expect(names).toContain("q-new");
    expect(names).not.toContain("q-old");
  });

  it("a failed job surfaces its message", async () => {
    const id = await newOrg("q-fail");
    f.server.ctx.queue.failNext({ queue: "rename", message: "naming service is down" });
    const r = await f.client.ops.organizations.rename({
      params: { orgid: id },
      body: { new_name: "q-fail2" },
    });
    const e = await f.client.waitForJob("rename", queueIdOf(r)!).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(JobFailedError);
    expect((e as JobFailedError).jobMessage).toBe("naming service is down");
    expect((e as JobFailedError).message).toBe(
      `rename job ${r.queuid} failed: naming service is down`,
    );
    expect((e as JobFailedError).code).toBe("JOB_FAILED");
  });

  it("times out with a clear error while the job is still open", async () => {
    const id = await newOrg("q-slow");
    const r = await f.client.ops.organizations.rename({
      params: { orgid: id },
      body: { new_name: "q-slow2" },
    });
    const e = await f.client
      .waitForJob("rename", r.queuid, { timeoutMs: 50 })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(JobTimeoutError);
    expect((e as Error).message).toMatch(/rename job .+ still (open|inprogress) after 0 s/);
    await f.client.waitForJob("rename", r.queuid);
  });

  it("holds no concurrency slot while sleeping between polls", async () => {
    // One slot only: if a waiting job held it, the other calls would wait for the job.
    const c = f.newClient({ concurrency: 1, wait: { pollStartMs: 100, pollMaxMs: 100 } });
    const id = await newOrg("q-slot");
    const r = await c.ops.organizations.rename({
      params: { orgid: id },
      body: { new_name: "q-slot2" },
    });
    let jobDone = 0;
    const waiting = c.waitForJob("rename", r.queuid).then(() => (jobDone = performance.now()));
    await new Promise((res) => setTimeout(res, 20));
    const t0 = performance.now();
    for (let i = 0; i < 5; i++) await c.ops.licenses.list();
    const callsDone = performance.now();
    await waiting;
    expect(callsDone - t0).toBeLessThan(250);
    expect(callsDone).toBeLessThan(jobDone);
  });

  it("polls with backoff: first after 200 ms, then ×2, capped, with jitter", async () => {
    const sleeps: number[] = [];
    let polls = 0;
    const read = async (): Promise<JobStatus> => {
      polls++;
      return { status: polls < 6 ? "open" : "completed", message: null };
    };
    await waitForJob(
      read,
      "entitlement",
      "q1",
      { pollMaxMs: 1000 },
      {
        random: () => 1,
        sleep: async (ms: number) => {
          sleeps.push(ms);
        },
      },
    );
    // The first poll after 200 ms (+ up to a quarter), then equal jitter of 400, 800, …
    expect(sleeps).toEqual([250, 400, 800, 1000, 1000, 1000]);
    // Equal jitter: never less than half the step.
    sleeps.length = 0;
    polls = 0;
    await waitForJob(
      read,
      "entitlement",
      "q1",
      {},
      {
        random: () => 0,
        sleep: async (ms: number) => {
          sleeps.push(ms);
        },
      },
    );
    expect(sleeps).toEqual([200, 200, 400, 800, 1600, 2500]);
  });
});

describe("queueIdOf", () => {
  it("reads queueid, queuid and an array of one accepted object", () => {
    expect(queueIdOf({ code: 201, description: "x", queueid: "a" })).toBe("a");
    expect(queueIdOf({ code: 201, description: "x", queuid: "b" })).toBe("b");
    expect(queueIdOf([{ code: 201, description: "x", queueid: "c" }])).toBe("c");
    expect(queueIdOf({ status: { code: 200, message: "ok" } })).toBeUndefined();
  });
});
