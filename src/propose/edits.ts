/**
 * Which findings of an access review become manifest edits (`report access --propose`), as
 * plain data: one edit per project × level × user. Only what an edit of a project's manifest
 * can settle is proposed; every other row is listed with why, never dropped silently.
 *
 * - inactive-with-write: each write or admin grant the user holds directly and the manifests
 *   declare is removed (a grant held through a team is the team's to change);
 * - live-only-access: each grant held directly on a project the manifests declare is
 *   declared, so the project's owners decide — merge to keep it, close and the next apply
 *   removes it (a project no manifest declares is not the config's yet).
 */
import type { AccessReport, AccessRow, FindingId } from "../report/types.js";

export type EditAction = "remove" | "declare";

export interface ProposedEdit {
  action: EditAction;
  project: string;
  level: string;
  username: string;
  finding: FindingId;
  /** Why, for people: the finding's own words. */
  reason: string;
}

export interface NotProposed {
  finding: FindingId;
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
  for (const r of report.rows) {
    if (r.declared) continue;
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
  const order = (e: ProposedEdit) => `${e.project}\u0000${e.level}\u0000${e.username}`;
  edits.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  return { edits, notProposed };
}
