/**
 * Where an apply's journal lives and what it tells the next run: `--journal` (relative to
 * the working directory), else `journal:` in phctl.yaml (relative to phctl.yaml's
 * directory), else `.phctl/journal.jsonl` beside phctl.yaml. CI keeps it between
 * runs (a cache or artifact) so that phctl knows the queued jobs and welcome mails of
 * earlier applies; without it, phctl says what it cannot know.
 */
import { dirname, join, resolve } from "node:path";
import { userError } from "../errors.js";
import { readJournal, type JournalData } from "../engine/journal.js";
import { NO_JOURNAL, type JournalFacts } from "../engine/read-context.js";
import { stateDirOf } from "../manifest/settings.js";
import type { DesiredState } from "../manifest/types.js";

export function journalFileOf(
  flag: string | undefined,
  state: DesiredState,
  cwd: string = process.cwd(),
): string {
  if (flag) return resolve(cwd, flag);
  const { journal, source } = state.config;
  if (journal) return resolve(cwd, source ? dirname(source.file) : ".", journal);
  return join(stateDirOf(state.config, cwd), "journal.jsonl");
}

/** The journal of `apiUrl` in `file`, if there is one (a journal of another service is none). */
export function journalOf(file: string, apiUrl: string): JournalData | undefined {
  const j = readJournal(file);
  return j && j.plan.apiUrl === apiUrl ? j : undefined;
}

/**
 * Refuse to start a journal over one of another service that still knows something: its
 * open jobs, owed welcome mails and welcome mails in doubt would be forgotten (and the
 * jobs' creates sent again).
 */
export function checkJournalFree(file: string, apiUrl: string): void {
  const j = readJournal(file);
  if (
    !j ||
    j.plan.apiUrl === apiUrl ||
    (j.inFlight.length === 0 && j.owed.length === 0 && j.unknown.length === 0)
  )
    return;
  const unknown =
    j.unknown.length > 0
      ? ` and ${j.unknown.length} welcome mails that may or may not have been sent`
      : "";
  throw userError(
    "JOURNAL_IN_USE",
    `${file} is the journal of ${j.plan.apiUrl}, which still has ${j.inFlight.length} open queued jobs and ${j.owed.length} owed welcome mails${unknown}: apply against ${apiUrl} with a journal of its own (--journal FILE), or finish that service's apply first`,
  );
}

/**
 * What a plan learns from a journal: the side effects it owes, those whose outcome is
 * unknown, and that it exists at all.
 */
export function factsOf(journal: JournalData | undefined): JournalFacts {
  if (!journal) return NO_JOURNAL;
  return {
    owed: new Set(journal.owed.map((e) => e.key)),
    unknown: new Set(journal.unknown.map((e) => e.key)),
    known: true,
    updatedAt: journal.updatedAt,
  };
}
