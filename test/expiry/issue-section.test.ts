/**
 * The drift issue's section on access that expires (src/drift/expiry-section.ts, in the body
 * issueBody writes): expired grants still live (due for removal), expired ones already gone,
 * and the ones that end soon, each with its date and manifest line.
 */
import { describe, expect, it } from "vitest";
import { issueBody } from "../../src/drift/issue-body.js";
import { countsOf } from "../../src/drift/summary.js";
import type { Plan } from "../../src/engine/plan.js";
import { samplePlan } from "../fixtures/sample-plan.js";

const at = (line: number) => ({ file: "projects/ci-tools.yaml", line, column: 40 });

function body(expiring: Plan["expiring"]): string {
  const plan: Plan = { ...samplePlan(), ...(expiring ? { expiring } : {}) };
  return issueBody({
    key: "default",
    plan,
    counts: countsOf(plan),
    meta: { digest: "0".repeat(64), since: plan.createdAt },
    applyCommand: "phctl apply .",
    maxChars: 65_536,
    artifactHint: "the run's log",
  });
}

describe("the drift issue lists access that expires", () => {
  it("expired and due, expired and gone, and soon, each with its date and line", () => {
    const text = body([
      {
        key: "project/ci-tools/access/developers/user/lchen",
        kind: "ProjectAccess",
        what: "lchen on the developers of project ci-tools",
        expires: "2026-06-10",
        status: "expired",
        daysLeft: -1,
        source: at(15),
        due: true,
      },
      {
        key: "team/ci-operators/member/lchen",
        kind: "TeamMember",
        what: "lchen in team ci-operators",
        expires: "2026-06-01",
        status: "expired",
        daysLeft: -10,
        source: { file: "teams.yaml", line: 18, column: 44 },
        due: false,
      },
      {
        key: "project/ci-tools/access/admins/user/asmith",
        kind: "ProjectAccess",
        what: "asmith on the admins of project ci-tools",
        expires: "2026-06-20",
        status: "expiring",
        daysLeft: 9,
        source: at(13),
      },
    ]);
    expect(text).toContain(
      [
        "### Access that expires",
        "",
        "**Expired, due for removal** (1):",
        "- lchen on the developers of project ci-tools: expired on 2026-06-10 (`projects/ci-tools.yaml:15`)",
        "",
        "**Expired and removed: delete the manifest entry** (1):",
        "- lchen in team ci-operators: expired on 2026-06-01 (`teams.yaml:18`)",
        "",
        "**Expires soon** (1):",
        "- asmith on the admins of project ci-tools: expires on 2026-06-20 (`projects/ci-tools.yaml:13`)",
      ].join("\n"),
    );
    // Nothing that expires: no section.
    expect(body(undefined)).not.toContain("Access that expires");
  });
});
