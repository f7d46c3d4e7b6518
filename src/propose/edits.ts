/**
 * Which findings of an access review become manifest edits (`report access --propose`), as
 * plain data: one edit per project × level × user. Only what an edit of a project's manifest
 * can settle is proposed; every other row is listed with why, never dropped silently.
 *
 * - inactive-with-write: each write or admin grant the user holds directly and the manifests
 *   declare is removed (a grant held through a team is the team's to change);
 * - live-only-access: each grant held directly on a project the manifests declare is
 *   declared, so the project's owners decide — merge to keep it, close and the next apply
 *   removes it (a project no manifest declares is not the config's yet); a grant whose
 *   `expires:` has passed is not declared again (it ended: see below);
 * - expired (expiredEdits): each user's or organization team's grant on a project whose
 *   `expires:` has passed (its own, or its user's) is deleted from the manifest: it counts as
 *   absent already, so the edit changes nothing live — the apply removes a grant still live
 *   either way — it only tidies what the manifests say.
 */
import type { ExpiringGrant } from "../expiry/index.js";
import type { AccessReport, AccessRow, FindingId } from "../report/types.js";

export type EditAction = "remove" | "declare" | "expired";

/** What an edit is proposed for: a finding of the review, or a grant that expired. */
export type EditCause = FindingId | "expired";

export interface ProposedEdit {
  action: EditAction;
  project: string;
  level: string;
  /** The user, or with `team` the organization team's path. */
  username: string;
  /** The grantee is an organization team. */
  team?: true;
  finding: EditCause;
  /** Why, for people: the finding's own words. */
  reason: string;
}

export interface NotProposed {
  finding: EditCause;
  principal: string;
  project?: string;
  why: string;
}

export interface AccessEdits {
  edits: ProposedEdit[];
  notProposed: NotProposed[];
}

const via = (r: AccessRow) =>
  r.via.kind === "userTeam"
    ? `user team ${r.via.team ?? ""}`.trim()
    : `organization team ${r.via.team ?? r.principal}`;

/** The edits an access review's findings call for, in a stable order (project, level, user). */
export function accessEdits(report: AccessReport): AccessEdits {
  const edits: ProposedEdit[] = [];
  const notProposed: NotProposed[] = [];
  const finding = (id: FindingId) => report.findings.find((f) => f.id === id);
  const seen = new Set<string>();
  const push = (e: ProposedEdit) => {
    const k = `${e.project}|${e.level}|${e.username}`;
    if (seen.has(k)) return;
    seen.add(k);
    edits.push(e);
  };

  const inactive = finding("inactive-with-write");
  const detailOf = new Map((inactive?.rows ?? []).map((r) => [r.principal ?? "", r.detail]));
  for (const r of report.rows) {
    if (r.principalKind !== "user" || r.grade === "read" || !detailOf.has(r.principal)) continue;
    if (r.via.kind !== "direct")
      notProposed.push({
        finding: "inactive-with-write",
        principal: r.principal,
        project: r.project,
        why: `held through ${via(r)}: change the team`,
      });
    else if (!r.declared)
      notProposed.push({
        finding: "inactive-with-write",
        principal: r.principal,
        project: r.project,
        why: "granted live only: the next apply removes it",
      });
    else
      push({
        action: "remove",
        project: r.project,
        level: r.level,
        username: r.principal,
        finding: "inactive-with-write",
        reason: `inactive: ${detailOf.get(r.principal) ?? ""}`,
      });
  }

  const declared = new Set(report.projects.filter((p) => p.declared).map((p) => p.project));
  const today = report.generatedAt.slice(0, 10);
  for (const r of report.rows) {
    // A grant whose date passed is not declared: expiredEdits deletes its entry instead.
    if (r.declared || (r.expires !== undefined && r.expires < today)) continue;
    const skip = (why: string) =>
      notProposed.push({
        finding: "live-only-access",
        principal: r.principal,
        project: r.project,
        why,
      });
    if (r.principalKind !== "user") skip("an organization team: declare it by hand");
    else if (r.via.kind !== "direct") skip(`held through ${via(r)}`);
    else if (!declared.has(r.project))
      skip("the project is not in the config (phctl export adds it)");
    // An inactive user's write granted live only: said once, above (the next apply removes it).
    else if (r.grade !== "read" && detailOf.has(r.principal)) continue;
    else
      push({
        action: "declare",
        project: r.project,
        level: r.level,
        username: r.principal,
        finding: "live-only-access",
        reason:
          "granted live, absent from the manifests: merge to keep it, close to have the next apply remove it",
      });
  }
  return { edits: sorted(edits), notProposed };
}

const editOrder = (e: ProposedEdit) =>
  `${e.project}\u0000${e.level}\u0000${e.team ? 1 : 0}\u0000${e.username}`;

/** Edits in a stable order: project, level, users before teams, name. */
export function sorted(edits: ProposedEdit[]): ProposedEdit[] {
  return edits.sort((a, b) =>
    editOrder(a) < editOrder(b) ? -1 : editOrder(a) > editOrder(b) ? 1 : 0,
  );
}

const PROJECT_GRANT = /^project\/([^/]+)\/access\/([^/]+)\/(user|team)\/(.+)$/;
const MEMBERSHIP = /^team\/([^/]+)\/member\/(.+)$/;

/**
 * The expired grants on projects (the load's `expiringOf`, status "expired") as edits that
 * delete their manifest entries. A team membership that expired is listed as not proposed
 * (requests are per project); a user's or service account's own date leaves nothing to
 * delete (accounts are made inactive, never deleted).
 */
export function expiredEdits(expiring: readonly ExpiringGrant[]): AccessEdits {
  const edits: ProposedEdit[] = [];
  const notProposed: NotProposed[] = [];
  for (const g of expiring) {
    if (g.status !== "expired") continue;
    const m = PROJECT_GRANT.exec(g.key);
    if (m) {
      const ended = g.viaUser
        ? `user ${g.viaUser.slice("user/".length)}'s access ended on ${g.expires}`
        : `expired on ${g.expires}`;
      edits.push({
        action: "expired",
        project: m[1],
        level: m[2],
        username: m[4],
        ...(m[3] === "team" ? { team: true as const } : {}),
        finding: "expired",
        reason: `${ended} (${g.source.file}:${g.source.line}): it counts as absent already; merge to delete the entry`,
      });
      continue;
    }
    const member = MEMBERSHIP.exec(g.key);
    if (member)
      notProposed.push({
        finding: "expired",
        principal: member[2],
        why: `membership of team ${member[1]} expired on ${g.expires}: delete it at ${g.source.file}:${g.source.line}`,
      });
  }
  return { edits: sorted(edits), notProposed };
}
