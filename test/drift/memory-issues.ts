/**
 * Issues in memory for the tracking-issue tests (tracking-issue.ts, the expiry issue): every
 * call recorded, comments kept; `beforeCreate` runs inside a create (another run's work at the
 * same time), `failCreate` makes creates fail without an answer, after landing or not.
 */
import type { Issue, IssueApi, IssueEdit } from "../../src/ci/issues.js";
import { CiHttpError } from "../../src/ci/retry.js";

export function memoryIssues(o: { dropLabel?: boolean } = {}) {
  const issues: Issue[] = [];
  const comments: { n: number; body: string }[] = [];
  const calls: string[] = [];
  const hooks: { beforeCreate?: (() => void) | undefined; failCreate: ("landed" | "lost")[] } = { failCreate: [] }; // prettier-ignore
  const add = (i: Omit<Issue, "number">): Issue => {
    const issue = { ...i, number: 101 + issues.length };
    issues.push(issue);
    return issue;
  };
  const copy = (i: Issue) => ({ ...i, labels: [...i.labels] });
  const api: IssueApi = {
    platform: "Test",
    listIssues: async (label) => {
      calls.push("list");
      return issues.filter((i) => i.labels.includes(label)).map(copy);
    },
    createIssue: async ({ title, body, label }) => {
      calls.push("create");
      const before = hooks.beforeCreate;
      hooks.beforeCreate = undefined;
      before?.();
      const f = hooks.failCreate.shift();
      if (f === "lost") throw new CiHttpError(undefined, "no answer (UND_ERR_SOCKET)", true);
      const i = add({ title, body, state: "open", labels: o.dropLabel ? [] : [label] });
      if (f === "landed") throw new CiHttpError(502, "Bad Gateway", true);
      return copy(i);
    },
    editIssue: async (n: number, e: IssueEdit) => {
      calls.push(`edit ${n}${e.state ? ` ${e.state}` : ""}`);
      const i = issues.find((x) => x.number === n)!;
      if (e.title !== undefined) i.title = e.title;
      if (e.body !== undefined) i.body = e.body;
      if (e.state) i.state = e.state;
      return copy(i);
    },
    commentIssue: async (n, body) => {
      calls.push(`comment ${n}`);
      comments.push({ n, body });
      return { id: comments.length, body };
    },
  };
  return { api, issues, comments, calls, hooks, add };
}
