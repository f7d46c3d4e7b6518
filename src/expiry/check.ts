/**
 * What validate says about grants that end: a date that does not exist is an error at its
 * line (as a policy exception's is); a grant that ends within `warnDays` days (phctl.yaml's
 * `expiry.warnDays`, 14 by default, its last day included) and one that has ended are
 * warnings, one per grant, naming who, what and the date.
 */
import { makeDiagnostic } from "../manifest/diagnostics.js";
import type { Diagnostic, GrantExpiry } from "../manifest/types.js";
import { daysLeft, expiryStatus, isDate } from "./date.js";
import { grantWords } from "./grants.js";

/** The document a grant is written in, as diagnostics name it (`Project p1`). */
function docOf(key: string): { kind: string; name: string } {
  const [top, name = ""] = key.split("/");
  return { kind: top === "project" ? "Project" : top === "team" ? "Team" : "User", name };
}

/** What plan does once it has ended. */
const REMOVAL: Record<GrantExpiry["kind"], string> = {
  ProjectAccess: "plan removes it",
  ProjectTeamAccess: "plan removes it",
  TeamMember: "plan removes it",
  UserService: "plan deactivates the account",
  User: "plan removes their access and makes the user inactive",
};

const inDays = (n: number) => (n === 0 ? "today" : n === 1 ? "tomorrow" : `in ${n} days`);

/** The diagnostics of the grants' dates, at `today` (YYYY-MM-DD, UTC). */
export function expiryDiagnostics(
  grants: ReadonlyMap<string, GrantExpiry>,
  today: string,
  warnDays: number,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const g of grants.values()) {
    if (!isDate(g.expires)) {
      out.push(
        makeDiagnostic(
          "error",
          "expires-date",
          g.source,
          `expires: ${g.expires} is not a date (${grantWords(g.key)})`,
          { ...docOf(g.key), hint: "write YYYY-MM-DD, a day that exists" },
        ),
      );
      continue;
    }
    const status = expiryStatus(g.expires, today, warnDays);
    if (status === "expired")
      out.push(
        makeDiagnostic(
          "warning",
          "grant-expired",
          g.source,
          `${grantWords(g.key)} expired on ${g.expires}: it counts as absent, ${REMOVAL[g.kind]}`,
          { ...docOf(g.key), hint: "remove the entry, or renew it with a later expires" },
        ),
      );
    else if (status === "expiring")
      out.push(
        makeDiagnostic(
          "warning",
          "grant-expiring",
          g.source,
          `${grantWords(g.key)} expires on ${g.expires} (${inDays(daysLeft(g.expires, today))})`,
          { ...docOf(g.key), hint: "renew it with a later expires, or let it end" },
        ),
      );
  }
  return out;
}
