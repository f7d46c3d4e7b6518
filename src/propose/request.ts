/**
 * One proposal → what the platform is asked for: the branch (`phctl/access-review/<project>`),
 * the title, the body (each edit with its finding as the reason, and what reviewers decide),
 * the commit's files at their paths in the repository, and a digest of those files that the
 * body carries, so a second run can tell an open request that already proposes exactly this.
 */
import { createHash } from "node:crypto";
import type { CommitFile } from "../ci/pull-requests.js";
import type { Proposal } from "./files.js";

export const PROPOSE_LABEL = "phctl-access-review";
const MARKER = "phctl-propose";

export interface ProposedRequest {
  projects: string[];
  branch: string;
  title: string;
  body: string;
  message: string;
  files: CommitFile[];
  digest: string;
}

/** The digest a body carries (undefined: not one phctl wrote). */
export function digestIn(body: string): string | undefined {
  return new RegExp(`<!-- ${MARKER} ([0-9a-f]{64}) -->`).exec(body)?.[1];
}

const WORDS = {
  remove: "remove",
  declare: "keep (declare)",
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
      `| ${e.project} | ${e.username} | ${e.level} | ${WORDS[e.action]} | ${e.reason.replace(/\|/g, "\\|")} |`,
  );
  const body = [
    `phctl's access review proposes ${p.edits.length} change${p.edits.length === 1 ? "" : "s"} to the access of ${what}.`,
    "",
    "| project | user | level | proposal | why |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
    "Merge to carry it out (the apply after merge makes the change). Close to decline: an",
    "inactive user keeps their access, and access granted live only is removed by the next apply.",
    "Edit the branch to change the proposal; the next review leaves an open request alone while it proposes the same.",
    "",
    `Files: ${files.map((f) => `\`${f.path}\``).join(", ")}`,
    "",
    `<!-- ${MARKER} ${digest} -->`,
  ].join("\n");
  return {
    projects: p.projects,
    branch: `phctl/access-review/${p.projects[0]}`,
    title: `Access review: ${what}`,
    body,
    message: `Access review: ${what}\n\nProposed by phctl report access --propose.`,
    files,
    digest,
  };
}
