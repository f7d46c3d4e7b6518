/**
 * Changes merged and never applied, end to end: the built CLI against phctl serve, commits
 * stood in for by copies of the examples (what CI checks out: the base, the head, the last
 * applied commit). `apply --commit` records the commit applied beside the journal; `plan
 * --base --applied` shows what was merged since and never applied apart ("merged but not
 * applied"), and the apply after merge carries it; an apply whose reviewed plan did not show
 * such changes refuses, naming them and the command that applies them — which does.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../src/engine/plan.js";
import { phctl } from "../helpers/cli.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { copyExamples } from "../helpers/examples.js";

let t: TestServer;
let dir: string;
let env: Record<string, string>;

/** A commit: a copy of `from` (a commit) with one edit. */
function commit(name: string, from: string, file: string, before: string, after: string): string {
  cpSync(join(dir, from), join(dir, name), { recursive: true });
  const path = join(dir, name, file);
  const text = readFileSync(path, "utf8");
  if (!text.includes(before)) throw new Error(`${file} does not hold ${before}`);
  writeFileSync(path, text.replace(before, after));
  return name;
}

const record = () => JSON.parse(readFileSync(join(dir, ".phctl/applied.json"), "utf8"));
const writes = () => t.server.requestLog.filter((e) => e.method !== "GET").length;
const project = async (slug: string) => (await t.call("GET", `/v1/projects/${slug}`)).body.data;
// Each "commit" is a directory of its own here; in CI they are one checkout at different
// commits. The journal (and the applied record beside it) is one, as the CI kit passes it.
const run = (...args: string[]) =>
  phctl(
    ["apply", "plan"].includes(args[0])
      ? [...args, "--journal", join(dir, ".phctl/journal.jsonl")]
      : args,
    env,
    dir,
  );

beforeAll(async () => {
  t = await startServer({ requestLog: true });
  env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret };
  dir = mkdtempSync(join(tmpdir(), "phctl-stranded-"));
  copyExamples(join(dir, "c0"));
});
afterAll(() => t?.close());

describe("changes merged and never applied", () => {
  it("apply --commit records the commit once everything is applied; plan --base alone says what it cannot show", async () => {
    const first = await run("apply", "c0", "--auto-approve", "--commit", "c0c0c0c");
    expect(first.code, first.stderr).toBe(0);
    expect(record()).toMatchObject({ formatVersion: 1, commit: "c0c0c0c", apiUrl: t.url });
    commit("c1", "c0", "projects/ci-tools.yaml", "Shared continuous-integration tooling", "Reviewed CI tooling"); // prettier-ignore
    const json = await run("plan", "c1", "--base", "c0", "--format", "json");
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as Plan).applied).toMatchObject({ known: false });
    const text = await run("plan", "c1", "--base", "c0");
    expect(text.stdout).toContain(
      "note: no record of the last applied commit: changes merged earlier and not applied are not shown; run phctl plan CONFIG (without --base) to see them",
    );
  });

  it("a merge whose apply was refused: the next plan shows it as merged but not applied, and its apply carries it", async () => {
    // Pull request 1 (c0 → c1) is reviewed; live moves before its apply, which refuses.
    expect((await run("plan", "c1", "--base", "c0", "--applied", "c0", "--out", "p1.json")).code).toBe(0); // prettier-ignore
    await t.call("PATCH", "/v1/projects/ci-tools", { body: { description: "Edited live" } });
    const refused = await run("apply", "c1", "--reviewed", "p1.json", "--applied", "c0", "--commit", "c1c1c1c"); // prettier-ignore
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("differs from the one reviewed on the pull request");
    expect(record().commit).toBe("c0c0c0c");

    // Pull request 2 (c1 → c2) touches another project only.
    commit("c2", "c1", "projects/mbed-tls.yaml", "title: Mbed TLS", "title: Mbed TLS library");
    const plan = await run("plan", "c2", "--base", "c1", "--applied", "c0", "--out", "p2.json");
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain(
      "planning the 1 object the change touches (project/mbed-tls) and 1 object merged earlier and not applied (project/ci-tools)",
    );
    const mine = plan.stdout.indexOf("This change (compared with the base):");
    const stranded = plan.stdout.indexOf("Merged but not applied");
    expect(mine).toBeGreaterThanOrEqual(0);
    expect(stranded).toBeGreaterThan(mine);
    expect(plan.stdout.slice(mine, stranded)).toContain("project/mbed-tls (Project)");
    expect(plan.stdout.slice(stranded)).toContain('description: "Edited live" → "Reviewed CI tooling"'); // prettier-ignore
    expect(plan.stdout).not.toContain("Drift already present");
    const saved = JSON.parse(readFileSync(join(dir, "p2.json"), "utf8")) as Plan;
    expect(saved.unapplied).toEqual(["project/ci-tools"]);
    expect(saved.drift).toEqual([]);
    expect(saved.applied).toMatchObject({ known: true, commit: "c0c0c0c" });

    const applied = await run("apply", "c2", "--reviewed", "p2.json", "--applied", "c0", "--commit", "c2c2c2c", "--result", "r2.json"); // prettier-ignore
    expect(applied.code, applied.stderr).toBe(0);
    expect((await project("ci-tools")).description).toBe("Reviewed CI tooling");
    expect((await project("mbed-tls")).name).toBe("Mbed TLS library");
    expect(record().commit).toBe("c2c2c2c");
    expect(applied.stderr).toContain("recorded c2c2c2c as applied");

    // Applied and recorded: nothing is merged but not applied any more.
    const again = await run("plan", "c2", "--base", "c2", "--applied", "c2", "--format", "json");
    expect(JSON.parse(again.stdout)).toMatchObject({ entries: [], unapplied: [] });
  });

  it("refuses an apply whose reviewed plan did not show changes merged before it, naming them and the command that applies them", async () => {
    // Pull request B is planned on c2; pull request A (tf-a) merges first and is never
    // applied (its apply was cancelled); then B merges without a new plan.
    commit("pb", "c2", "projects/ci-tools.yaml", "title: CI tools", "title: CI tooling");
    expect((await run("plan", "pb", "--base", "c2", "--applied", "c2", "--out", "pb.json")).code).toBe(0); // prettier-ignore
    commit("c3", "c2", "projects/trusted-firmware-a.yaml", "title: Trusted Firmware-A", "title: TF-A"); // prettier-ignore
    commit("c4", "c3", "projects/ci-tools.yaml", "title: CI tools", "title: CI tooling");
    const before = writes();
    const refused = await run("apply", "c4", "--reviewed", "pb.json", "--applied", "c2", "--commit", "c4c4c4c", "--result", "r4.json"); // prettier-ignore
    expect(refused.code).toBe(1);
    const message = refused.stderr.trim();
    expect(message.split("\n")).toHaveLength(1);
    expect(message).toContain(
      "the merged commit holds changes merged since the last applied commit (c2c2c2c) that the plan reviewed on the pull request did not show (1 object: project/trusted-firmware-a): nothing was applied",
    );
    const command = "phctl plan c4 --target project/ci-tools --target project/trusted-firmware-a --out plan.json, then phctl apply plan.json"; // prettier-ignore
    expect(message).toContain(command);
    expect(writes()).toBe(before);
    expect(record().commit).toBe("c2c2c2c");
    expect(JSON.parse(readFileSync(join(dir, "r4.json"), "utf8"))).toMatchObject({ status: "refused" }); // prettier-ignore

    // The command it names applies them.
    const [plan, apply] = command.split(", then ").map((c) => c.split(" ").slice(1));
    expect((await run(...plan)).code).toBe(0);
    const done = await run(...apply);
    expect(done.code, done.stderr).toBe(0);
    expect((await project("trusted-firmware-a")).name).toBe("TF-A");
    expect((await project("ci-tools")).name).toBe("CI tooling");
    expect(existsSync(join(dir, "plan.json"))).toBe(true);
  });

  it("refuses --applied without --reviewed and --commit with --target", async () => {
    const a = await run("apply", "c4", "--applied", "c2", "--auto-approve");
    expect(a.code).toBe(1);
    expect(a.stderr).toContain("--applied goes with --reviewed");
    const c = await run("apply", "c4", "--target", "project/ci-tools", "--commit", "c4c4c4c");
    expect(c.code).toBe(1);
    expect(c.stderr).toContain("--commit records the whole commit as applied");
    expect((await run("plan", "c4", "--applied", "c2")).stderr).toContain(
      "--applied goes with --base",
    );
  });
});
