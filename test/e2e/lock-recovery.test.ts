/**
 * A lock left by an apply that is gone, end to end (the built CLI against phctl serve on
 * loopback; `npm run build` first):
 *
 * - another host's lock (a live apply on a shared filesystem, as far as phctl can tell): apply
 *   exits 1 with one line naming host, pid, start time, CI job URL and the exact command that
 *   removes it, sending nothing; that command (`phctl unlock LOCK_ID …`) removes it, says whose
 *   it was, and the apply then runs;
 * - locks whose holder is provably gone are taken over with a line saying so: a dead pid of
 *   this host, an earlier boot of this host, and a copy restored from another runner's CI cache
 *   (the GitLab template's old cache of `.phctl/` handed the lock of a killed job on).
 */
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { copyExamples } from "../helpers/examples.js";

const LOCK = "examples/.phctl/journal.jsonl.lock";
const JOB = "https://gitlab.example.org/acme/infra/-/jobs/991";

let t: TestServer;
beforeAll(async () => {
  t = await startServer();
});
afterAll(() => t.close());

const env = () => ({ PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret });
const writes = () => t.server.requestLog.filter((e) => e.method !== "GET").length;

/** A copy of the examples with `holder` as the lock of their journal. */
function withLock(holder: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), "phctl-lock-e2e-"));
  copyExamples(join(dir, "examples"));
  mkdirSync(join(dir, "examples/.phctl"));
  writeFileSync(
    join(dir, LOCK),
    JSON.stringify({ startedAt: new Date().toISOString(), command: "phctl apply", ...holder }),
  );
  return dir;
}

const apply = (dir: string) => phctl(["apply", "examples", "--auto-approve"], env(), dir);
const thisBoot = () => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();

describe("a lock of another host", () => {
  it("refuses naming the holder and the command; that command removes it; apply then runs", async () => {
    const id = "6f1c0e9a-2b7d-4c1e-9a55-0d3f1b2c4e77";
    const startedAt = new Date().toISOString();
    const dir = withLock({ id, host: "runner-7", pid: 4242, startedAt, ci: { id: "gitlab job 991", url: JOB } }); // prettier-ignore
    const before = writes();
    const refused = await apply(dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split("\n").at(-1)).toBe(
      `phctl: another phctl apply holds ${join(dir, LOCK)} (host runner-7, pid 4242, since ${startedAt}, job ${JOB}, lock ID ${id}): it ran on another host: phctl cannot see whether it still runs; wait for it to finish and run again; if it is gone (killed, its runner lost), remove the lock with: phctl unlock ${id} --journal examples/.phctl/journal.jsonl`, // prettier-ignore
    );
    expect(writes()).toBe(before);

    // The command exactly as printed.
    const command = /remove the lock with: phctl (.+)$/.exec(refused.stderr.trim())![1].split(" ");
    const unlocked = await phctl(command, {}, dir);
    expect(unlocked).toMatchObject({ code: 0, stderr: "" });
    expect(unlocked.stdout).toBe(
      `Removed the lock ${join(dir, LOCK)} (lock ID ${id}): it was held by phctl apply (host runner-7, pid 4242, since ${startedAt}, job ${JOB}).\n`, // prettier-ignore
    );
    const ran = await apply(dir);
    expect(ran.stderr).not.toMatch(/lock/);
    expect(ran.code).toBe(0);
  }, 60_000);

  it("force-unlock LOCK_ID DIR (Terraform's name) finds the journal as apply does; a wrong ID removes nothing", async () => {
    const dir = withLock({ id: "lock-a", host: "runner-7", pid: 4242 });
    const wrong = await phctl(["force-unlock", "lock-b", "examples"], {}, dir);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^phctl: the lock \S+ has the ID lock-a, not lock-b \(mistyped, or a lock taken since: phctl apply, host runner-7, pid 4242, since [^)]+\): nothing removed; if its holder is gone, run: phctl unlock lock-a --journal examples\/\.phctl\/journal\.jsonl\n$/); // prettier-ignore
    const right = await phctl(["force-unlock", "lock-a", "examples"], {}, dir);
    expect(right.code).toBe(0);
    expect(right.stdout).toMatch(/^Removed the lock .* \(lock ID lock-a\): it was held by phctl apply \(host runner-7, pid 4242, since /); // prettier-ignore
  }, 60_000);
});

describe("a lock whose holder is provably gone is taken over, saying so", () => {
  it("this host, a pid no process has", async () => {
    const dir = withLock({ host: hostname(), pid: 2 ** 22 + 17, startedAt: "yesterday", bootId: thisBoot() }); // prettier-ignore
    const r = await apply(dir);
    expect(r.stderr).toContain(
      `phctl: took over the lock ${join(dir, LOCK)} of pid ${2 ** 22 + 17} (started yesterday), which is no longer running\n`, // prettier-ignore
    );
    expect(r.code).toBe(0);
  }, 60_000);

  it("this host, an earlier boot (its pid is alive again now: pid 1)", async () => {
    const dir = withLock({ host: hostname(), pid: 1, bootId: "0f0e0d0c-0000-4000-8000-000000000000" }); // prettier-ignore
    const r = await apply(dir);
    expect(r.stderr).toMatch(
      /phctl: took over the lock \S+ of pid 1 \(started [^)]+\), which ran before this machine restarted \(another boot ID\): it is gone\n/,
    );
    expect(r.code).toBe(0);
  }, 60_000);

  it("a copy restored from another runner's CI cache: the lock of a job killed mid-apply", async () => {
    const started = new Date(Date.now() - 15 * 60_000);
    const dir = withLock({ host: "runner-7", pid: 4242, startedAt: started.toISOString(), ci: { id: "gitlab job 991", url: JOB } }); // prettier-ignore
    utimesSync(join(dir, LOCK), started, started); // the cache's zip keeps the file's times
    const r = await apply(dir);
    expect(r.stderr).toContain(
      `phctl: took over the lock ${join(dir, LOCK)} of pid 4242 on host runner-7 (started ${started.toISOString()}, job ${JOB}), whose lock file here is a copy (restored from a CI cache or an archive): ${JOB} never held it\n`, // prettier-ignore
    );
    expect(r.code).toBe(0);
  }, 60_000);
});
