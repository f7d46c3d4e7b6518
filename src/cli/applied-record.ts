/**
 * The applied record, `applied.json` beside the apply journal: the last commit whose apply
 * carried out everything merged up to it (`apply --commit SHA` writes it when the apply
 * ends with everything done). CI keeps it with the journal; the pull-request plan job checks
 * that commit out and passes it as `plan --applied DIR`, so that changes merged since and
 * never applied are shown ("merged but not applied"), and the apply after merge passes it as
 * `apply --applied DIR`, so that it never records a commit whose earlier changes it left out.
 * phctl never runs git: the CI job checks commits out and names them.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeAtomically } from "../fs/write-atomically.js";

/** What the record holds. */
export interface AppliedRecord {
  formatVersion: 1;
  /** The commit applied (as CI named it). */
  commit: string;
  /** When its apply ended. */
  at: string;
  /** The plan hash of what that apply carried out. */
  planHash: string;
  /** The service it was applied to. */
  apiUrl: string;
}

/** The record beside a journal file. */
export const appliedRecordFileOf = (journalFile: string): string =>
  join(dirname(journalFile), "applied.json");

/** The record of `apiUrl` in `file`, if there is a readable one (another service's is none). */
export function readAppliedRecord(file: string, apiUrl: string): AppliedRecord | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const data = JSON.parse(readFileSync(file, "utf8")) as Partial<AppliedRecord>;
    if (data.formatVersion !== 1 || typeof data.commit !== "string") return undefined;
    if (data.apiUrl !== apiUrl) return undefined;
    return data as AppliedRecord;
  } catch {
    return undefined;
  }
}

/** Write the record (whole or not at all). */
export function writeAppliedRecord(file: string, r: Omit<AppliedRecord, "formatVersion">): void {
  const record: AppliedRecord = { formatVersion: 1, ...r };
  writeAtomically(file, `${JSON.stringify(record, null, 2)}\n`);
}
