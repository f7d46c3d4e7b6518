/**
 * The monthly access-review issue (`phctl report publish --issue`): one issue per key and
 * month, kept through re-runs, a closed review left closed, earlier months left alone, two
 * runs at once, a create that got no answer — in memory (keepMonthlyIssue) and through the
 * real GitHub client against the fake GitHub reached by GITHUB_API_URL (publishAccessIssue).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Issue, IssueApi, IssueEdit } from "../../src/ci/issues.js";
import { keepMonthlyIssue, monthlyMarker, type MonthlyIssueInput } from "../../src/ci/monthly-issue.js"; // prettier-ignore
import { CiHttpError } from "../../src/ci/retry.js";
import { accessReviewTitle, fitBody, publishAccessIssue, type ReportMarkdown } from "../../src/cli/report-publish.js"; // prettier-ignore
import { renderReportMarkdown } from "../../src/render/report-markdown.js";
import { registerEnvironmentSecrets } from "../../src/secrets.js";
import { GITHUB_TOKENS, startFakeGitHub, type FakeGitHub } from "../helpers/fake-github.js";
import { githubSchedule } from "../helpers/ci-env.js";
import { accessFixture } from "../helpers/report-fixture.js";

function memory() {
  const issues: Issue[] = [];
  const hooks: { beforeCreate?: (() => void) | undefined; lose?: "landed" | "lost" | undefined } =
    {};
  const copy = (i: Issue) => ({ ...i, labels: [...i.labels] });
  const add = (i: Omit<Issue, "number">) => (issues.push({ ...i, number: 101 + issues.length }), issues.at(-1)!); // prettier-ignore
  const api: IssueApi = {
    platform: "Test",
    listIssues: async (label) => issues.filter((i) => i.labels.includes(label)).map(copy),
    createIssue: async ({ title, body, label }) => {
      const before = hooks.beforeCreate;
      hooks.beforeCreate = undefined;
      before?.();
      const lose = hooks.lose;
      hooks.lose = undefined;
      if (lose === "lost") throw new CiHttpError(undefined, "no answer", true);
      const i = add({ title, body, state: "open", labels: [label] });
      if (lose === "landed") throw new CiHttpError(502, "Bad Gateway", true);
      return copy(i);
    },
    editIssue: async (n: number, e: IssueEdit) => {
      const i = issues.find((x) => x.number === n)!;
      Object.assign(i, e.title !== undefined ? { title: e.title } : {}, e.body !== undefined ? { body: e.body } : {}, e.state ? { state: e.state } : {}); // prettier-ignore
      return copy(i);
    },
    commentIssue: async () => ({ id: 1, body: "" }),
  };
  return { api, issues, hooks, add };
}

const input = (month: string, body = "findings", key = "default"): MonthlyIssueInput => ({
  kind: "access-review",
  key,
  month,
  title: accessReviewTitle(month, key),
  body,
  label: "phctl-access-review",
});

describe("the monthly issue", () => {
  it("opens one per month, updates it on a re-run the same month, opens the next month's apart", async () => {
    const m = memory();
    expect((await keepMonthlyIssue(m.api, input("2026-06", "first"))).action).toBe("opened");
    const again = await keepMonthlyIssue(m.api, input("2026-06", "second"));
    expect(again.action).toBe("updated");
    expect(m.issues.map((i) => [i.title, i.state])).toEqual([["Access review 2026-06", "open"]]);
    expect(m.issues[0].body).toBe(`${monthlyMarker("access-review", "default", "2026-06")}\nsecond`); // prettier-ignore
    expect((await keepMonthlyIssue(m.api, input("2026-07", "july"))).action).toBe("opened");
    expect(m.issues.map((i) => [i.title, i.state, i.body.split("\n")[1]])).toEqual([
      ["Access review 2026-06", "open", "second"],
      ["Access review 2026-07", "open", "july"],
    ]);
  });

  it("a review closed by its reviewers stays closed when the month's run comes again", async () => {
    const m = memory();
    await keepMonthlyIssue(m.api, input("2026-06"));
    m.issues[0].state = "closed";
    const r = await keepMonthlyIssue(m.api, input("2026-06", "rerun"));
    expect(r.action).toBe("updated");
    expect(m.issues).toHaveLength(1);
    expect(m.issues[0].state).toBe("closed");
  });

  it("keys apart: one issue per key and month; others' issues left alone", async () => {
    const m = memory();
    m.add({ title: "Access review 2026-06", body: "written by hand", state: "open", labels: ["phctl-access-review"] }); // prettier-ignore
    await keepMonthlyIssue(m.api, input("2026-06", "a", "infra/prod"));
    await keepMonthlyIssue(m.api, input("2026-06", "b", "infra/staging"));
    expect(m.issues.map((i) => i.title)).toEqual(["Access review 2026-06", "Access review 2026-06 (infra/prod)", "Access review 2026-06 (infra/staging)"]); // prettier-ignore
    expect(m.issues[0].body).toBe("written by hand");
  });

  it("two runs at once: the older issue stays, the newer is closed as its duplicate", async () => {
    const m = memory();
    m.hooks.beforeCreate = () =>
      void m.add({ title: "x", body: `${monthlyMarker("access-review", "default", "2026-06")}\nother run`, state: "open", labels: ["phctl-access-review"] }); // prettier-ignore
    const r = await keepMonthlyIssue(m.api, input("2026-06"));
    expect(r.issue.number).toBe(101);
    expect(r.duplicates).toEqual([102]);
    expect(m.issues.map((i) => i.state)).toEqual(["open", "closed"]);
    expect(m.issues[1].body).toContain("duplicate of #101");
  });

  it("a create that got no answer but landed is not sent twice; one that was lost is", async () => {
    const landed = memory();
    landed.hooks.lose = "landed";
    const r = await keepMonthlyIssue(landed.api, input("2026-06"));
    expect([r.recovered, landed.issues.length]).toEqual([true, 1]);
    const lost = memory();
    lost.hooks.lose = "lost";
    const r2 = await keepMonthlyIssue(lost.api, input("2026-06"));
    expect([r2.recovered, lost.issues.length]).toEqual([false, 1]);
  });

  it("a body over the limit is cut between whole lines and says where the rest is", () => {
    const md = Array.from({ length: 100 }, (_, i) => `| row ${i} |`).join("\n");
    const cut = fitBody(md, 300, "in the run's artifacts");
    expect(cut.length).toBeLessThanOrEqual(300);
    expect(cut).toMatch(/\| row \d+ \|\n\n_Cut to fit the issue: the whole review is in the run's artifacts\._\n$/); // prettier-ignore
    expect(fitBody("short", 300, "x")).toBe("short");
  });
});

describe("the access-review issue on the fake GitHub", () => {
  let gh: FakeGitHub;
  const REPO = "acme/infra";
  beforeAll(async () => void (gh = await startFakeGitHub()));
  afterAll(async () => gh.close());
  const env = (token: string = GITHUB_TOKENS.write) =>
    githubSchedule({ apiUrl: gh.url, repo: REPO, token, runId: 77 });
  const markdown: ReportMarkdown = renderReportMarkdown;

  it("keeps one issue for the month through two runs, labelled, with the findings and no token", async () => {
    registerEnvironmentSecrets(env());
    const report = accessFixture();
    report.users[0].username = `leaks-${GITHUB_TOKENS.write}`; // a token in the data must not get through
    const first = await publishAccessIssue({ platform: "github", key: "default", report, markdown, env: env() }); // prettier-ignore
    expect(first).toMatch(/^opened access-review issue #\d+ for 2026-06 \(https:\/\/github\.example\/acme\/infra\/issues\/\d+\)$/); // prettier-ignore
    const second = await publishAccessIssue({ platform: "github", key: "default", report, markdown, env: env() }); // prettier-ignore
    expect(second).toMatch(/^updated access-review issue #\d+ for 2026-06/);
    const issues = gh.issues.list(REPO);
    expect(issues.map((i) => [i.title, i.state, i.labels])).toEqual([["Access review 2026-06", "open", ["phctl-access-review"]]]); // prettier-ignore
    expect(issues[0].body.startsWith("<!-- phctl:access-review key=default month=2026-06 -->\n")).toBe(true); // prettier-ignore
    for (const f of report.findings) expect(issues[0].body).toContain(f.title);
    expect(issues[0].body).toMatch(/leaks-(\\?\*){3} /); // masked (and escaped as markdown)
    expect(issues[0].body).not.toMatch(/fakeWriteToken/);
    expect(issues[0].body).not.toContain(GITHUB_TOKENS.write);
  });

  it("a token that may not write issues: one line with what to do", async () => {
    await expect(
      publishAccessIssue({
        platform: "github",
        key: "other",
        report: accessFixture(),
        markdown,
        env: env(GITHUB_TOKENS.read),
      }),
    ).rejects.toThrow(
      // prettier-ignore
      /cannot keep the access-review issue on GitHub: 403 Resource not accessible by integration — give the job .*issues: write/,
    );
  });
});
