/**
 * Proposed edits → the manifest files they change, by the same machinery as `drift --adopt`
 * (src/adopt): each edit is a plan entry whose "live" side is what the review proposes — a
 * grant to remove reads as declared and absent live, a grant to declare as live and not
 * declared — so the edit lands in the right file and the right layer (a layer's list entry
 * becomes an override in the project's own file), every untouched line stays as it was, and
 * the whole config is loaded again and checked before anything is proposed. Projects whose
 * edits share a file are proposed together. Nothing is written here.
 */
import { adopt, type AdoptedFile } from "../adopt/index.js";
import { PLAN_FORMAT_VERSION, summarize, type Plan, type PlanEntry } from "../engine/plan.js";
import type { DesiredState } from "../manifest/types.js";
import type { ProposedEdit } from "./edits.js";

export interface Proposal {
  /** The projects it changes, sorted. */
  projects: string[];
  edits: ProposedEdit[];
  files: AdoptedFile[];
}

export interface ProposalFiles {
  proposals: Proposal[];
  /** Edits that could not be written in place, with why (the file, the layer). */
  notWritten: { edit: ProposedEdit; why: string }[];
}

const accessKey = (e: ProposedEdit) =>
  `project/${e.project}/access/${e.level}/${e.team ? "team" : "user"}/${e.username}`;

/** Whether the edit deletes a declared grant (the inactive user's, or one that expired). */
const deletes = (e: ProposedEdit) => e.action !== "declare";

function entryOf(e: ProposedEdit): PlanEntry {
  const fields = e.team
    ? { project: e.project, level: e.level, team: e.username }
    : { project: e.project, level: e.level, username: e.username };
  const remove = deletes(e);
  return {
    key: accessKey(e),
    kind: e.team ? "ProjectTeamAccess" : "ProjectAccess",
    // Removing a declared grant: "declared, absent live"; declaring one: "live, undeclared".
    action: remove ? "create" : "delete",
    before: remove ? null : fields,
    after: remove ? fields : null,
    changes: [],
    reason: e.reason,
    source: null,
    dependsOn: [],
    destructive: !remove,
  };
}

/** Group keys that share a file into one proposal (union-find over projects). */
function groups(fileProjects: Map<string, Set<string>>): Map<string, string> {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    const p = parent.get(x) ?? x;
    if (p === x) return x;
    const r = find(p);
    parent.set(x, r);
    return r;
  };
  for (const projects of fileProjects.values()) {
    const [first, ...rest] = [...projects].sort();
    if (first === undefined) continue;
    if (!parent.has(first)) parent.set(first, first);
    for (const p of rest) {
      if (!parent.has(p)) parent.set(p, p);
      const a = find(first);
      const b = find(p);
      if (a !== b) parent.set(a < b ? b : a, a < b ? a : b);
    }
  }
  const out = new Map<string, string>();
  for (const p of parent.keys()) out.set(p, find(p));
  return out;
}

/** The files each group of projects' edits changes, computed as `drift --adopt` would. */
export function proposalFiles(
  edits: readonly ProposedEdit[],
  input: { state: DesiredState; files: readonly string[]; cwd?: string },
): ProposalFiles {
  const notWritten: ProposalFiles["notWritten"] = [];
  if (edits.length === 0) return { proposals: [], notWritten };
  const byKey = new Map(edits.map((e) => [accessKey(e), e]));
  const entries = edits.map(entryOf);
  const plan: Plan = {
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: new Date(0).toISOString(),
    apiUrl: "",
    organization: input.state.config.organization ?? "",
    entries,
    unmanaged: [],
    warnings: [],
    violations: [],
    summary: summarize(entries, 0),
    stats: { objectsRead: 0, apiCalls: 0, durationMs: 0 },
    fingerprints: {},
  };
  // The review read the grant live, or the manifests say it ended: the evidence adoption
  // asks for before it deletes a declaration.
  const journalDone = edits.filter(deletes).map((e) => `create ${accessKey(e)}`);
  const result = adopt({
    plan,
    state: input.state,
    files: input.files,
    ...(input.cwd !== undefined ? { cwd: input.cwd } : {}),
    evidence: { journalDone },
  });
  for (const n of result.notAdoptable) {
    const edit = byKey.get(n.key);
    if (edit) notWritten.push({ edit, why: n.why });
  }
  // Which projects' edits each changed file carries.
  const fileProjects = new Map<string, Set<string>>();
  for (const e of result.adopted) {
    const file = result.fileOf.get(e);
    const edit = byKey.get(e.key);
    if (file === undefined || !edit) continue;
    const set = fileProjects.get(file) ?? new Set<string>();
    set.add(edit.project);
    fileProjects.set(file, set);
  }
  const root = groups(fileProjects);
  const byRoot = new Map<string, Proposal>();
  const proposalOf = (project: string) => {
    const r = root.get(project) ?? project;
    let p = byRoot.get(r);
    if (!p) byRoot.set(r, (p = { projects: [], edits: [], files: [] }));
    return p;
  };
  const adopted = new Set(result.adopted.map((e) => e.key));
  for (const e of edits) {
    if (!adopted.has(accessKey(e))) continue;
    const p = proposalOf(e.project);
    p.edits.push(e);
    if (!p.projects.includes(e.project)) p.projects.push(e.project);
  }
  for (const f of result.files) {
    const projects = fileProjects.get(f.file);
    const first = projects ? [...projects][0] : undefined;
    if (first !== undefined) proposalOf(first).files.push(f);
  }
  const proposals = [...byRoot.values()].filter((p) => p.files.length > 0);
  for (const p of proposals) {
    p.projects.sort();
    p.files.sort((a, b) => (a.file < b.file ? -1 : 1));
  }
  proposals.sort((a, b) => (a.projects[0] < b.projects[0] ? -1 : 1));
  return { proposals, notWritten };
}
