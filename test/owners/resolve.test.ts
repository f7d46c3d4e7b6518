/**
 * Owner resolution (src/owners): a project's own metadata.owners and its Project layers'
 * owners add up, a project with neither is owned by its admins after Defaults, a file's owners
 * are its projects' plus its folder's (the last folder listed that holds it), and phctl.yaml,
 * layers and policies belong to owners.platform; handles follow phctl.yaml's owners.handles;
 * the CODEOWNERS text is deterministic and approvals read the base config's owners.
 */
import { describe, expect, it } from "vitest";
import { loadManifestTexts, type ManifestInput } from "../../src/pipeline/load.js";
import {
  approvalsFor,
  firstDifference,
  OwnerIndex,
  renderCodeowners,
} from "../../src/owners/index.js";

const project = (name: string, extra: string, admins = "[jdoe]") => `apiVersion: phctl/v1
kind: Project
metadata:
  name: ${name}
${extra}spec:
  title: ${name}
  access:
    admins: ${admins}
`;
const user = (name: string) => `apiVersion: phctl/v1
kind: User
metadata: { name: ${name} }
spec: { firstName: F, lastName: L, externalEmail: ${name}@example.org }
`;
const CONFIG = `organization: acme
owners:
  platform: { teams: [platform] }
  folders:
    - path: projects/
      teams: [reviewers]
    - path: projects/f*/
      users: [fwlead]
  handles:
    users: { asmith: anne-smith }
    teams: { platform: platform-admins }
`;
const LAYER = `apiVersion: phctl/v1
kind: Defaults
metadata: { name: firmware-owners }
spec:
  select: { kind: Project, names: ["fw-*"] }
  owners: { teams: [firmware] }
  values: { access: { admins: [bwong] } }
`;

function load(files: Record<string, string>, root = "cfg") {
  const inputs: ManifestInput[] = Object.entries(files).map(([f, content]) => ({
    file: `${root}/${f}`,
    content,
    ...(f === "phctl.yaml" ? { config: true } : {}),
  }));
  const r = loadManifestTexts(inputs);
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return new OwnerIndex({ state: r.state!, files: r.files, root, policies: r.policies ?? [] });
}

const base = {
  "phctl.yaml": CONFIG,
  "users.yaml": [user("jdoe"), user("asmith"), user("bwong"), user("fwlead")].join("---\n"),
  "defaults.yaml": LAYER,
  "projects/plain.yaml": project("plain", ""),
  "projects/named.yaml": project("named", "  owners: [asmith]\n"),
  "projects/fw/a.yaml": project("fw-a", "  owners: { users: [asmith], teams: [core] }\n"),
  "projects/fw/b.yaml": project("fw-b", ""),
  "other/mixed.yaml": `${project("mixed", "")}---\n${user("zed")}`,
};

describe("a project's owners", () => {
  const ix = load(base);
  it("are its admins when nobody names owners", () => {
    expect(ix.projectOwners("project/plain")).toEqual({
      owners: { users: ["jdoe"], teams: [] },
      from: "admins",
    });
  });
  it("are its own metadata.owners, short list or mapping", () => {
    expect(ix.ownersOf("project/named")).toEqual({ users: ["asmith"], teams: [] });
  });
  it("add up with the owners of the Project layers that select it", () => {
    expect(ix.ownersOf("project/fw-a/repo/x")).toEqual({
      users: ["asmith"],
      teams: ["core", "firmware"],
    });
    // A layer's owners replace the admins default (bwong, the layer's admin, is not one).
    expect(ix.projectOwners("project/fw-b")).toEqual({
      owners: { users: [], teams: ["firmware"] },
      from: "metadata",
    });
  });
  it("of a user are its file's", () => {
    expect(ix.ownersOf("user/zed")).toEqual({ users: ["jdoe"], teams: [] });
    expect(ix.ownersOf("user/jdoe")).toEqual({ users: [], teams: ["platform"] });
  });
});

describe("a file's owners", () => {
  const ix = load(base);
  it("are its projects' plus the last folder's that holds it", () => {
    expect(ix.ownersOfFile("projects/plain.yaml")).toMatchObject({
      users: ["jdoe"],
      teams: ["reviewers"],
      from: "objects",
    });
    expect(ix.ownersOfFile("projects/fw/b.yaml")).toMatchObject({
      users: ["fwlead"],
      teams: ["firmware"],
    });
  });
  it("of a new file are its folder's, else the default", () => {
    expect(ix.ownersOfFile("projects/fw/new.yaml")).toMatchObject({
      users: ["fwlead"],
      teams: [],
    });
    expect(ix.ownersOfFile("elsewhere/x.yaml")).toMatchObject({
      teams: ["platform"],
      from: "default",
    });
  });
  it("of phctl.yaml, layers and policies are the default owners only", () => {
    for (const f of ["phctl.yaml", "defaults.yaml"])
      expect(ix.ownersOfFile(f)).toEqual({
        path: f,
        users: [],
        teams: ["platform"],
        from: "default",
      });
  });
  it("name handles from owners.handles and the organization", () => {
    expect(ix.named({ users: ["asmith", "jdoe"], teams: ["platform", "core"] })).toEqual({
      users: [
        { name: "asmith", handle: "@anne-smith" },
        { name: "jdoe", handle: "@jdoe" },
      ],
      teams: [
        { name: "platform", handle: "@acme/platform-admins" },
        { name: "core", handle: "@acme/core" },
      ],
    });
  });
});

describe("the CODEOWNERS text", () => {
  it("lists the default, the folders in order, then every file sorted; the same every time", () => {
    const text = renderCodeowners(load(base), "github", "cfg/", "cfg/phctl.yaml");
    const rules = text.split("\n").filter((l) => l !== "" && !l.startsWith("#"));
    expect(rules).toEqual([
      "/cfg/ @acme/platform-admins",
      "/cfg/projects/ @acme/reviewers",
      "/cfg/projects/f*/ @fwlead",
      "/cfg/defaults.yaml @acme/platform-admins",
      "/cfg/other/mixed.yaml @jdoe",
      "/cfg/phctl.yaml @acme/platform-admins",
      "/cfg/projects/fw/a.yaml @anne-smith @fwlead @acme/core @acme/firmware",
      "/cfg/projects/fw/b.yaml @fwlead @acme/firmware",
      "/cfg/projects/named.yaml @anne-smith @acme/reviewers",
      "/cfg/projects/plain.yaml @jdoe @acme/reviewers",
      "/cfg/users.yaml @acme/platform-admins",
    ]);
    expect(renderCodeowners(load(base), "github", "cfg/", "cfg/phctl.yaml")).toBe(text);
  });
  it("GitLab: one section whose header names the default owners", () => {
    const text = renderCodeowners(load(base), "gitlab", "", "phctl.yaml");
    expect(text).toContain("\n[phctl] @acme/platform-admins\n");
    expect(text).toContain("\n/phctl.yaml\n");
    expect(text).toContain("\n/projects/plain.yaml @jdoe @acme/reviewers\n");
  });
  it("a stale file is found at its first differing line", () => {
    expect(firstDifference("a\nb\n", "a\nb")).toBeUndefined();
    expect(firstDifference("a\nb\n", "a\r\nc\r\n")).toBe(2);
    expect(firstDifference("a\nb\n", "a\n")).toBe(2);
  });
});

describe("approvals", () => {
  it("are the base's owners of the files each touched object's changes are written in", () => {
    const before = load(base, "base");
    const after = load(
      { ...base, "projects/plain.yaml": project("plain", "  owners: [bwong]\n") },
      "head",
    );
    const got = approvalsFor(
      [
        { key: "project/plain/access/admins/user/x", source: { file: "head/projects/plain.yaml" } },
        { key: "project/fw-b/repo/r", source: { file: "head/defaults.yaml" } },
        { key: "project/gone", source: { file: "base/projects/gone.yaml" } },
      ],
      before,
      after,
    );
    expect(got).toEqual([
      {
        key: "project/fw-b",
        files: ["head/defaults.yaml"],
        users: [],
        teams: ["platform"],
        handles: ["@acme/platform-admins"],
      },
      {
        key: "project/gone",
        files: ["base/projects/gone.yaml"],
        users: [],
        teams: ["reviewers"],
        handles: ["@acme/reviewers"],
      },
      {
        // The base's owners (jdoe, its admin), not the owner the change names.
        key: "project/plain",
        files: ["head/projects/plain.yaml"],
        users: ["jdoe"],
        teams: ["reviewers"],
        handles: ["@jdoe", "@acme/reviewers"],
      },
    ]);
  });
});

describe("ownersOf and ownersOfFile (for reviewers of proposed changes)", () => {
  it("give users and teams with their handles", async () => {
    const { ownersOf, ownersOfFile } = await import("../../src/owners/index.js");
    const ix = load(base);
    expect(ownersOf(ix, "project/named/access/admins/user/jdoe")).toEqual({
      users: [{ name: "asmith", handle: "@anne-smith" }],
      teams: [],
    });
    expect(ownersOfFile(ix, "phctl.yaml")).toEqual({
      users: [],
      teams: [{ name: "platform", handle: "@acme/platform-admins" }],
    });
  });
});
