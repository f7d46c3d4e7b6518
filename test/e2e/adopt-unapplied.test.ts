/**
 * `phctl drift --adopt` never loses merged work (issue 34, defect 1): a declaration that was
 * never applied is "not applied yet", not "deleted live". The built CLI against the reference
 * server on loopback, the examples applied; then manifests are added and changed (merged, not
 * applied) while live state moves too. Adoption removes only what the apply journal or the
 * last applied commit's config (`--applied`) proves existed, keeps every merged change with
 * `--applied`, and does not run while an apply holds the lock.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { client, readTree, workdir } from "../adopt/fixture.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

/** Users a merged pull request declares and no apply has created yet. */
const newUsers = (names: readonly string[]) =>
  names
    .map(
      (n) => `apiVersion: phctl/v1
kind: User
metadata:
  name: ${n}
spec:
  firstName: New
  lastName: User
  externalEmail: ${n}@example.org
`,
    )
    .join("---\n");

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((t) => t.close()));
});

/** A server with the examples applied from a fresh working directory (its journal kept). */
async function applied(latency?: number) {
  const t = await startServer(latency ? { latencyMs: latency } : {});
  servers.push(t);
  const dir = workdir();
  const env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
  const r = await phctl(["apply", "examples", "--auto-approve"], env, dir);
  if (r.code !== 0) throw new Error(r.stderr);
  // The last applied commit's config, checked out beside (as CI does from applied.json).
  cpSync(join(dir, "examples"), join(dir, "applied"), { recursive: true });
  return { t, dir, env };
}

/** Merged and not applied: three new users, and a new title for ci-tools. */
function merge(dir: string, users = ["newa", "newb", "newc"]): void {
  writeFileSync(join(dir, "examples/users/new.yaml"), newUsers(users));
  const ci = join(dir, "examples/projects/ci-tools.yaml");
  writeFileSync(ci, readFileSync(ci, "utf8").replace("title: CI tools", "title: CI tools v2"));
}

/** Live moves: bwong's reporter access removed (a deletion made live), mbed-tls described anew. */
async function moveLive(t: TestServer): Promise<void> {
  const api = client(t);
  await api.call("access.removeUser", {
    params: { projectSlug: "trusted-firmware-a", level: "reporters", username: "bwong" },
  });
  await api.call("projects.patch", {
    params: { projectSlug: "mbed-tls" },
    body: { description: "Changed live" },
  });
  await api.close();
}

const adoptLines = (stderr: string) =>
  stderr.split("\n").filter((l) => l.startsWith("phctl: adopt: "));

describe("drift --adopt keeps what is not applied yet", () => {
  it("never deletes a declaration never created; with --applied keeps merged changes and adopts only drift", async () => {
    const { t, dir, env } = await applied();
    merge(dir);
    await moveLive(t);
    const before = readTree(join(dir, "examples"));

    const r = await phctl(["drift", "examples", "--adopt", "--applied", "applied"], env, dir);
    expect(r.code).toBe(2);
    const lines = adoptLines(r.stderr);
    expect(lines).toContain(
      "phctl: adopt: project/trusted-firmware-a/access/reporters/user/bwong: removed, gone live (examples/projects/trusted-firmware-a.yaml)",
    );
    expect(lines).toContain(
      "phctl: adopt: project/mbed-tls: description as live has it (examples/projects/mbed-tls.yaml)",
    );
    for (const u of ["newa", "newb", "newc"])
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^phctl: adopt: not adopted: user/${u} \\(User\\): declared and absent live, and nothing shows it ever existed: not applied yet`,
          ),
        ),
      );
    expect(lines).toContain(
      "phctl: adopt: not adopted: project/ci-tools (Project): title merged since the last applied commit and not applied yet (not drift): its apply carries it out",
    );
    expect(r.stderr).not.toContain("deleted examples/users/new.yaml");
    const after = readTree(join(dir, "examples"));
    // Merged work is all there, byte for byte.
    expect(after.get("users/new.yaml")).toBe(before.get("users/new.yaml"));
    expect(after.get("projects/ci-tools.yaml")).toBe(before.get("projects/ci-tools.yaml"));
    expect(after.get("projects/trusted-firmware-a.yaml")).toBe(
      before.get("projects/trusted-firmware-a.yaml")!.replace("    reporters: [bwong]\n", ""),
    );

    // What is left to do is exactly what was merged: the apply creates it.
    const plan = await phctl(["plan", "examples", "--format", "json"], env, dir);
    const entries = (JSON.parse(plan.stdout) as { entries: { action: string; key: string }[] })
      .entries;
    expect(entries.map((e) => `${e.action} ${e.key}`).sort()).toEqual([
      "create user/newa",
      "create user/newb",
      "create user/newc",
      "update project/ci-tools",
    ]);
  });

  it("without --applied or a journal: removes no declaration and says what would prove it", async () => {
    const { t, dir, env } = await applied();
    await moveLive(t);
    // A fresh CI workspace: the same manifests, no journal.
    const fresh = mkdtempSync(join(tmpdir(), "phctl-adopt-fresh-"));
    cpSync(join(dir, "applied"), join(fresh, "examples"), { recursive: true });
    rmSync(join(fresh, "examples/.phctl"), { recursive: true, force: true });
    merge(fresh);
    const before = readTree(join(fresh, "examples"));

    const r = await phctl(["drift", "examples", "--adopt"], env, fresh);
    expect(r.code).toBe(2);
    const lines = adoptLines(r.stderr);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^phctl: adopt: not adopted: project\/trusted-firmware-a\/access\/reporters\/user\/bwong \(ProjectAccess\): declared and absent live, and nothing shows it ever existed: .*pass --applied DIR/,
      ),
    );
    expect(lines).toContain(
      "phctl: adopt: adopted as drift without --applied: a change merged and not applied yet would read as drift too (check the diff before it is merged, or pass --applied DIR)",
    );
    const after = readTree(join(fresh, "examples"));
    expect(after.get("users/new.yaml")).toBe(before.get("users/new.yaml"));
    expect(after.get("projects/trusted-firmware-a.yaml")).toBe(
      before.get("projects/trusted-firmware-a.yaml"),
    );
  });

  it("does not run while an apply holds the lock: exit 1, nothing written", async () => {
    const { t, dir, env } = await applied();
    merge(dir);
    await moveLive(t);
    const journal = join(dir, "examples/.phctl/journal.jsonl");
    expect(existsSync(journal)).toBe(true);
    // Held by a live process on this host (this test's): an apply still running.
    writeFileSync(
      `${journal}.lock`,
      `${JSON.stringify({ host: hostname(), pid: process.pid, startedAt: new Date().toISOString(), command: "phctl apply" })}\n`,
    );
    const before = readTree(join(dir, "examples"));
    const r = await phctl(["drift", "examples", "--adopt", "--applied", "applied"], env, dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("holds");
    expect(adoptLines(r.stderr)).toEqual([]);
    expect(readTree(join(dir, "examples"))).toEqual(before);
    expect(existsSync(`${journal}.lock`)).toBe(true);
  });

  it("an apply running beside adopt in another workspace: every merged declaration kept", async () => {
    const { dir, env } = await applied(15);
    const users = Array.from({ length: 40 }, (_, i) => `merged${String(i).padStart(2, "0")}`);
    merge(dir, users);
    // The scheduled adopt job: its own checkout of the same merged commit, the applied one beside.
    const other = mkdtempSync(join(tmpdir(), "phctl-adopt-other-"));
    cpSync(join(dir, "examples"), join(other, "examples"), { recursive: true });
    rmSync(join(other, "examples/.phctl"), { recursive: true, force: true });
    cpSync(join(dir, "applied"), join(other, "applied"), { recursive: true });
    const before = readTree(join(other, "examples"));
    let done = false;
    const apply = phctl(["apply", "examples", "--auto-approve"], env, dir).finally(() => {
      done = true;
    });
    // Adopt again and again while the apply creates the merged users, and once after.
    const rounds = [];
    for (let i = 0; i < 6 && (i === 0 || !done); i++)
      rounds.push(
        await phctl(["drift", "examples", "--adopt", "--applied", "applied"], env, other),
      );
    await apply;
    rounds.push(await phctl(["drift", "examples", "--adopt", "--applied", "applied"], env, other));
    expect((await apply).code).toBe(0);
    for (const r of rounds) expect([0, 2]).toContain(r.code);
    const after = readTree(join(other, "examples"));
    expect(after.get("users/new.yaml")).toBe(before.get("users/new.yaml"));
    expect(after.get("projects/ci-tools.yaml")).toBe(before.get("projects/ci-tools.yaml"));
  });
});
