/**
 * The Project kind's rules beyond the generic diff: which status moves the API has (archive
 * and restore; `inactive` can be neither reached nor left), the blocked and create entries
 * that follow from them, and the support-ticket text of visibility, organization and eccn
 * changes, written the way a person would ask.
 */
import { changedFields, createEntry, defaultTicket, sourceRef } from "../engine/diff.js";
import type { PlanEntry } from "../engine/plan.js";
import type { ProjectState } from "../manifest/types.js";
import type { DesiredObject, LiveObject } from "./kind.js";

type Status = ProjectState["status"];

/** The managed fields; the optional ones are managed only when declared. */
export type ProjectFields = {
  title: string;
  description: string;
  organization?: string;
  visibility: ProjectState["visibility"];
  status: Status;
  /** Absent only on undeclared projects (the slim list has no such field). */
  externalContribution?: boolean;
  restrictionLevel?: string;
  eccn?: string;
};

/** The slug of a `project/<slug>` key. */
export const slugOf = (key: string): string => key.slice("project/".length);

/** Why the status cannot move from `have` to `want` through the API (undefined: it can). */
export function unreachableStatus(want: Status, have: Status): string | undefined {
  if (want === have) return undefined;
  if (want === "inactive")
    return "status: a project cannot be made inactive through the API (only archive and restore exist)";
  if (have === "inactive" && want === "active")
    return "status: an inactive project cannot be reactivated through the API (restore applies to archived projects only)";
  return undefined;
}

/** A status move the API does not have: blocked (other differences wait for it). */
export function blockedStatus(
  d: DesiredObject<ProjectFields>,
  l: LiveObject<ProjectFields>,
  why: string,
): PlanEntry {
  const others = changedFields(d.fields, l.fields).filter((c) => c.field !== "status");
  const reason =
    others.length === 0
      ? why
      : `${why}; also differing, planned once status is resolved: ${others.map((c) => c.field).join(", ")}`;
  return {
    key: d.key,
    kind: "Project",
    action: "blocked",
    before: { status: l.fields.status },
    after: { status: d.fields.status },
    changes: [{ field: "status", before: l.fields.status, after: d.fields.status }],
    reason,
    source: sourceRef(d),
    dependsOn: [],
    destructive: false,
    blocked: { field: "status", reason },
  };
}

/** A new project declared inactive: created (active), with a warning saying why it stays so. */
export function createInactive(d: DesiredObject<ProjectFields>): PlanEntry {
  return {
    ...createEntry("Project", d),
    warnings: [
      "status inactive cannot be set through the API: the project is created active and its status stays blocked",
    ],
  };
}

const quote = (v: unknown): string =>
  v === null || v === undefined || v === ""
    ? "not set"
    : typeof v === "string"
      ? v
      : JSON.stringify(v);

/** A support request a person would write: what, why, which project, which manifest line. */
export function projectTicket(entry: PlanEntry): { subject: string; body: string } {
  const c = entry.changes[0];
  if (!c) return defaultTicket(entry);
  const slug = slugOf(entry.key);
  const asks: Record<string, [string, string]> = {
    visibility: [
      `Change the visibility of project ${slug} to ${quote(c.after)}`,
      `Please change the visibility of project "${slug}" from ${quote(c.before)} to ${quote(c.after)}.`,
    ],
    organization: [
      `Move project ${slug} to organization ${quote(c.after)}`,
      `Please move project "${slug}" from organization ${quote(c.before)} to organization ${quote(c.after)}.`,
    ],
    eccn: [
      `Set the ECCN of project ${slug} to ${quote(c.after)}`,
      `Please set the export control classification number (ECCN) of project "${slug}" to ${quote(c.after)} (currently ${quote(c.before)}).`,
    ],
  };
  const ask = asks[c.field];
  if (!ask) return defaultTicket(entry);
  const where = entry.source ? `${entry.source.file}:${entry.source.line}` : "the manifests";
  return {
    subject: ask[0],
    body: [
      "Hello,",
      "",
      ask[1],
      "",
      `Why a ticket: ${entry.reason}.`,
      `Project: ${slug} (phctl key ${entry.key})`,
      `Requested by: ${where}, which declares ${c.field}: ${quote(c.after)}`,
      "The project is managed as code with phctl; apply will not attempt this change and will show it as pending until it is done.",
      "",
      "Thank you.",
    ].join("\n"),
  };
}
