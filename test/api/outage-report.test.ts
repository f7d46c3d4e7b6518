/**
 * What the CLI prints about an outage (src/cli/config.ts `connect()`): one stderr line when
 * the service stops answering and one when it answers again — always, not only with
 * --verbose; JSON lines with --json; the count in the --verbose summary.
 */
import { expect, it } from "vitest";
import { OutageError } from "../../src/api/errors.js";
import { sleep } from "../../src/api/limit.js";
import { connect, type Connection, type GlobalOptions } from "../../src/cli/config.js";
import { TOKENS } from "../helpers/server.js";
import { FAST, restartableServer } from "./helpers.js";

it("reports an outage's start and end on stderr, as text or JSON, and gives up as told", async () => {
  const srv = await restartableServer();
  const open = async (global: GlobalOptions, outageTimeoutMs?: number) => {
    const lines: string[] = [];
    const c = await connect(
      { apiUrl: srv.url, ...global },
      {
        env: { PHCTL_TOKEN: TOKENS.member.secret },
        stderr: (s) => lines.push(s.replace(/\n$/, "")),
        client: { ...FAST, ...(outageTimeoutMs ? { outageTimeoutMs } : {}) },
      },
    );
    return { c, lines };
  };
  const plain = await open({});
  const json = await open({ json: true });
  const verbose = await open({ verbose: true });
  const impatient = await open({ json: true }, 200);
  const all = [plain, json, verbose, impatient];
  let closed = false;
  const closeAll = async () => {
    if (!closed) for (const { c } of all) await c.close();
    closed = true;
  };
  const reads = (c: Connection) =>
    Promise.allSettled(Array.from({ length: 12 }, () => c.client.ops.licenses.list()));
  try {
    await srv.stop();
    const results = all.map(({ c }) => reads(c));
    await sleep(400);
    await srv.start();
    const [p, j, v, i] = await Promise.all(results);
    for (const r of [p, j, v]) expect(r.every((x) => x.status === "fulfilled")).toBe(true);
    expect(i.every((x) => x.status === "rejected" && x.reason instanceof OutageError)).toBe(true);
    await closeAll();

    expect(plain.lines).toHaveLength(2);
    expect(plain.lines[0]).toBe(
      "phctl: the service is not answering (connection refused (ECONNREFUSED)): all requests paused; probing every few seconds for up to 2 min",
    );
    expect(plain.lines[1]).toMatch(
      /^phctl: the service answers again after \d+(\.\d)? m?s; resuming$/,
    );

    const outage = (lines: string[]) =>
      lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((e) => e.event === "api.outage");
    expect(outage(json.lines)).toEqual([
      {
        event: "api.outage",
        state: "start",
        reason: "connection refused (ECONNREFUSED)",
        trigger: "10 requests in a row got no answer",
        timeoutMs: 120_000,
      },
      {
        event: "api.outage",
        state: "end",
        pausedMs: expect.any(Number),
        probes: expect.any(Number),
      },
    ]);
    const metrics = JSON.parse(json.lines.at(-1)!) as Record<string, unknown>;
    expect(metrics).toMatchObject({ event: "api.metrics", outages: 1, errors: 0 });
    expect(outage(impatient.lines).map((e) => e.state)).toEqual(["start", "timeout"]);

    expect(verbose.lines.some((l) => l.startsWith("phctl: the service is not answering"))).toBe(
      true,
    );
    expect(verbose.lines).toContainEqual(
      expect.stringMatching(
        /^phctl: api: 1 outage: all calls paused \d+(\.\d)? m?s in all, \d+ probes?$/,
      ),
    );
  } finally {
    await closeAll();
    await srv.stop();
  }
}, 10_000);
