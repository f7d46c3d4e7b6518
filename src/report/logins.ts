/**
 * The last logins as read: what each organization's identity-provider search answered, and
 * which searches failed. A user's last login is known when a search that answered lists
 * them; "never" (null) when their own organization's search answered without them; and
 * unknown (undefined) when it failed and no other search listed them — never "never" and
 * never a date, so the login findings can say "unknown" instead of 0. Pure.
 */

/** One organization's last-login search that failed, and why (its error's one line). */
export interface LoginFailure {
  organization: string;
  error: string;
}

/** What the last-login searches gave. */
export interface LoginsRead {
  /** Last login per username (null: never), from the searches that answered. */
  seen: ReadonlyMap<string, string | null>;
  /** The searches that failed, by organization. */
  failed: readonly LoginFailure[];
}

/** A user as this needs them. */
interface Who {
  username: string;
  organization: string;
}

/**
 * The user's last login: when it was (ISO), null (never), or undefined (unknown: the search
 * that covers them failed and no other listed them).
 */
export function lastLoginOf(logins: LoginsRead, u: Who): string | null | undefined {
  const at = logins.seen.get(u.username);
  if (at !== undefined) return at;
  return logins.failed.some((f) => f.organization === u.organization) ? undefined : null;
}

/**
 * The failed searches that leave some user's last login unknown (a customer organization's
 * search may fail while the parent's, which lists every user, answered: nothing is unknown).
 */
export function failuresThatMatter(logins: LoginsRead, users: readonly Who[]): LoginFailure[] {
  return logins.failed.filter((f) =>
    users.some((u) => u.organization === f.organization && !logins.seen.has(u.username)),
  );
}

const list = (names: readonly string[]) =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;

/**
 * "the last-login search of organization acme failed (503 …)", one line for all: the
 * organizations whose searches failed alike are named together.
 */
export function loginFailureWords(failed: readonly LoginFailure[]): string {
  if (failed.length === 0) return "the last logins could not be read";
  const byError = new Map<string, string[]>();
  for (const f of failed) byError.set(f.error, [...(byError.get(f.error) ?? []), f.organization]);
  return [...byError]
    .map(
      ([error, orgs]) =>
        `the last-login search of organization${orgs.length > 1 ? "s" : ""} ${list(orgs)} failed (${error})`,
    )
    .join("; ");
}

/** What to do about it, for people (the report and the CLI's stderr line say it). */
export const LOGIN_RETRY_ADVICE =
  "run the report again once the identity provider answers; until then the findings that need last logins (inactive, never logged in) are unknown, not 0";
