/**
 * What the comment's counts and words say (issue 27, items 6 and 7): every count adds up
 * and says what it includes; drift is told as what happened live and what apply will do;
 * GitLab reads "merge request"; long texts are cut between words with a pointer, and a
 * blocked entry names its field once.
 */
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/render/markdown.js";
import { samplePlan } from "../fixtures/sample-plan.js";
import { codeBlockLines, entry, html, plan } from "./markdown-plans.js";

const num = (s: string | undefined) => Number((s ?? "0").replace(/,/g, ""));
const VERDICT =
  /^### phctl plan: ([\d,]+) changes? — ([\d,]+) to apply(?: \(([\d,]+) destructive\))?, ([\d,]+) tickets?, ([\d,]+) blocked · /m;

/** 9 changes: 8 to apply (3 destructive), 1 ticket. */
const nine = () => {
  const entries = [
    ...["a", "b", "c"].map((n) => entry(`project/x/repo/${n}`, "create")),
    ...["d", "e"].map((n) =>
      entry(`project/x/repo/${n}`, "update", {
        changes: [{ field: "description", before: "o", after: "n" }],
      }),
    ),
    ...["f", "g", "h"].map((n) => entry(`project/y/repo/${n}`, "delete")),
    entry("project/z", "ticket", {
      kind: "Project",
      changes: [{ field: "visibility", before: "private", after: "public" }],
      ticket: { subject: "Change the visibility of z", body: "Please." },
    }),
  ];
  return plan(entries);
};

describe("counts add up and say what they include", () => {
  it("the verdict splits the changes into what apply sends, tickets and blocked", () => {
    const md = renderMarkdown(nine());
    const v = VERDICT.exec(md)!;
    expect(v).not.toBeNull();
    expect(num(v[1])).toBe(9);
    expect(num(v[2]) + num(v[4]) + num(v[5])).toBe(9);
    expect(num(v[3])).toBe(3);
  });

  it("the section of changes counts what apply sends, like the verdict, and its bullets add up", () => {
    const md = renderMarkdown(nine());
    const head = /^#### Changes to apply — ([\d,]+)$/m.exec(md);
    expect(head?.[1]).toBe(VERDICT.exec(md)![2]);
    const section = md.slice(head!.index, md.indexOf("\n#### ", head!.index + 1));
    const bullets = [...section.matchAll(/^- \*\*\w+\*\* ([\d,]+)/gm)].map((m) => num(m[1]));
    expect(bullets.reduce((a, b) => a + b, 0)).toBe(8);
  });

  it("with --base, the two sections say how they overlap, and add up to what apply sends", () => {
    const mixed = entry("project/a", "update", {
      kind: "Project",
      changes: [
        { field: "description", before: "o", after: "n" },
        { field: "title", before: "T", after: "U" },
      ],
      driftFields: ["title"],
    });
    const drifted = entry("project/b/repo/r", "update", {
      changes: [{ field: "issueTracking", before: "disabled", after: "enabled" }],
    });
    const mine = entry("project/a/repo/new", "create");
    const entries = [mixed, drifted, mine];
    const md = renderMarkdown(plan(entries, { drift: [drifted.key] }));
    expect(md).toContain("#### Changes in this pull request — 2 of the 3 to apply");
    expect(md).toContain(
      "#### Drift already present (apply will also revert it) — 2 of the 3 to apply (1 also changed in this pull request)",
    );
  });

  it("a group's details count its entries, and the parts add up to that count", () => {
    const md = renderMarkdown(nine());
    expect(html(md)).toContain(
      "<summary>project <code>x</code> — 5 changes: 3 to create, 2 to update</summary>",
    );
    expect(md).toMatch(/^#### Details — 9 changes in 3 groups$/m);
  });
});

describe("drift said as what happened live and what apply will do", () => {
  const granted = entry("project/tf-a/access/developers/user/asmith", "delete", {
    kind: "ProjectAccess",
    before: { level: "developers", username: "asmith" },
  });
  const repo = entry("project/tf-a/repo/scratch", "delete");

  it("an access granted live: who got it, at which level, and that apply removes it", () => {
    const md = renderMarkdown(plan([granted, repo]), { mode: "drift" });
    expect(md).toContain(
      "- `project/tf-a/access/developers/user/asmith` — granted live to asmith (developers) · apply will remove it · `projects/p.yaml:1`",
    );
    expect(md).toContain(
      "- `project/tf-a/repo/scratch` — Repository created live, not in the manifests · apply will delete it · `projects/p.yaml:1`",
    );
    expect(md).not.toContain("ProjectAccess removed");
  });

  it("with plan --base, drift already present is said the same way", () => {
    const md = renderMarkdown(plan([granted], { drift: [granted.key] }));
    expect(md).toContain("granted live to asmith (developers) · apply will remove it");
  });

  it("drift's headings say drift: N differences, and in sync when there are none", () => {
    const md = renderMarkdown(nine(), { mode: "drift" });
    expect(md.split("\n")[0]).toMatch(/^### phctl drift: 9 differences — 8 to apply \(3 destructive\), 1 ticket, 0 blocked · acme · plan `[0-9a-f]{12}`$/); // prettier-ignore
    const none = renderMarkdown(plan([]), { mode: "drift" });
    expect(none.split("\n")[0]).toMatch(/^### phctl drift: in sync — live state matches the manifests · acme$/); // prettier-ignore
    expect(none).not.toContain("no changes");
  });
});

describe("platform words", () => {
  it("GitLab comments say merge request, never pull request", () => {
    const drifted = entry("project/b/repo/r", "update", {
      changes: [{ field: "issueTracking", before: "disabled", after: "enabled" }],
    });
    const p = plan([drifted, entry("project/a/repo/n", "create")], { drift: [drifted.key] });
    const gl = renderMarkdown(p, { request: "merge request" });
    expect(gl).toContain("#### Changes in this merge request");
    expect(gl).not.toMatch(/pull request/i);
    expect(renderMarkdown(p)).toContain("#### Changes in this pull request");
  });
});

describe("texts cut for length", () => {
  const long =
    "The irc service is deprecated and will be switched off at the end of the quarter. " +
    "Remove spec.services.irc from every user that still declares it, then run plan again to see the accounts that go. ".repeat(
      4,
    ) +
    "Teams that still need chat should ask for a Matrix room instead.";

  it("a long warning is cut between words, says it was, and points at the full text", () => {
    const md = renderMarkdown(plan([entry("project/a/repo/n", "create")], { warnings: [{ message: long }] }), { artifactHint: "the plan artifact" }); // prettier-ignore
    const line = md.split("\n").find((l) => l.startsWith("- The irc service"))!;
    expect(line.length).toBeLessThan(long.length);
    const text = line.slice(2, line.indexOf("…"));
    expect(long.startsWith(text.trimEnd())).toBe(true);
    expect(long[text.trimEnd().length]).toMatch(/[\s.]/);
    expect(line).toMatch(/… \(cut; the full text is in the plan artifact\)$/);
  });

  it("a blocked entry names its field once, even when its reason starts with it", () => {
    const e = entry("user/jdoe", "blocked", {
      kind: "User",
      changes: [{ field: "externalEmail", before: "a@x", after: "b@x" }],
      blocked: {
        field: "externalEmail",
        reason: "externalEmail is immutable: the email cannot be changed after the user is created",
      },
    });
    const md = renderMarkdown(plan([e]));
    expect(md).toContain(
      "- `user/jdoe` (`projects/p.yaml:1`): externalEmail is immutable: the email cannot be changed after the user is created",
    );
    expect(md).not.toContain("externalEmail: externalEmail");
    // A reason that does not name its field still gets it.
    expect(renderMarkdown(samplePlan())).toContain(
      "spec.externalEmail: the email cannot be changed after the user is created",
    );
  });
});

describe("notes in the details", () => {
  it("a long blocked reason is broken between words over several lines, never cut", () => {
    const reason =
      "the email cannot be changed after the user is created: create a new user with the new address and remove the old one";
    const e = entry("user/asmith", "blocked", {
      kind: "User",
      changes: [{ field: "externalEmail", before: "a@old.example", after: "a@example.org" }],
      blocked: { field: "spec.externalEmail", reason },
    });
    const lines = codeBlockLines(renderMarkdown(plan([e]))).filter((l) => l.startsWith("    # "));
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(110);
    expect(lines.map((l) => l.slice(6)).join(" ")).toBe(reason);
  });
});
