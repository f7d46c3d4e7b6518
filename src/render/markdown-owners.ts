/**
 * The pull-request comment's "Owners to approve" (with `plan --base`): the objects the change
 * touches, grouped by the owners whose approval they need (`plan.owners`, src/owners), each
 * group one line — the owners' handles (a mention, so they are asked), then the objects and
 * the files their changes are written in. Cut between whole groups within its budget.
 */
import type { OwnerApproval, Plan } from "../engine/plan.js";
import { codeSpan, keySpan, mdText } from "./markdown-escape.js";
import { EMPTY_PART, listPart, moreTail, type Part } from "./markdown-lists.js";

/** A handle as a mention when it is one (`@login`, `@group/team`), else plain text. */
const mention = (h: string) => (/^@[A-Za-z0-9._/-]+$/.test(h) ? h : mdText(h));

/** Who approves, in words: the handles, or the phctl names of owners without one. */
function whoText(a: OwnerApproval): string {
  // Handles are the users' then the teams'; teams have none when no group is known.
  const teamsHandled = a.handles.length === a.users.length + a.teams.length;
  const names = [
    ...a.handles.map(mention),
    ...(teamsHandled ? [] : a.teams.map((t) => `team ${codeSpan(t)}`)),
  ];
  return names.length > 0 ? names.join(", ") : "nobody (phctl.yaml names no owners.platform)";
}

const MAX_SHOWN = 5;

export function ownersPart(plan: Plan, artifact: string): Part {
  const approvals = plan.owners ?? [];
  if (approvals.length === 0) return EMPTY_PART;
  const groups = new Map<string, OwnerApproval[]>();
  for (const a of approvals) {
    const who = whoText(a);
    const got = groups.get(who);
    if (got) got.push(a);
    else groups.set(who, [a]);
  }
  const items = [...groups].map(([who, list]) => {
    const keys = list.map((a) => keySpan(a.key));
    const files = [...new Set(list.flatMap((a) => a.files))].sort();
    const more = (n: number) =>
      n > MAX_SHOWN ? `, …and ${(n - MAX_SHOWN).toLocaleString("en-US")} more` : "";
    const where =
      files.length > 0
        ? ` (${files
            .slice(0, MAX_SHOWN)
            .map((f) => codeSpan(f))
            .join(", ")}${more(files.length)})`
        : "";
    return {
      text: `- **${who}**: ${keys.slice(0, MAX_SHOWN).join(", ")}${more(keys.length)}${where}`,
      name: who,
    };
  });
  const n = approvals.length;
  return listPart(
    `#### Owners to approve — ${n.toLocaleString("en-US")} object${n === 1 ? "" : "s"}\n\nEach file's owners by the target branch's config (its CODEOWNERS).\n\n`,
    items,
    "\n",
    moreTail(artifact, "- "),
    0.2,
  );
}
