/**
 * `report access --since previous.json`: what changed since an earlier review — access
 * granted and revoked (rows by principal, project, level and how held) and, per finding,
 * the rows that are new and those resolved. A row of a login finding (inactive, never
 * logged in) whose user's last login one of the two reviews could not read is neither: it
 * is "not checked", and its detail says why — a failed search resolves nothing. Pure: the
 * CLI reads the file; `parsePrevious` checks it is an access report of this format, with
 * one line naming the file otherwise (reports written before `count` could be null or
 * `notChecked` existed read the same).
 */
import { userError } from "../errors.js";
import { findingRowKey, LOGIN_FINDINGS, SEVERITY } from "./findings.js";
import type {
  AccessChanges,
  AccessReport,
  AccessRow,
  AccessUser,
  Finding,
  FindingRow,
} from "./types.js";
import { REPORT_FORMAT_VERSION } from "./types.js";

/** The part of an earlier report `--since` compares (`users`: whose last login it read). */
export type PreviousReview = Pick<AccessReport, "generatedAt" | "rows" | "findings"> & {
  users?: readonly Pick<AccessUser, "username" | "lastLogin">[];
};

/** An access row's identity across reviews: principal, project, level and how it is held. */
export const rowKey = (r: AccessRow) =>
  `${r.principalKind}|${r.principal}|${r.project}|${r.level}|${r.via.kind}|${r.via.team ?? ""}`;

/** The earlier report in `text` (the file `name`), or a one-line error naming it. */
export function parsePrevious(name: string, text: string): PreviousReview {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw userError(
      "BAD_SINCE",
      `--since ${name} is not JSON: give the output of phctl report access --format json`,
    );
  }
  const d = doc as Partial<AccessReport> | null;
  const ok =
    d !== null &&
    typeof d === "object" &&
    d.kind === "access" &&
    typeof d.generatedAt === "string" &&
    Array.isArray(d.rows) &&
    Array.isArray(d.findings) &&
    d.rows.every((r) => typeof r?.principal === "string" && typeof r?.project === "string") &&
    d.findings.every((f) => typeof f?.id === "string" && Array.isArray(f?.rows));
  if (!ok)
    throw userError(
      "BAD_SINCE",
      `--since ${name} is not an access report: give the output of phctl report access --format json`,
    );
  if (d.formatVersion !== REPORT_FORMAT_VERSION)
    throw userError(
      "BAD_SINCE",
      `--since ${name} has report format ${String(d.formatVersion)}; this phctl reads format ${REPORT_FORMAT_VERSION}`,
    );
  const users = Array.isArray(d.users)
    ? d.users.filter((u) => typeof u?.username === "string")
    : undefined;
  return {
    generatedAt: d.generatedAt!,
    rows: d.rows!,
    findings: d.findings!,
    ...(users ? { users } : {}),
  };
}

/** A finding's id, title and severity (today's: an older report's findings have none). */
const head = (f: Finding): Pick<Finding, "id" | "title" | "severity"> => {
  const severity = (SEVERITY as Partial<typeof SEVERITY>)[f.id] ?? f.severity;
  return { id: f.id, title: f.title, ...(severity ? { severity } : {}) };
};

/** Usernames whose last login a review could not read. */
const unknownUsers = (users: readonly Pick<AccessUser, "username" | "lastLogin">[] = []) =>
  new Set(users.filter((u) => u.lastLogin === undefined).map((u) => u.username));

/** A login finding's row as "not checked" (its detail says why), or undefined: compared. */
type Unchecked = (r: FindingRow) => FindingRow | undefined;

/**
 * Rows of `a`'s findings whose key `b` does not have, per finding (only findings with rows);
 * a row `unchecked` returns a row for is set aside in `notChecked` instead.
 */
function findingsMinus(
  a: readonly Finding[],
  b: readonly Finding[],
  unchecked: Unchecked,
  notChecked: Map<Finding["id"], Finding>,
): Finding[] {
  const other = new Map(b.map((f) => [f.id, new Set(f.rows.map((r) => findingRowKey(f.id, r)))]));
  return a.flatMap((f) => {
    const known = other.get(f.id) ?? new Set<string>();
    const rows: FindingRow[] = [];
    for (const r of f.rows.filter((x) => !known.has(findingRowKey(f.id, x)))) {
      const aside = LOGIN_FINDINGS.has(f.id) ? unchecked(r) : undefined;
      if (aside === undefined) {
        rows.push(r);
        continue;
      }
      const list = notChecked.get(f.id) ?? { ...head(f), count: 0, rows: [] };
      list.rows.push(aside);
      list.count = list.rows.length;
      notChecked.set(f.id, list);
    }
    return rows.length > 0 ? [{ ...head(f), count: rows.length, rows }] : [];
  });
}

/** What changed between an earlier review and this one. */
export function accessChanges(
  previous: PreviousReview,
  current: Pick<AccessReport, "rows" | "findings" | "users">,
): AccessChanges {
  const before = new Set(previous.rows.map(rowKey));
  const now = new Set(current.rows.map(rowKey));
  const day = previous.generatedAt.slice(0, 10);
  const unknownNow = unknownUsers(current.users);
  const unknownThen = unknownUsers(previous.users);
  const orgOf = new Map(current.users.map((u) => [u.username, u.organization]));
  // Why a user's last login is unknown now: their organization's search failed.
  const whyNow = (username: string) => {
    const org = orgOf.get(username);
    return org === undefined
      ? "the last login could not be read"
      : `the last-login search of organization ${org} failed`;
  };
  const notChecked = new Map<Finding["id"], Finding>();
  // Gone since: not resolved when this review could not read the user's last login.
  const resolvedFindings = findingsMinus(
    previous.findings,
    current.findings,
    (r) =>
      r.principal !== undefined && unknownNow.has(r.principal)
        ? { ...r, detail: `not checked: ${whyNow(r.principal)}; on ${day}: ${r.detail}` }
        : undefined,
    notChecked,
  );
  // Found now: not new when the earlier review could not read the user's last login.
  const newFindings = findingsMinus(
    current.findings,
    previous.findings,
    (r) =>
      r.principal !== undefined && unknownThen.has(r.principal)
        ? { ...r, detail: `not checked on ${day} (that review could not read the last login); now: ${r.detail}` } // prettier-ignore
        : undefined,
    notChecked,
  );
  return {
    previousGeneratedAt: previous.generatedAt,
    granted: current.rows.filter((r) => !before.has(rowKey(r))),
    revoked: previous.rows.filter((r) => !now.has(rowKey(r))),
    newFindings,
    resolvedFindings,
    notChecked: [...notChecked.values()],
  };
}
