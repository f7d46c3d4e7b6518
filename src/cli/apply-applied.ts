/**
 * `apply --reviewed PLAN --applied DIR --commit SHA` (CI after merge): the last applied
 * commit and the applied record (src/cli/applied-record.ts).
 *
 * - `--applied DIR`, the config of the last commit an apply carried out: the merged commit
 *   may hold changes merged since that were never applied (their apply was refused, failed
 *   or cancelled). The pull request's plan showed them ("merged but not applied") when it
 *   knew of them, and then they are in the reviewed plan and carried out with it. Those it
 *   did not show were never reviewed: the apply refuses, nothing sent, naming them and the
 *   command that applies them.
 * - `--commit SHA`: when the apply ends with everything done (applied, or nothing to do),
 *   SHA is recorded as applied beside the journal, for the next plan's and apply's --applied.
 */
import { userError } from "../errors.js";
import { appliedSince } from "../engine/applied-since.js";
import type { ChangeSide } from "../engine/change-touch.js";
import { declaredTopKeys } from "../engine/scope.js";
import { loadManifests } from "../pipeline/load.js";
import type { DesiredState } from "../manifest/types.js";
import { plural } from "../render/style.js";
import type { ApplyOutcome } from "../engine/apply-outcome.js";
import type { ApplyFlags } from "./apply-run.js";
import { appliedRecordFileOf, readAppliedRecord, writeAppliedRecord } from "./applied-record.js";
import type { ReviewedPlan } from "./reviewed-plan.js";
import type { SavedPlanRun } from "./saved-plan.js";

/** How many objects the command that applies them names one by one (then: everything). */
const NAMED_TARGETS = 8;

const shellWord = (s: string) => (/^[\w./+@=:-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

/** Refuse --applied and --commit where they mean nothing. */
export function checkAppliedFlags(o: ApplyFlags, saved: SavedPlanRun | undefined): void {
  if (o.applied !== undefined && o.reviewed === undefined)
    throw userError(
      "BAD_FLAG",
      "--applied goes with --reviewed (it checks what the merged commit holds beyond the reviewed plan)",
    );
  if (o.commit !== undefined && (saved || o.target.length > 0 || o.resume))
    throw userError(
      "BAD_FLAG",
      "--commit records the whole commit as applied: it goes with --reviewed or a full apply, not with a saved plan, --target or --resume",
    );
}

/** The command that reviews and applies `keys` by hand (all of the config past a few). */
export function applyCommand(paths: readonly string[], keys: readonly string[]): string {
  const config = paths.map(shellWord).join(" ");
  const targets =
    keys.length > 0 && keys.length <= NAMED_TARGETS
      ? keys.map((k) => ` --target ${shellWord(k)}`).join("")
      : "";
  return `phctl plan ${config}${targets} --out plan.json, then phctl apply plan.json`;
}

/**
 * With --applied: refuse when the merged commit holds changes since the applied commit that
 * the reviewed plan did not plan. Returns false when the applied config cannot be read
 * (said; the apply goes on, as without a record).
 */
export async function checkAppliedSince(x: {
  dir: string;
  paths: readonly string[];
  state: DesiredState;
  /** The merged config as a side of the change since the applied commit. */
  side: ChangeSide;
  reviewed: ReviewedPlan;
  journalFile: string;
  apiUrl: string;
  note: (s: string) => void;
}): Promise<boolean> {
  const loaded = await loadManifests([x.dir]);
  if (!loaded.state || loaded.files.length === 0) {
    x.note(
      `the applied config ${x.dir} does not load (${loaded.files.length === 0 ? "no manifest files" : "it has errors"}): changes merged earlier and never applied cannot be checked`,
    );
    return false;
  }
  const since = appliedSince({ ...loaded, state: loaded.state }, x.side, x.reviewed.plan);
  if (since.unreviewed.length === 0) return true;
  const record = readAppliedRecord(appliedRecordFileOf(x.journalFile), x.apiUrl);
  const at = record ? ` (${record.commit.slice(0, 12)})` : "";
  const shown = since.unreviewed.slice(0, 5).join(", ");
  // Everything since the applied commit (nothing was applied), by name when --target can
  // name it: an object no longer declared cannot be a target.
  const declared = declaredTopKeys(x.state);
  const named = since.settings.length === 0 && since.keys.every((k) => declared.has(k));
  const more = since.unreviewed.length > 5 ? ", …" : "";
  throw userError(
    "UNREVIEWED_MERGE",
    `the merged commit holds changes merged since the last applied commit${at} that the plan reviewed on the pull request did not show (${plural(since.unreviewed.length, "object")}: ${shown}${more}): nothing was applied — merged earlier, their apply was refused, failed or never ran, and they were never reviewed with this one; open a pull request (its plan shows them under "Merged but not applied" and its apply carries them), or review and apply them by hand: ${applyCommand(x.paths, named ? since.keys : [])}`,
    since.unreviewed,
  );
}

/** With --commit: record the commit as applied when the apply did everything it had to. */
export function recordApplied(x: {
  commit: string;
  result: ApplyOutcome;
  journalFile: string;
  apiUrl: string;
  /** False: no applied config was checked (no record yet, or it could not be read). */
  checked: boolean;
  note: (s: string) => void;
}): void {
  const { result } = x;
  if (!(result.status === "applied" || result.status === "no-changes") || result.failed > 0) return;
  if (process.exitCode !== undefined && process.exitCode !== 0) return;
  const file = appliedRecordFileOf(x.journalFile);
  writeAppliedRecord(file, {
    commit: x.commit,
    at: new Date().toISOString(),
    planHash: result.planHash,
    apiUrl: x.apiUrl,
  });
  x.note(
    x.checked
      ? `recorded ${x.commit.slice(0, 12)} as applied (${file})`
      : `recorded ${x.commit.slice(0, 12)} as applied (${file}); with no applied config to compare with (--applied), changes merged before it and never applied could not be checked — phctl drift shows any`,
  );
}
