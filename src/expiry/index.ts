/**
 * Access that expires (README "Access that expires"): `expires: YYYY-MM-DD` on an access
 * entry, a team membership, a service account or a user, the last day it counts (UTC). The
 * load runs `expiryPass` (dates checked, warnings) and `applyExpiry` (the expired grants taken
 * out of the desired state); plan, drift and reports read `expiringOf` and `grantExpiries`.
 * This room sits above src/manifest and below src/pipeline, src/engine and src/cli.
 */
import type { ValidDoc } from "../manifest/check.js";
import type { Diagnostic, DesiredState, GrantExpiry, ManifestConfig } from "../manifest/types.js";
import { expiryDiagnostics } from "./check.js";
import { todayOf } from "./date.js";
import { grantsOf, grantWords } from "./grants.js";

export { applyExpiry } from "./apply.js";
export { daysLeft, endOf, expiryStatus, isDate, isExpired, todayOf } from "./date.js";
export { grantsOf, grantWords } from "./grants.js";

/** The window of validate's warnings when phctl.yaml says none. */
export const DEFAULT_WARN_DAYS = 14;

/** The grants of the documents and what validate says of their dates. */
export function expiryPass(
  docs: readonly ValidDoc[],
  config: ManifestConfig,
  now: Date,
): { grants: Map<string, GrantExpiry>; diagnostics: Diagnostic[]; today: string } {
  const today = todayOf(now);
  const grants = grantsOf(docs);
  if (grants.size === 0) return { grants, diagnostics: [], today };
  const warnDays = config.expiry?.warnDays ?? DEFAULT_WARN_DAYS;
  return { grants, diagnostics: expiryDiagnostics(grants, today, warnDays), today };
}

/** One grant that has ended or ends soon, as plan and drift JSON carry it (`expiring`). */
export interface ExpiringGrant {
  key: string;
  kind: GrantExpiry["kind"];
  /** Who has what, in words. */
  what: string;
  expires: string;
  status: "expired" | "expiring";
  /** Days from today to the last day (0: today; negative: ended). */
  daysLeft: number;
  source: { file: string; line: number; column: number };
  /** A grant that ends with its user's `expires`: the user's key. */
  viaUser?: string;
  /** Expired: whether the plan still removes it live (set by the engine, which knows). */
  due?: boolean;
}

/**
 * The grants that have ended or end within phctl.yaml's `expiry.warnDays` of the load's today
 * (applyExpiry marked them), by date then key; `keep`: only those keys (a scoped plan's).
 */
export function expiringOf(
  state: Pick<DesiredState, "expiries" | "config">,
  keep: (key: string) => boolean = () => true,
): ExpiringGrant[] {
  if (!state.expiries) return [];
  const warnDays = state.config.expiry?.warnDays ?? DEFAULT_WARN_DAYS;
  const out: ExpiringGrant[] = [];
  for (const g of state.expiries.values()) {
    if (g.daysLeft === undefined || Number.isNaN(g.daysLeft) || !keep(g.key)) continue;
    const status = g.expired ? "expired" : g.daysLeft <= warnDays ? "expiring" : undefined;
    if (status === undefined) continue;
    const e: ExpiringGrant = {
      key: g.key,
      kind: g.kind,
      what: grantWords(g.key),
      expires: g.expires,
      status,
      daysLeft: g.daysLeft,
      source: { file: g.source.file, line: g.source.line, column: g.source.column },
    };
    if (g.viaUser !== undefined) e.viaUser = g.viaUser;
    out.push(e);
  }
  return out.sort((a, b) =>
    a.expires !== b.expires ? (a.expires < b.expires ? -1 : 1) : a.key < b.key ? -1 : 1,
  );
}

/**
 * For the access review (src/report): the last day of every grant that has one, by project
 * (slug) and principal (`user/NAME` or `team/PATH`: each level it holds with a date), of
 * every team membership (team → member → date) and of every user (their own `expires`).
 * Expired grants are included: the report can tell them from `todayOf` and `isExpired`.
 */
export function grantExpiries(state: Pick<DesiredState, "expiries">): {
  projects: Map<string, Map<string, { level: string; expires: string }[]>>;
  teams: Map<string, Map<string, string>>;
  users: Map<string, string>;
} {
  const projects = new Map<string, Map<string, { level: string; expires: string }[]>>();
  const teams = new Map<string, Map<string, string>>();
  const users = new Map<string, string>();
  for (const g of state.expiries?.values() ?? []) {
    let m = /^project\/([^/]+)\/access\/([^/]+)\/(user|team)\/(.+)$/.exec(g.key);
    if (m) {
      const byWho = projects.get(m[1]) ?? new Map<string, { level: string; expires: string }[]>();
      projects.set(m[1], byWho);
      const who = `${m[3]}/${m[4]}`;
      byWho.set(who, [...(byWho.get(who) ?? []), { level: m[2], expires: g.expires }]);
      continue;
    }
    m = /^team\/([^/]+)\/member\/(.+)$/.exec(g.key);
    if (m) {
      const members = teams.get(m[1]) ?? new Map<string, string>();
      teams.set(m[1], members);
      members.set(m[2], g.expires);
      continue;
    }
    if (g.kind === "User") users.set(g.key.slice("user/".length), g.expires);
  }
  return { projects, teams, users };
}
