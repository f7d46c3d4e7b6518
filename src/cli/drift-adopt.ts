/**
 * `phctl drift --adopt`: after the drift plan, write the live values of what drifted into
 * the manifest files, in place (src/adopt), so that a scheduled job can open a pull
 * request "accept live changes"; a plan of the adopted manifests shows no changes for the
 * adopted entries. Accepting live removes the declarations of objects deleted live and
 * adds to authoritative lists what live has. What cannot be adopted — a live object no
 * manifest declares — is listed with the export command that writes its declaration. A value
 * a Defaults layer gave goes into that layer only when it selects nothing else; otherwise
 * into the object's own document as an override, and the report says which layer and how
 * many other objects it gives the value to (src/adopt/layers.ts).
 * Report: lines on stderr for people; with `json`, one JSON line on stdout instead.
 *
 * Adoption never removes a declaration it cannot prove was deleted live, nor reverts a change
 * merged and not applied yet (src/adopt/evidence.ts). Its proof: the apply journal of this
 * service, and `--applied DIR`, the config of the last commit an apply carried out, planned
 * against the same live reads. It holds the apply lock while it reads and writes: an apply
 * running beside it creates what adoption would otherwise read as deleted live.
 */
import { adopt, splitByFile, type AdoptEvidence, type NotAdoptable } from "../adopt/index.js";
import { acquireLock, type Lock } from "../engine/lock.js";
import { userError } from "../errors.js";
import { loadManifests } from "../pipeline/load.js";
import { appliedRecordFileOf, readAppliedRecord } from "./applied-record.js";
import { journalFileOf, journalOf } from "./run-journal.js";
import { absentLive } from "../adopt/place-common.js";
import { writeAdopted } from "../adopt/write.js";
import type { Plan, PlanEntry } from "../engine/plan.js";
import type { DesiredState } from "../manifest/types.js";
import { plural } from "../render/style.js";
import { escapeHiddenLines } from "../visible.js";

export interface AdoptStepResult {
  /** Keys of the entries whose live values the manifests now declare. */
  adopted: string[];
  /** Files written or deleted (relative to the working directory). */
  files: string[];
  notAdoptable: NotAdoptable[];
}

function describe(e: PlanEntry, file: string): string {
  if (absentLive(e)) return `${e.key}: removed, gone live (${file})`;
  if (e.action === "delete") return `${e.key}: added, live has it (${file})`;
  const fields = [...new Set(e.changes.map((c) => c.field))].join(", ");
  return `${e.key}: ${fields} as live has ${e.changes.length === 1 ? "it" : "them"} (${file})`;
}

/** What `drift --adopt` holds and knows before it reads live state. */
export interface AdoptPrep {
  /** Given to makePlan: takes the lock and loads the applied config (planned alongside). */
  alongside(state: DesiredState): Promise<DesiredState | undefined>;
  /** The evidence, once the plans are made (`applied`: the applied config's plan). */
  evidence(run: { state: DesiredState; plan: Plan }, applied: Plan | undefined): AdoptEvidence;
  release(): void;
}

/**
 * Prepare `drift --adopt`: the apply lock of the config's journal (refused, naming the
 * holder, while an apply runs) and the applied config of `--applied DIR`.
 */
export function prepareAdopt(o: { applied?: string; journal?: string }): AdoptPrep {
  let lock: Lock | undefined;
  let journalFile = "";
  return {
    async alongside(state) {
      journalFile = journalFileOf(o.journal, state);
      lock = acquireLock(journalFile, `phctl drift --adopt (pid ${process.pid})`);
      if (o.applied === undefined) return undefined;
      const loaded = await loadManifests([o.applied]);
      if (!loaded.state || loaded.files.length === 0)
        throw userError(
          "BAD_FLAG",
          `--applied ${o.applied}: ${loaded.files.length === 0 ? "no manifest files there" : "the applied config does not load (run phctl validate on it)"}; give the checkout of the last applied commit's config, or leave --applied out (then no declaration of an object absent live is removed)`,
        );
      return loaded.state;
    },
    evidence(run, applied) {
      const apiUrl = run.plan.apiUrl;
      const journal = journalOf(journalFile, apiUrl);
      const record = readAppliedRecord(appliedRecordFileOf(journalFile), apiUrl);
      const hint =
        o.applied !== undefined
          ? undefined
          : `to adopt deletions made live, pass --applied DIR, a checkout of the last applied commit's config${record ? ` (${record.commit.slice(0, 12)}, as ${appliedRecordFileOf(journalFile)} records)` : ""}`;
      return {
        ...(applied ? { applied } : {}),
        ...(journal ? { journalDone: journal.done } : {}),
        ...(hint ? { hint } : {}),
      };
    },
    release: () => lock?.release(),
  };
}

/** Adopt the drift of `run` into its manifest files, report it, and say what was done. */
export async function adoptStep(
  run: { plan: Plan; state: DesiredState; files: string[] },
  o: { json: boolean; cwd?: string; evidence?: AdoptEvidence },
): Promise<AdoptStepResult> {
  const cwd = o.cwd ?? process.cwd();
  const result = adopt({
    plan: run.plan,
    state: run.state,
    files: run.files,
    cwd,
    ...(o.evidence ? { evidence: o.evidence } : {}),
  });
  const outcome = writeAdopted(result.files, cwd);
  const refused = new Map(outcome.refused.map((r) => [r.file, r.why]));
  const split = splitByFile(result.adopted, result.fileOf, refused);
  const adopted = split.adopted;
  const notAdoptable = [...result.notAdoptable, ...split.refused];
  const files = [...outcome.written, ...outcome.deleted].sort();
  const keys = [...new Set(adopted.map((e) => e.key))];
  // Without the applied config, a change merged and not applied yet looks like drift.
  const unproven =
    o.evidence && !o.evidence.applied && adopted.some((e) => !absentLive(e))
      ? "adopted as drift without --applied: a change merged and not applied yet would read as drift too (check the diff before it is merged, or pass --applied DIR)"
      : undefined;
  if (o.json) {
    const layers = result.layers.filter((l) => keys.includes(l.key));
    const line = {
      adopt: {
        adopted: keys,
        files,
        deleted: outcome.deleted,
        notAdoptable,
        ...(unproven ? { note: unproven } : {}),
        // Only with layers: what a layer gave, and where adoption wrote it.
        ...(layers.length > 0 ? { layers } : {}),
      },
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  } else {
    const say = (s: string) => process.stderr.write(`phctl: adopt: ${escapeHiddenLines(s)}\n`);
    for (const e of adopted) say(describe(e, result.fileOf.get(e) ?? ""));
    // A value a Defaults layer gave: into the layer (it selects nothing else), or an override.
    for (const l of result.layers) if (keys.includes(l.key)) say(l.message);
    for (const f of outcome.deleted) say(`deleted ${f}: none of its declarations exists live`);
    for (const n of notAdoptable)
      say(`not adopted: ${n.key} (${n.kind}): ${n.why}${n.command ? ` — ${n.command}` : ""}`);
    if (unproven) say(unproven);
    const left = notAdoptable.length > 0 ? `; ${notAdoptable.length} not adopted (above)` : "";
    say(
      keys.length === 0
        ? `nothing adopted${left}`
        : `${plural(keys.length, "entry", "entries")} adopted in ${plural(files.length, "file")}: a plan of the adopted manifests shows no changes for them${left}`,
    );
  }
  return { adopted: keys, files, notAdoptable };
}
