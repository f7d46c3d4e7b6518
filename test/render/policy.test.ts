/**
 * The policy verdict as the renderers show it: the text block and count line (plan, apply,
 * drift), the comment's verdict line, the violations right under the destructive block and
 * the exceptions a pull request adds or extends at the top; the markdown stays within its
 * limit with many violations.
 */
import { describe, expect, it } from "vitest";
import type { Plan, PolicyViolation } from "../../src/engine/plan.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { renderText } from "../../src/render/text.js";
import { samplePlan } from "../fixtures/sample-plan.js";
import { expectGolden } from "../helpers/golden.js";

const violations: PolicyViolation[] = [
  {
    policy: "naming",
    rule: "lowercase",
    enforcement: "warn",
    scope: "object",
    key: "user/Alice",
    kind: "User",
    source: { file: "users.yaml", line: 3, column: 3 },
    message: "user names are lowercase",
    exception: {
      policy: "naming",
      key: "user/Alice",
      reason: "migration from the old directory",
      expires: "2026-12-01",
      approvedBy: "bob",
      status: "expiring",
    },
  },
  {
    policy: "archive-first",
    rule: "archived-before-delete",
    enforcement: "deny",
    scope: "change",
    action: "delete",
    key: "project/tf-a/repo/old",
    kind: "Repository",
    source: { file: "projects/tf-a.yaml", line: 40, column: 5 },
    message: "repository old is deleted without being archived first",
  },
  {
    policy: "no-admin-bots",
    rule: "service-accounts-are-not-admins",
    enforcement: "deny",
    scope: "live",
    managed: false,
    key: "user/ci-bot",
    kind: "User",
    source: null,
    message: "ci-bot is a service account and an admin of project tf-a",
  },
];

function withPolicy(): Plan {
  return {
    ...samplePlan(),
    violations,
    policyExceptions: {
      added: [
        {
          policy: "two-admins",
          key: "project/legacy-*",
          reason: "legacy projects are being wound down",
          expires: "2027-01-31",
          approvedBy: "carol",
          source: { file: "policies/admins.yaml", line: 20 },
        },
      ],
      extended: [],
    },
  };
}

describe("policy results in the renderers", () => {
  it("text: every violation, denials first, counted, after the summary (golden)", () => {
    const text = renderText(withPolicy());
    expectGolden("plan/policy.txt", text);
    const deny = text.indexOf("deny  project/tf-a/repo/old (delete)  projects/tf-a.yaml:40");
    expect(deny).toBeGreaterThan(0);
    expect(text.indexOf("excepted  user/Alice")).toBeGreaterThan(deny);
    expect(text).toContain(
      "excepted until 2026-12-01 (migration from the old directory; approved by bob) — expires within 14 days",
    );
    expect(text).toContain("deny  user/ci-bot (live, not managed)");
    // After the summary, so that a plan still starts with its actions (or "No changes.").
    expect(text.indexOf("Policy violations (2 denied, 0 warnings, 1 excepted):")).toBeGreaterThan(
      text.indexOf("Plan: 1 to create"),
    );
  });

  it("text: nothing about policies when the plan breaks no rule", () => {
    expect(renderText(samplePlan())).not.toMatch(/polic/i);
  });

  it("markdown: the verdict counts, the exceptions at the top, violations under the destructive block (golden)", () => {
    const md = renderMarkdown(withPolicy());
    expectGolden("plan/policy.md", md);
    const verdict = md.split("\n")[0];
    expect(verdict).toContain(
      "· policy: 2 denied, 0 warnings, 1 excepted · adds 1 policy exception · acme · plan",
    );
    const callout = md.indexOf("**This pull request adds 1 policy exception**");
    const destructive = md.indexOf("#### Destructive changes");
    const policy = md.indexOf("#### Policy violations — 2 denied, 0 warnings, 1 excepted");
    const table = md.indexOf("| project | kind |");
    expect(callout).toBeGreaterThan(0);
    expect(callout).toBeLessThan(destructive);
    expect(destructive).toBeLessThan(policy);
    expect(policy).toBeLessThan(table);
    expect(md).toContain("`two-admins` for `project/legacy-*` until 2027-01-31, approved by carol");
  });

  it("markdown: an extended exception says its former end", () => {
    const plan = withPolicy();
    plan.policyExceptions = {
      added: [],
      extended: [{ ...plan.policyExceptions!.added[0], previousExpires: "2026-12-31" }],
    };
    const md = renderMarkdown(plan, { request: "merge request" });
    expect(md.split("\n")[0]).toContain("· extends 1 policy exception ·");
    expect(md).toContain("**This merge request extends 1 policy exception**");
    expect(md).toContain("until 2027-01-31 (was 2026-12-31)");
  });

  it("markdown: thousands of violations stay within the limit, counted and pointed to", () => {
    const many: PolicyViolation[] = [];
    for (let i = 0; i < 5000; i++)
      many.push({ ...violations[1], key: `project/p${i}/repo/r`, message: "x ".repeat(60) });
    const md = renderMarkdown({ ...samplePlan(), violations: many }, { maxChars: 20_000 });
    expect(md.length).toBeLessThanOrEqual(20_000);
    expect(md).toContain("#### Policy violations — 5,000 denied, 0 warnings");
    expect(md).toMatch(/…and [\d,]+ more/);
  });
});
