import { describe, expect, it } from "vitest";
import { summarize } from "../../src/engine/plan.js";
import { changesDigest, shortDigest } from "../../src/engine/reviewed.js";
import { renderMarkdown } from "../../src/render/markdown.js";
import { samplePlan } from "../fixtures/sample-plan.js";
import { codeBlockLines, destructiveShown, entry, html, plan } from "./markdown-plans.js";

const repo = (slug: string, name: string) => `project/${slug}/repo/${name}`;

describe("markdown comment: what a reviewer reads first", () => {
  it("marker, then the verdict with counts, plan hash and organization, then the outcome", () => {
    const p = samplePlan();
    const md = renderMarkdown(p, {
      marker: "<!-- phctl:default -->",
      outcome: "**Applied** in run 7.",
    });
    const lines = md.split("\n").filter((l) => l !== "");
    expect(lines[0]).toBe("<!-- phctl:default -->");
    expect(lines[1]).toBe(
      `### phctl plan: 5 changes — 3 to apply (1 destructive), 1 ticket, 1 blocked · acme · plan \`${shortDigest(changesDigest(p.entries))}\``,
    );
    expect(lines[2]).toBe("**Applied** in run 7.");
    expect(lines[3]).toBe("#### Destructive changes (1)");
    expect(html(md)).toMatch(/^<!-- phctl:default -->\n?<h3>phctl plan: 5 changes/);
  });

  it("an empty plan says no changes in its first line", () => {
    const md = renderMarkdown(plan([]));
    expect(md.split("\n")[0]).toMatch(/^### phctl plan: no changes · acme · plan `[0-9a-f]{12}`$/);
    expect(md).not.toContain("<details>");
    expect(md).not.toContain("| kind |");
  });

  it("destructive entries (deletions, access removals, archives) come before any details", () => {
    const archive = entry(repo("tf-a", "old"), "update", {
      changes: [{ field: "status", before: "active", after: "archived" }],
      destructive: false,
    });
    const p = plan([
      entry(repo("tf-a", "new"), "create"),
      entry(repo("tf-a", "gone"), "delete"),
      entry("project/tf-a/access/developers/user/mallory", "delete", { kind: "ProjectAccess" }),
      archive,
    ]);
    const md = renderMarkdown(p);
    const firstDetails = md.indexOf("<details>");
    expect(md).toContain("- `project/tf-a/repo/old` — Repository archived · `projects/p.yaml:1`");
    expect(md).toContain("- `project/tf-a/access/developers/user/mallory` — ProjectAccess removed");
    for (const key of [repo("tf-a", "gone"), repo("tf-a", "old")])
      expect(md.indexOf(`\`${key}\``)).toBeLessThan(firstDetails);
    expect(destructiveShown(md).keys.sort()).toEqual(
      [
        "project/tf-a/access/developers/user/mallory",
        repo("tf-a", "gone"),
        repo("tf-a", "old"),
      ].sort(),
    );
    expect(md.split("\n")[0]).toContain("4 changes — 4 to apply (3 destructive)");
  });

  it("counts per project and kind without all-zero columns, each row and the total adding up", () => {
    const md = renderMarkdown(
      plan([
        entry(repo("a", "x"), "create"),
        entry(repo("a", "y"), "create"),
        entry("user/u", "update", { kind: "User" }),
      ]),
    );
    expect(md).toContain(
      [
        "| project | kind | create | update | total |",
        "|:--|:--|--:|--:|--:|",
        "| `a` | Repository | 2 |  | 2 |",
        "| users | User |  | 1 | 1 |",
        "| **total** | | **2** | **1** | **3** |",
      ].join("\n"),
    );
    expect(md).not.toContain("| delete");
    expect(md).not.toContain("not managed");
  });
});

describe("markdown comment: how it renders (GFM)", () => {
  const tricky = plan(
    [
      entry("user/linaro_partner_bot", "update", {
        kind: "User",
        source: { file: "users/linaro_partner_.yaml", line: 3 },
        changes: [{ field: "fullName", before: "a_b_c", after: "<img src=x onerror=alert(1)>" }],
      }),
      entry("project/x_y_/repo/a|b<script>", "delete", {
        source: { file: "projects/x_y_.yaml", line: 2 },
      }),
      entry("project/x_y_/repo/long", "create", {
        after: {
          name: "long",
          description: "word ".repeat(100),
          subgroup: "",
          topics: [],
          extra: null,
        },
      }),
    ],
    {
      warnings: [
        {
          message: "team_a_ is <b>odd</b> @org/team",
          source: { file: "users/linaro_partner_.yaml", line: 3 },
        },
      ],
    },
  );
  const md = renderMarkdown(tricky, { footer: { runUrl: "https://ci.example/run (1)" } });
  const out = html(md);

  it("paths and keys with underscores never turn into emphasis; no HTML comes from values", () => {
    expect(out).not.toMatch(/<em>|<strong>x/);
    expect(out).toContain("<code>users/linaro_partner_.yaml:3</code>");
    expect(out).toContain("<code>projects/x_y_.yaml:2</code>");
    expect(out).toContain("team_a_ is &lt;b&gt;odd&lt;/b&gt; @org/team");
    expect(md).toContain("\\@org/team");
    expect(out).not.toMatch(/<img|<script/);
    expect(out).toContain(
      "<summary>project <code>x_y_</code> — 2 changes: 1 to create, 1 to delete</summary>",
    );
  });

  it("details are balanced, every diff fence is closed, code lines stay within 110 characters", () => {
    expect(out.match(/<details>/g)?.length).toBe(2);
    expect(out.match(/<\/details>/g)?.length).toBe(2);
    expect(out.match(/<pre><code class="language-diff">/g)?.length).toBe(2);
    expect(out).not.toMatch(/<p>```/);
    const lines = codeBlockLines(md);
    expect(lines.length).toBeGreaterThan(5);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(110);
    expect(lines.some((l) => l.startsWith('+   description: "word word') && l.endsWith("…"))).toBe(
      true,
    );
  });

  it("creates omit empty fields; updates are - old / + new; deletes are -", () => {
    const lines = codeBlockLines(md);
    expect(lines).toContain("+ project/x_y_/repo/long (Repository)  # projects/p.yaml:1");
    expect(lines.some((l) => /subgroup|topics|extra|\(none\)/.test(l))).toBe(false);
    expect(lines).toContain("  user/linaro_partner_bot (User)  # users/linaro_partner_.yaml:3");
    expect(lines).toContain('-   fullName: "a_b_c"');
    expect(lines).toContain('+   fullName: "<img src=x onerror=alert(1)>"');
    expect(lines).toContain("- project/x_y_/repo/a|b<script> (Repository)  # projects/x_y_.yaml:2");
  });

  it("the footer names the commits, the read time, the version and links the run", () => {
    const withFooter = renderMarkdown(samplePlan(), {
      footer: {
        baseCommit: "abc1234ffff",
        headCommit: "def5678eeee",
        runUrl: "https://ci.example/run/9",
      },
    });
    expect(withFooter.trimEnd().split("\n").at(-1)).toBe(
      "base abc1234 · head def5678 · live state read 2026-11-22 00:00 UTC · [CI run](https://ci.example/run/9)",
    );
    expect(md.trimEnd().split("\n").at(-1)).toBe(
      "live state read 2026-11-23 10:02 UTC · phctl 0.1.0 · [CI run](https://ci.example/run%20%281%29)",
    );
  });

  it("tickets and blocked entries never start with -, + or ! in the diff", () => {
    const lines = codeBlockLines(renderMarkdown(samplePlan()));
    const ticket = lines.findIndex((l) => l.includes("project/tf-m (Project)"));
    const blocked = lines.findIndex((l) => l.includes("user/jdoe (User)"));
    for (const l of [...lines.slice(ticket, ticket + 3), ...lines.slice(blocked, blocked + 3)])
      expect(l).toMatch(/^ {2}/);
    expect(lines.some((l) => l.startsWith("!") || l.startsWith("~"))).toBe(false);
  });

  it("groups are sorted by name and labelled by what they hold; entries by key", () => {
    const p = plan([
      entry(repo("zeta", "b"), "create"),
      entry("team/core/member/ann", "create", { kind: "TeamMember" }),
      entry(repo("alpha", "z"), "create"),
      entry(repo("alpha", "a"), "create"),
      entry("user/ann", "create", { kind: "User" }),
    ]);
    const summaries = [...html(renderMarkdown(p)).matchAll(/<summary>(.*?)<\/summary>/g)].map(
      (m) => m[1],
    );
    expect(summaries).toEqual([
      "project <code>alpha</code> — 2 changes: 2 to create",
      "project <code>zeta</code> — 1 change: 1 to create",
      "users and teams — 2 changes: 2 to create",
    ]);
    const lines = codeBlockLines(renderMarkdown(p)).filter((l) => l.startsWith("+ project/alpha"));
    expect(lines.map((l) => l.split(" ")[1])).toEqual([repo("alpha", "a"), repo("alpha", "z")]);
  });
});

describe("markdown comment: plan --base", () => {
  const mixed = entry("project/tf-a", "update", {
    kind: "Project",
    changes: [
      { field: "description", before: "old", after: "new" },
      { field: "title", before: "T", after: "Trusted" },
    ],
    driftFields: ["title"],
  });
  const drifted = entry(repo("tf-b", "docs"), "update", {
    changes: [{ field: "issueTracking", before: "disabled", after: "enabled" }],
  });
  const mine = entry(repo("tf-a", "new"), "create");
  const entries = [mixed, drifted, mine];
  const p = plan(entries, { drift: [drifted.key], summary: summarize(entries, 0) });
  const md = renderMarkdown(p);

  it("splits this pull request from drift already present, per field", () => {
    const changes = md.indexOf("#### Changes in this pull request — 2");
    const drift = md.indexOf("#### Drift already present (apply will also revert it) — 2");
    expect(changes).toBeGreaterThan(0);
    expect(drift).toBeGreaterThan(changes);
    const mineText = md.slice(changes, drift);
    const driftText = md.slice(drift, md.indexOf("#### Details"));
    expect(mineText).toContain("- **update** 1: `project/tf-a` (description)");
    expect(mineText).toContain("- **create** 1: `project/tf-a/repo/new`");
    expect(driftText).toContain("`project/tf-a` (title)");
    expect(driftText).toContain("`project/tf-b/repo/docs` (issueTracking)");
    expect(md).not.toContain("#### Changes to apply");
  });

  it("marks drift in the details: whole entries on their line, mixed entries per field", () => {
    const lines = codeBlockLines(md);
    expect(lines).toContain('-   title: "T"  (drift)');
    expect(lines).toContain('+   title: "Trusted"  (drift)');
    expect(lines).toContain('+   description: "new"');
    expect(lines).toContain("  project/tf-b/repo/docs (Repository) (drift)  # projects/p.yaml:1");
    expect(html(md)).toContain(
      "<summary>project <code>tf-a</code> — 2 changes: 1 to create, 1 to update (1 of them partly drift)</summary>",
    );
    expect(html(md)).toContain(
      "<summary>project <code>tf-b</code> — 1 change: 1 to update (1 of them drift already present)</summary>",
    );
  });

  it("without --base there is one section of changes", () => {
    const plain = renderMarkdown(plan(entries));
    expect(plain).toContain("#### Changes to apply — 3");
    expect(plain).not.toContain("Drift already present");
    expect(plain).not.toContain("(drift)");
  });
});
