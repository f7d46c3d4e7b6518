/**
 * `phctl apply` end to end: the built CLI (`npm run build` first) against the reference
 * server on loopback, with the examples as the config repository. Convergence (also through
 * the embedded default; under faults and outages see faults.test.ts), a failing queue job, fork order, stale
 * saved plans, the safety rails, and `--resume` after a SIGKILL — checked on the server's
 * request log and store.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJournal } from "../../src/engine/journal.js";
import type { RequestLogEntry } from "../../src/server/app.js";
import { MAIN, phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { copyExamples } from "../helpers/examples.js";

/** util-linux `script` gives the CLI a terminal (for the confirmation prompt). */
const hasScript = (() => {
  try {
    execFileSync("script", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

/** Run the CLI on a pseudo-terminal, typing `input`. */
function onTerminal(args: string[], env: Record<string, string>, cwd: string, input: string) {
  const cmd = [process.execPath, MAIN, ...args].map((a) => `'${a}'`).join(" ");
  return new Promise<{ code: number; output: string }>((done) => {
    const child = execFile(
      "script",
      ["-qec", cmd, "/dev/null"],
      {
        cwd,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1", ...env },
        timeout: 60_000,
      },
      (err, stdout) =>
        done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: String(stdout) }),
    );
    child.stdin?.end(input);
  });
}

/** A temporary config repository: a copy of the examples. */
function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), "phctl-apply-"));
  copyExamples(join(dir, "examples"));
  return dir;
}

const envFor = (t: TestServer) => ({ PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret });
const writes = (log: readonly RequestLogEntry[]) => log.filter((e) => e.method !== "GET");
/** Successful POSTs, sorted; numeric ids (given in creation order, which concurrency varies) as `:id`. */
const posts = (log: readonly RequestLogEntry[]) =>
  log
    .filter((e) => e.method === "POST" && e.status < 300)
    .map((e) => e.url.replace(/\/\d+(?=\/|$|\?)/g, "/:id"))
    .sort();

/** Replace text in a file of the work directory. */
function edit(dir: string, file: string, from: string | RegExp, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, "utf8");
  const next = text.replace(from, to);
  if (next === text) throw new Error(`${file}: nothing replaced`);
  writeFileSync(path, next);
}

describe("phctl apply against phctl's reference server", () => {
  let t: TestServer;
  let dir: string;
  beforeAll(async () => {
    t = await startServer();
    dir = workdir();
  });
  afterAll(async () => t.close());

  it("without a terminal and without --auto-approve, shows the plan and refuses in one line", async () => {
    const r = await phctl(["apply", "examples"], envFor(t), dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Plan: \d+ to create/);
    expect(r.stderr).toBe(
      "phctl: apply needs a confirmation and there is no terminal to ask on: review the plan, then pass --auto-approve\n",
    );
    expect(writes(t.server.requestLog)).toEqual([]);
  });

  it.skipIf(!hasScript)(
    "on a terminal, shows the plan and asks; anything but yes cancels with one soft line",
    async () => {
      const r = await onTerminal(["apply", "examples"], envFor(t), dir, "y\n");
      expect(r.code).toBe(1);
      expect(r.output).toMatch(/Plan: \d+ to create/);
      expect(r.output).toContain("Apply these changes? Only 'yes' is accepted: ");
      expect(r.output.trimEnd().split(/\r?\n/).at(-1)).toBe(
        "Apply cancelled: nothing was changed.",
      );
      expect(writes(t.server.requestLog)).toEqual([]);
    },
  );

  it("applies the examples from empty; then plan shows no changes", async () => {
    const r = await phctl(["apply", "examples", "--auto-approve"], envFor(t), dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Apply complete: \d+ done, 0 failed, 0 skipped \(.+\)\./);
    const plan = await phctl(["plan", "examples", "--detailed-exitcode"], envFor(t), dir);
    expect(plan.stdout).toMatch(/^No changes\./);
    expect(plan.code).toBe(0);
    const journal = readJournal(join(dir, "examples/.phctl/journal.jsonl"))!;
    expect(journal).toMatchObject({ status: "finished", inFlight: [], failed: [] });
  });

  it("forks a repository only after its source, created in another managed project", () => {
    const log = t.server.requestLog;
    const source = log.find(
      (e) => e.method === "POST" && e.url === "/v1/projects/trusted-firmware-a/git/repo",
    );
    const fork = log.find((e) => e.method === "POST" && e.url === "/v1/projects/ci-tools/git/fork");
    expect(source).toBeDefined();
    expect(fork).toBeDefined();
    // After the source's create and everything applied to it (commit blocker, bundle).
    const sourceId = t.server.ctx.db.get<{ id: number }>(
      "SELECT id FROM repositories WHERE name = 'trusted-firmware-a' AND subgroup_id IS NULL",
    )!.id;
    const sourceLast = Math.max(
      source!.seq,
      ...log
        .filter(
          (e) =>
            e.method !== "GET" &&
            e.url.startsWith(`/v1/projects/trusted-firmware-a/git/repo/${sourceId}/`),
        )
        .map((e) => e.seq),
    );
    expect(sourceLast).toBeGreaterThan(source!.seq);
    expect(fork!.seq).toBeGreaterThan(sourceLast);
  });

  it("with nothing to do says No changes and exits 0", async () => {
    const before = writes(t.server.requestLog).length;
    const r = await phctl(["apply", "examples"], envFor(t), dir);
    expect(r).toMatchObject({ code: 0, stdout: "No changes. Live state matches the manifests.\n" });
    expect(writes(t.server.requestLog)).toHaveLength(before);
  });

  it("refuses a stale saved plan, naming the object that changed and how; applies a fresh one", async () => {
    const work = workdir();
    edit(work, "examples/projects/ci-tools.yaml", "title: CI tools", "title: CI tooling");
    const saved = await phctl(["plan", "examples", "--out", "plan.json"], envFor(t), work);
    expect(saved.code).toBe(0);
    const changed = await t.call("PATCH", "/v1/projects/ci-tools", {
      body: { name: "Renamed by hand" },
    });
    expect(changed.status).toBe(200);
    const before = writes(t.server.requestLog).length;
    const r = await phctl(["apply", "plan.json", "examples"], envFor(t), work);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "phctl: the saved plan plan.json is stale: 1 object changed since it was made",
    );
    expect(r.stderr).toContain('project/ci-tools: title: "CI tools" → "Renamed by hand"');
    expect(writes(t.server.requestLog)).toHaveLength(before);

    const again = await phctl(["plan", "examples", "--out", "plan.json"], envFor(t), work);
    expect(again.code).toBe(0);
    // Only the plan: the manifests are found where its sources are.
    const ok = await phctl(["apply", "plan.json"], envFor(t), work);
    expect(ok.stderr).toContain(
      `phctl: reading the manifests the saved plan was made from in ${join(work, "examples")} (recorded path; name them after the plan file to choose)\n`,
    );
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/Apply complete: 1 done/);
    const project = await t.call("GET", "/v1/projects/ci-tools");
    expect(project.body.data.name).toBe("CI tooling");
    await t.call("PATCH", "/v1/projects/ci-tools", { body: { name: "CI tools" } });
  });

  it("refuses to leave a project without an admin or a git group without a maintainer", async () => {
    const work = workdir();
    edit(work, "examples/projects/ci-tools.yaml", "admins: [jdoe, asmith]", "admins: []");
    edit(
      work,
      "examples/projects/ci-tools.yaml",
      "maintainers: { users: [bwong] }",
      "maintainers: []",
    );
    const before = writes(t.server.requestLog).length;
    const r = await phctl(["apply", "examples", "--auto-approve"], envFor(t), work);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "phctl: refusing: project ci-tools would be left without any admin (the plan removes user/asmith, user/jdoe); declare one under spec.access.admins (or pass --allow-no-admin if that is intended)\n",
    );
    expect(r.stderr).toContain(
      "phctl: refusing: the git group of project ci-tools would be left without a maintainer (the plan removes user/bwong); declare users or organizationTeams under spec.access.maintainers (or pass --allow-no-admin if that is intended)\n",
    );
    expect(writes(t.server.requestLog)).toHaveLength(before);
  });

  it("refuses a mass removal unless --allow-mass-removal", async () => {
    const work = workdir();
    // mbed-tls has 5 access entries; removing 2 is 40 % (maxRemovals 25 %).
    edit(
      work,
      "examples/projects/mbed-tls.yaml",
      "maintainers: [pkumar, { user: lchen, expires: 2030-06-30 }]",
      "maintainers: [pkumar]",
    );
    edit(work, "examples/projects/mbed-tls.yaml", "developers: [asmith]", "developers: []");
    const before = writes(t.server.requestLog).length;
    const r = await phctl(["apply", "examples", "--auto-approve"], envFor(t), work);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "phctl: refusing a mass removal: the plan removes 2 of 5 access entries of project mbed-tls (40 %, more than maxRemovals 25 %): project/mbed-tls/access/maintainers/user/lchen, project/mbed-tls/access/developers/user/asmith; pass --allow-mass-removal if that is intended, or raise maxRemovals in phctl.yaml\n",
    );
    expect(writes(t.server.requestLog)).toHaveLength(before);
    const ok = await phctl(
      ["apply", "examples", "--auto-approve", "--allow-mass-removal"],
      envFor(t),
      work,
    );
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/Apply complete: 2 done/);
  });

  it("after a SIGKILL mid-apply, --resume waits on the jobs in flight and finishes without a duplicate POST", async () => {
    // The POSTs of one uninterrupted apply of the same examples, on a server of its own.
    const ref = await startServer();
    let uninterrupted: string[];
    try {
      const done = await phctl(["apply", "examples", "--auto-approve"], envFor(ref), workdir());
      expect(done.code).toBe(0);
      uninterrupted = posts(ref.server.requestLog);
    } finally {
      await ref.close();
    }
    const slow = await startServer({ queueDelayMs: 5000 });
    try {
      const work = workdir();
      const env = { ...process.env, ...envFor(slow), NO_COLOR: "1", CI: "" };
      const child = spawn(process.execPath, [MAIN, "apply", "examples", "--auto-approve"], {
        cwd: work,
        env,
        stdio: "ignore",
      });
      const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
      // Kill once queued jobs are in flight and nothing else is moving (the journal is still).
      const file = join(work, "examples/.phctl/journal.jsonl");
      let last = "";
      let stillSince = performance.now();
      for (;;) {
        await new Promise((r) => setTimeout(r, 100));
        // Still = the journal unchanged and no write request answered by the server since.
        const journalText = existsSync(file) ? readFileSync(file, "utf8") : "";
        const text = `${journalText}\n${writes(slow.server.requestLog).length}`;
        if (text !== last) {
          last = text;
          stillSince = performance.now();
          continue;
        }
        const j = journalText ? readJournal(file) : undefined;
        if (j && j.inFlight.length > 0 && performance.now() - stillSince > 1200) break;
      }
      child.kill("SIGKILL");
      expect(await exited).toBe(null);
      const killed = readJournal(file)!;
      expect(killed.status).toBe("running");
      expect(killed.inFlight.length).toBeGreaterThan(0);

      const r = await phctl(
        ["apply", "examples", "--auto-approve", "--resume"],
        envFor(slow),
        work,
      );
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`phctl: resuming the apply interrupted at`);
      expect(r.stdout).toContain("left open by an earlier apply");
      expect(r.stderr).toContain(
        `phctl: waiting on ${killed.inFlight.length} queued jobs an earlier apply left open`,
      );
      // jdoe's welcome waits for her service accounts, whose jobs were in flight: it was
      // still owed when the apply was killed, and the resumed apply sends it, once.
      expect(killed.owed.map((e) => e.key)).toEqual(["user/jdoe/welcome"]);
      expect(r.stdout).toMatch(/^done {5}create user\/jdoe\/welcome \(/m);
      const resumed = readJournal(file)!;
      expect(resumed).toMatchObject({ status: "finished", inFlight: [] });
      const plan = await phctl(["plan", "examples", "--detailed-exitcode"], envFor(slow), work);
      expect(plan.code).toBe(0);
      // Every POST exactly as often as in one uninterrupted apply of the same examples.
      expect(posts(slow.server.requestLog)).toEqual(uninterrupted);
    } finally {
      await slow.close();
    }
  }, 60_000);
});

describe("the embedded default", () => {
  it("applies the examples to examples/.phctl/embedded.sqlite in a fresh directory; plan then shows no changes", async () => {
    const cwd = workdir();
    const env = { PHCTL_API_URL: undefined, PHCTL_TOKEN: undefined };
    const r = await phctl(["apply", "examples", "--auto-approve"], env, cwd);
    expect(r.stderr).toContain(
      "using the embedded reference server on examples/.phctl/embedded.sqlite",
    );
    expect(r.code).toBe(0);
    expect(existsSync(join(cwd, "examples/.phctl/embedded.sqlite"))).toBe(true);
    const plan = await phctl(["plan", "examples", "--detailed-exitcode"], env, cwd);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/^No changes\./);
  });
});

describe("failures", () => {
  it("a failing queue job fails only its branch; the next apply repairs it", async () => {
    const t = await startServer();
    try {
      const dir = workdir();
      t.server.ctx.queue.failNext({ queue: "entitlement", message: "the git host said no" });
      const r = await phctl(["apply", "examples", "--auto-approve"], envFor(t), dir);
      expect(r.code).toBe(1);
      const failed = r.stdout.split("\n").filter((l) => l.startsWith("failed"));
      expect(failed).toHaveLength(1);
      expect(failed[0]).toContain("the git host said no");
      expect(r.stdout).toMatch(/Apply finished with errors: \d+ done, 1 failed, 0 skipped/);
      // Only that entry is left.
      const left = await phctl(["plan", "examples", "--detailed-exitcode"], envFor(t), dir);
      expect(left.code).toBe(2);
      expect(left.stdout).toMatch(/Plan: 1 to create, 0 to update, 0 to delete/);
      // In CI: one JSON object per line and event.
      const again = await phctl(
        ["apply", "examples", "--auto-approve"],
        { ...envFor(t), CI: "true" },
        dir,
      );
      expect(again.code).toBe(0);
      const events = again.stdout
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(events.map((e) => e.event)).toEqual([
        "plan",
        "apply-started",
        "action-started",
        "job-waiting",
        "job-done",
        "action-done",
        "apply-done",
      ]);
      expect(events[5]).toMatchObject({ event: "action-done", action: "create" });
      expect(events[6]).toMatchObject({ summary: { done: 1, failed: 0, skipped: 0 } });
      expect(typeof events[6].time).toBe("string");
    } finally {
      await t.close();
    }
  });
});
