/**
 * One proposal → what the platform is asked for: the branch (`phctl/access-review/<project>`),
 * the title, the body (each edit with its finding as the reason, and what reviewers decide),
 * the commit's files at their paths in the repository, and a digest of those files that the
 * body carries, so a second run can tell an open request that already proposes exactly this.
 */
import { createHash } from "node:crypto";
import type { CommitFile } from "../ci/pull-requests.js";
import type { Proposal } from "./files.js";

/** The access review's label: its monthly issue and its requests carry it. */
export const PROPOSE_LABEL = "phctl-access-review";
/** Branches `report access --propose` owns (and resets). */
export const BRANCH_PREFIX = "phctl/access-review/";
const MARKER = "phctl-propose";

export interface ProposedRequest {
  projects: string[];
  /** Users whose grant it removes (not asked to review it). */
  removed: string[];
  branch: string;
  title: string;
  body: string;
  message: string;
  files: CommitFile[];
  digest: string;
}

/**
 * A body without its digest: a request phctl withdraws carries it no more, so that a later
 * review never reads phctl's own closing as people declining the proposal.
 */
export function withoutDigest(body: string): string {
  return body.replace(
    new RegExp(`<!-- ${MARKER} [0-9a-f]{64} -->`),
    `<!-- ${MARKER} withdrawn -->`,
  );
}

/** The digest a body carries (undefined: not one phctl wrote). */
export function digestIn(body: string): string | undefined {
  return new RegExp(`<!-- ${MARKER} ([0-9a-f]{64}) -->`).exec(body)?.[1];
}

/** Characters of a body: GitHub takes 65,536 (GitLab more); room left for the platform. */
const BODY_BUDGET = 60_000;

/** The rows that fit in `room` characters, and a line saying how many more the commit has. */
function fit(rows: readonly string[], room: number): string[] {
  let used = 0;
  const out: string[] = [];
  for (const [i, r] of rows.entries()) {
    if (used + r.length + 1 > room - 80) {
      out.push("", `… and ${rows.length - i} more: the commit holds every change.`);
      return out;
    }
    used += r.length + 1;
    out.push(r);
  }
  return out;
}

const WORDS = {
  remove: "remove",
  declare: "keep (declare)",
  expired: "delete the ended entry",
} as const;

/**
 * `toRepoPath` turns a file as the config names it into its path in the repository.
 */
export function requestOf(p: Proposal, toRepoPath: (file: string) => string): ProposedRequest {
  const files = p.files.map((f) => ({ path: toRepoPath(f.file), content: f.after ?? null }));
  const digest = createHash("sha256").update(JSON.stringify(files)).digest("hex");
  const what =
    p.projects.length === 1 ? `project ${p.projects[0]}` : `projects ${p.projects.join(", ")}`;
  const rows = p.edits.map(
    (e) =>
      `| ${e.project} | ${e.team ? `team ${e.username}` : e.username} | ${e.level} | ${WORDS[e.action]} | ${e.reason.replace(/\|/g, "\\|")} |`,
  );
  const fileLine = `Files: ${files.map((f) => `\`${f.path}\``).join(", ")}`;
  const head = [
    `phctl's access review proposes ${p.edits.length} change${p.edits.length === 1 ? "" : "s"} to the access of ${what}.`,
    "",
    "| project | who | level | proposal | why |",
    "| --- | --- | --- | --- | --- |",
  ];
  const tail = [
    "",
    "Merge to carry it out: the apply after the merge makes the change. To decline, close it:",
    "an inactive user keeps their access, and access granted live only is removed by the next",
    "apply. A closed request is not opened again while it would propose the same; a change in",
    "the project's findings makes a new one.",
    ...(p.edits.some((e) => e.action === "expired")
      ? [
          "An ended grant counts as absent whether or not this merges: deleting its entry",
          "only keeps the manifests saying what is granted.",
        ]
      : []),
    "",
    "The branch is phctl's: the next review leaves this request alone while it proposes the",
    "same, and replaces the branch's commit when the proposal changes.",
    "",
    fileLine,
    "",
    `<!-- ${MARKER} ${digest} -->`,
  ];
  const body = [...head, ...fit(rows, BODY_BUDGET - [...head, ...tail].join("\n").length), ...tail].join("\n"); // prettier-ignore
  return {
    projects: p.projects,
    removed: [
      ...new Set(p.edits.filter((e) => e.action !== "declare" && !e.team).map((e) => e.username)),
    ],
    branch: `${BRANCH_PREFIX}${p.projects[0]}`,
    title: `Access review: ${what}`,
    body,
    message: `Access review: ${what}\n\nProposed by phctl report access --propose.`,
    files,
    digest,
  };
}
