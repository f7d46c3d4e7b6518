/**
 * What the adopt tests share: the examples applied once to a reference server whose SQLite
 * file is kept, a fresh server from a copy of that file per case (converged, in a few tens
 * of milliseconds), a fresh copy of the examples per case, and the in-process drift → adopt
 * → plan round trip (`phctl drift --adopt` does the same with adoptStep).
 */
import {
  copyFileSync,
  cpSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { adopt, type AdoptResult } from "../../src/adopt/index.js";
import { writeAdopted, type WriteOutcome } from "../../src/adopt/write.js";
import { ApiClient } from "../../src/api/client.js";
import type { Plan } from "../../src/engine/plan.js";
import { runPlan } from "../../src/engine/run-plan.js";
import { loadManifests } from "../../src/pipeline/load.js";
import type { DesiredState } from "../../src/manifest/types.js";
import { populate } from "../helpers/populate.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";

/**
 * The examples as they were before they used Defaults layers (test/fixtures/examples-flat):
 * these tests are about adopting into objects' own documents; adopting into layers has tests
 * of its own.
 */
export const EXAMPLES = resolve(import.meta.dirname, "../fixtures/examples-flat");

export const client = (t: TestServer) =>
  new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });

/**
 * Defaults layers over the flat examples, for adopting what layers give: list entries given
 * to every project or team (some of which an object also gives itself), and one project's
 * layer that adoption may edit because it selects nothing else.
 */
export const LAYERS = `apiVersion: phctl/v1
kind: Defaults
metadata:
  name: every-project
spec:
  select: { kind: Project }
  values:
    licenses: [MIT] # ci-tools lists it too
    access:
      reporters: [lchen]
---
apiVersion: phctl/v1
kind: Defaults
metadata:
  name: tf-a-only
spec:
  select: { kind: Project, names: [trusted-firmware-a] }
  values:
    externalContribution: true
    access:
      developers: { users: [asmith] }
---
apiVersion: phctl/v1
kind: Defaults
metadata:
  name: every-team
spec:
  select: { kind: Team }
  values:
    members: [bwong] # ci-operators lists bwong too
`;

/** A working directory with a fresh copy of the examples under `examples/` (with LAYERS). */
export function workdir(layers = false): string {
  const dir = mkdtempSync(join(tmpdir(), "phctl-adopt-"));
  cpSync(EXAMPLES, join(dir, "examples"), { recursive: true });
  if (layers) writeFileSync(join(dir, "examples", "defaults.yaml"), LAYERS);
  return dir;
}

/** Load the examples of `dir` as the CLI does from there. */
export async function load(dir: string): Promise<{ state: DesiredState; files: string[] }> {
  const r = await loadManifests(["examples"], { cwd: dir });
  if (!r.state)
    throw new Error(JSON.stringify(r.diagnostics.filter((d) => d.severity === "error")));
  return { state: r.state, files: r.files };
}

/** The examples applied to a server whose database file is returned (the server is closed). */
export async function convergedDatabase(layers = false): Promise<string> {
  const dir = workdir(layers);
  const db = join(dir, "converged.sqlite");
  const t = await startServer({ db });
  const api = client(t);
  try {
    await populate(api, (await load(dir)).state);
    const check = await runPlan({ api, state: (await load(dir)).state, apiUrl: t.url });
    if (check.entries.length > 0) throw new Error("the examples did not converge");
  } finally {
    await api.close();
    await t.close();
  }
  return db;
}

/** A server on a copy of `db`. */
export async function serverFrom(db: string): Promise<TestServer> {
  const copy = join(mkdtempSync(join(tmpdir(), "phctl-adopt-db-")), "live.sqlite");
  copyFileSync(db, copy);
  return startServer({ db: copy });
}

export interface RoundTrip {
  drift: Plan;
  result: AdoptResult;
  written: WriteOutcome;
  /** The plan of the adopted manifests. */
  after: Plan;
}

/**
 * Plan the examples of `dir`, adopt the drift, write it, and plan again. Adoption's evidence
 * is the plan of the config applied, as `drift --adopt --applied DIR` gives it: `applied`,
 * else the config of `dir` (the fixture applied it).
 */
export async function driftAdoptPlan(
  t: TestServer,
  dir: string,
  applied?: DesiredState,
): Promise<RoundTrip> {
  const api = client(t);
  try {
    const before = await load(dir);
    const drift = await runPlan({ api, state: before.state, apiUrl: t.url });
    const was = applied
      ? await runPlan({ api, state: applied, apiUrl: t.url, checkReferences: false })
      : drift;
    const result = adopt({
      plan: drift,
      state: before.state,
      files: before.files,
      cwd: dir,
      evidence: { applied: was },
    });
    const written = writeAdopted(result.files, dir);
    const after = await runPlan({ api, state: (await load(dir)).state, apiUrl: t.url });
    return { drift, result, written, after };
  } finally {
    await api.close();
  }
}

/** Every manifest file under `root`, by path relative to it. */
export function readTree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(f)) out.set(relative(root, p), readFileSync(p, "utf8"));
    }
  };
  walk(root);
  return out;
}

/** Every comment (`#…` to the end of its line) of a YAML text. */
export const comments = (text: string): string[] =>
  text.split("\n").flatMap((l) => {
    const m = /(^|\s)(#.*)$/.exec(l);
    return m ? [m[2].trim()] : [];
  });

/** A plan's entries, one line each, for readable failures. */
export const entryLines = (plan: Plan) =>
  plan.entries.map((e) => `${e.action} ${e.key} ${JSON.stringify(e.changes)}`);
