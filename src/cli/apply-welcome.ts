/**
 * `phctl apply --welcome-sent USERNAME`: a person settles a welcome mail the journal holds as
 * unknown (its answer was lost: the service may or may not have sent it) — she checked the
 * user's inbox, and sent it by hand if it never arrived. The journal records it done at once,
 * before anything is planned, so that no later plan names it, whether this apply changes
 * anything or not. A mail still owed may be settled the same way (sent by hand).
 */
import { userError } from "../errors.js";
import { nodeId } from "../engine/graph.js";
import { Journal, type JournalData } from "../engine/journal.js";
import { welcomeKey } from "../kinds/welcome.js";

/**
 * Record the welcome mails of `usernames` as sent in the journal `file` (of `previous`); the
 * journal as it is then. Throws a one-line error, before anything is written, when one of
 * them is neither unknown nor owed there.
 */
export function settleWelcomes(
  file: string,
  previous: JournalData | undefined,
  usernames: readonly string[],
  note: (s: string) => void,
): JournalData | undefined {
  if (usernames.length === 0) return previous;
  const open = [...(previous?.unknown ?? []), ...(previous?.owed ?? [])].filter(
    (e) => e.kind === "WelcomeMail",
  );
  const byKey = new Map(open.map((e) => [e.key, e]));
  const missing = usernames.filter((u) => !byKey.has(welcomeKey(u)));
  if (missing.length > 0 || !previous) {
    const unknown = (previous?.unknown ?? []).map((e) =>
      e.key.slice("user/".length, -"/welcome".length),
    );
    throw userError(
      "BAD_FLAG",
      `--welcome-sent ${missing.join(", ")}: ${previous ? `the journal ${file} holds no welcome mail of ${missing.length === 1 ? "this user" : "these users"} that is owed or may not have been sent` : `there is no journal of this service at ${file}`} (${unknown.length > 0 ? `in doubt: ${unknown.join(", ")}` : "none is in doubt"}); nothing was recorded — check the username and --journal`,
    );
  }
  const keys = [...new Set(usernames.map(welcomeKey))];
  const journal = new Journal(file, previous);
  journal.settle(keys.map((k) => nodeId(byKey.get(k)!)));
  note(
    `recorded the welcome mail of ${usernames.join(", ")} as sent (--welcome-sent) in ${file}: phctl neither sends nor names it again`,
  );
  return journal.data;
}
