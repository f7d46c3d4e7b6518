/**
 * Proposed edits → manifest files (src/propose/files.ts), on a config loaded from disk with a
 * fixed today: a grant written as `{ user, expires }` is removed like a bare name, and the
 * ended grants (expiredEdits: a user's, an organization team's, one ended by its user's own
 * date) are deleted from their project's file while every other line stays; an ended team
 * membership is listed as not proposed, with its file and line.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expiringOf } from "../../src/expiry/index.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { expiredEdits, type ProposedEdit } from "../../src/propose/edits.js";
import { proposalFiles } from "../../src/propose/files.js";

const TODAY = new Date("2026-06-15T12:00:00Z");

const FILES = {
  "phctl.yaml": "organization: acme\n",
  "users.yaml": `apiVersion: phctl/v1
kind: User
metadata: { name: temp }
spec: { firstName: Tem, lastName: Porary, externalEmail: temp@example.org, expires: 2026-06-01 }
---
apiVersion: phctl/v1
kind: Team
metadata: { name: ops }
spec:
  members: [alice, { user: bob, expires: 2026-05-31 }]
`,
  "alpha.yaml": `apiVersion: phctl/v1
kind: Project
metadata: { name: alpha }
spec:
  title: Alpha
  access:
    admins: [alice]
    developers:
      users: [bob, { user: carol, expires: 2026-06-14 }, temp]
      organizationTeams: [{ team: acme/partners, expires: 2026-06-10 }, acme/core]
    reporters: [{ user: dave, expires: 2026-12-31 }]
`,
};

async function load() {
  const dir = mkdtempSync(join(tmpdir(), "phctl-propose-files-"));
  for (const [f, text] of Object.entries(FILES)) writeFileSync(join(dir, f), text);
  const r = await loadManifests(["."], { cwd: dir, now: TODAY });
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return { dir, state: r.state!, files: r.files };
}

describe("proposalFiles", () => {
  it("removes a grant written with its expires as it removes a bare name", async () => {
    const { dir, state, files } = await load();
    const edit: ProposedEdit = { action: "remove", project: "alpha", level: "reporters", username: "dave", finding: "inactive-with-write", reason: "inactive" }; // prettier-ignore
    const { proposals, notWritten } = proposalFiles([edit], { state, files, cwd: dir });
    expect(notWritten).toEqual([]);
    expect(proposals.map((p) => p.files.map((f) => [f.file, f.after]))).toEqual([
      [["alpha.yaml", FILES["alpha.yaml"].replace("    reporters: [{ user: dave, expires: 2026-12-31 }]\n", "")]], // prettier-ignore
    ]);
  });

  it("deletes the ended grants of a project in one proposal; an ended membership is said, not proposed", async () => {
    const { dir, state, files } = await load();
    const { edits, notProposed } = expiredEdits(expiringOf(state));
    expect(edits.map((e) => [e.action, e.level, e.team ?? false, e.username])).toEqual([
      ["expired", "developers", false, "carol"],
      ["expired", "developers", false, "temp"],
      ["expired", "developers", true, "acme/partners"],
    ]);
    expect(edits[1].reason).toMatch(/^user temp's access ended on 2026-06-01 \(alpha\.yaml:9\)/);
    expect(notProposed).toEqual([
      { finding: "expired", principal: "bob", why: "membership of team ops expired on 2026-05-31: delete it at users.yaml:10" }, // prettier-ignore
    ]);
    const { proposals, notWritten } = proposalFiles(edits, { state, files, cwd: dir });
    expect(notWritten).toEqual([]);
    expect(proposals).toHaveLength(1);
    expect(proposals[0].projects).toEqual(["alpha"]);
    expect(proposals[0].files.map((f) => [f.file, f.after])).toEqual([
      [
        "alpha.yaml",
        FILES["alpha.yaml"]
          .replace("[bob, { user: carol, expires: 2026-06-14 }, temp]", "[bob]")
          .replace("[{ team: acme/partners, expires: 2026-06-10 }, acme/core]", "[acme/core]"),
      ],
    ]);
  });
});
