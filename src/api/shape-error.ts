/**
 * What a service's answer that does not fit looks like to people: a `Mismatch` names the
 * operation, the field (a JSON pointer), what phctl expected and what came — the value
 * shortened, and hidden when the field may hold a secret — and, where an API profile can
 * describe the difference, the profile setting and a value guessed from the answer.
 * `ResponseShapeError` is the run-stopping error built from them (exit 1, one line).
 */
import { PhctlError } from "../errors.js";
import type { OperationId } from "./routes.js";

/** Profile settings that describe a shape (the paths of profile-schema.ts). */
export type ProfileSetting =
  | "envelope.list.items"
  | "envelope.list.pagination"
  | "envelope.list.pageFields.page"
  | "envelope.list.pageFields.limit"
  | "envelope.list.pageFields.total"
  | "envelope.list.pageFields.totalPages"
  | "queue.id";

/** One way an answer does not fit what phctl reads. */
export interface Mismatch {
  /** The operation id (route table), or what is known of the operation. */
  readonly operation: OperationId | (string & {});
  /** JSON pointer into the answer (`/data/3/role`); "" is the whole answer. */
  readonly path: string;
  /** What phctl expected there (`an array`, `a string or null`, `one of open, completed`). */
  readonly expected: string;
  /** What came, for people: `nothing`, `null`, `42`, `"abc…"`, `an object (a, b)`. */
  readonly got: string;
  /** Field names of the object the missing field should have been in. */
  readonly had?: readonly string[];
  /** The profile setting that names this field, when a profile can describe it. */
  readonly setting?: ProfileSetting;
  /** A value for `setting` guessed from the answer (an array field, a string field…). */
  readonly suggestion?: string;
}

const SECRET_NAME = /token|secret|password|passwd|credential|key$/i;
const MAX = 80;

function shorten(s: string): string {
  return s.length > MAX ? `${s.slice(0, MAX - 1)}…` : s;
}

/** A value as a mismatch shows it: short, and never the value of a secret-looking field. */
export function describeValue(v: unknown, field?: string): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === "object") {
    const keys = Object.keys(v);
    return keys.length === 0 ? "an empty object" : shorten(`an object (${keys.join(", ")})`);
  }
  if (typeof v === "string") {
    if (field !== undefined && SECRET_NAME.test(field)) return "a string (not shown)";
    return shorten(JSON.stringify(v));
  }
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint")
    return shorten(String(v));
  return typeof v;
}

const WHAT: Record<ProfileSetting, string> = {
  "envelope.list.items": "the list",
  "envelope.list.pagination": "the pagination object",
  "envelope.list.pageFields.page": "the page field",
  "envelope.list.pageFields.limit": "the page-size field",
  "envelope.list.pageFields.total": "the item-count field",
  "envelope.list.pageFields.totalPages": "the page-count field",
  "queue.id": "the job id",
};

/**
 * The profile line that would fix a mismatch (`envelope.list.items: items`), or undefined
 * when no profile setting describes it (a record field phctl reads is missing).
 */
export function profileFixFor(m: Mismatch): string | undefined {
  if (!m.setting) return undefined;
  return `${m.setting}: ${m.suggestion ?? "<the service's name>"}`;
}

/** `/data expected an array, got nothing (the answer had: items, pagination)`. */
export function describeMismatch(m: Mismatch): string {
  const where = m.path === "" ? "the answer" : m.path;
  const had =
    m.had === undefined
      ? ""
      : ` (${m.path.split("/").length <= 2 ? "the answer" : "that object"} had: ${
          m.had.length ? shorten(m.had.join(", ")) : "no fields"
        })`;
  return `${where} expected ${m.expected}, got ${m.got}${had}`;
}

/** What to do about a mismatch, for the end of the error line. */
function advice(m: Mismatch, profileFile: string | undefined): string {
  if (m.setting) {
    const where = profileFile
      ? `in the API profile ${profileFile}`
      : "in an API profile (apiProfile: in phctl.yaml, or --api-profile FILE)";
    const value = m.suggestion ? `: ${m.suggestion}` : "";
    return `if the service names ${WHAT[m.setting]} differently, set ${m.setting}${value} ${where}`;
  }
  return "phctl reads this field and cannot go on without it (phctl api GET … shows the raw answer)";
}

/** A service's answer did not fit what phctl reads: nothing was planned or sent on it. */
export class ResponseShapeError extends PhctlError {
  readonly operation: Mismatch["operation"];
  readonly mismatches: readonly Mismatch[];

  constructor(mismatches: readonly Mismatch[], profileFile?: string) {
    const m = mismatches[0];
    const more = mismatches.length > 1 ? ` (and ${mismatches.length - 1} more)` : "";
    super(
      "RESPONSE_SHAPE",
      `the service's answer to ${m.operation} does not fit: ${describeMismatch(m)}${more}; ${advice(m, profileFile)}`,
      {
        details: mismatches.map((x) => {
          const fix = profileFixFor(x);
          return `${x.operation} ${describeMismatch(x)}${fix ? ` — profile: ${fix}` : ""}`;
        }),
      },
    );
    this.name = "ResponseShapeError";
    this.operation = m.operation;
    this.mismatches = mismatches;
  }
}
