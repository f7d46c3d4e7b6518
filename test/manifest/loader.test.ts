import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PhctlError } from "../../src/errors.js";
import { loadManifests, loadManifestTexts } from "../../src/pipeline/load.js";
import { ConfigDocument } from "../../src/manifest/schema/config.js";
import { ProjectSpec, MirrorSpec, RepositorySpec } from "../../src/manifest/schema/project.js";
import { TeamSpec } from "../../src/manifest/schema/team.js";
import { UserSpec } from "../../src/manifest/schema/user.js";
import { EXAMPLES, text } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "phctl-loader-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const doc = (kind: string, name: string, spec: string) =>
  `apiVersion: phctl/v1\nkind: ${kind}\nmetadata: { name: ${name} }\nspec:\n${spec
    .trim()
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n")}\n`;

describe("the examples", () => {
  it("validate cleanly into the documented state", async () => {
    const r = await loadManifests([EXAMPLES]);
    expect(r.diagnostics).toEqual([]);
    expect(r.files).toHaveLength(13);
    const s = r.state!;
    expect(s.config).toMatchObject({
      organization: "acme",
      concurrency: 8,
      queueTimeout: 600_000,
      outageTimeout: 120_000,
    });
    expect(s.config.maxRemovals).toBe(0.25);
    expect(s.organizations.map((o) => o.key)).toEqual(["organization/linaro-partner"]);
    expect(s.users.map((u) => [u.username, u.organization])).toEqual([
      ["asmith", "acme"],
      ["bwong", "acme"],
      ["jdoe", "acme"],
      ["lchen", "linaro-partner"],
      ["pkumar", "linaro-partner"],
    ]);
    expect(s.teams.map((t) => t.members)).toEqual([
      ["bwong", "lchen"],
      ["asmith", "jdoe", "pkumar"],
    ]);
    expect(s.projects.map((p) => p.key)).toEqual([
      "project/ci-tools",
      "project/mbed-tls",
      "project/trusted-firmware-a",
    ]);
    const fork = s.projects[0].git!.repositories.find((r) => r.forkFrom);
    expect(fork).toMatchObject({
      key: "project/ci-tools/repo/forks/tf-a-staging",
      forkFromKey: "project/trusted-firmware-a/repo/trusted-firmware-a",
    });
    expect(s.projects[2].git!.mirrors[0].toKey).toBe(
      "project/trusted-firmware-a/repo/trusted-firmware-a",
    );
    expect(s.projects[2].protect).toBe(true);
    expect(s.referencedUsers).toEqual([]);
    expect(s.referencedOrganizations).toEqual([]);
    expect(s.sources.get("project/trusted-firmware-a/access/developers/user/pkumar")).toEqual({
      file: "examples/projects/trusted-firmware-a.yaml",
      line: 21,
      column: 18,
    });
  });
});

describe("normalisation", () => {
  const minimal = loadManifestTexts([
    text(
      "all.yaml",
      [
        doc(
          "User",
          "jdoe",
          "firstName: J\nlastName: D\nexternalEmail: j@example.org\nservices: { git: {}, email: {} }",
        ),
        doc("Team", "t", "members: [zed, jdoe, jdoe]"),
        doc(
          "Project",
          "p",
          `title: P
access: { admins: [jdoe, ann, jdoe], maintainers: { organizationTeams: [acme/b, acme/a] } }
git:
  subgroups: [a/b/c, x]
  repositories: [{ name: r }]
  mirrors: [{ from: "https://e.org/x.git", to: "ssh://git@h/o/p/r.git", refSpaceFrom: a, refSpaceTo: b, frequency: once, notificationEmails: [b@e.org, a@e.org] }]
artifacts: { repositories: [{}] }`,
        ),
      ].join("---\n"),
    ),
  ]);
  const s = minimal.state!;
  const project = s.projects[0];

  /** The `default` annotations of a TypeBox object's properties. */
  const defaults = (o: { properties: Record<string, { default?: unknown }> }) =>
    Object.fromEntries(
      Object.entries(o.properties)
        .filter(([, p]) => p.default !== undefined)
        .map(([k, p]) => [k, p.default]),
    );

  it("fills exactly the defaults the schemas advertise", () => {
    expect(minimal.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(s.users[0]).toMatchObject(defaults(UserSpec));
    expect(project).toMatchObject(defaults(ProjectSpec));
    expect(project.git!.repositories[0]).toMatchObject(defaults(RepositorySpec));
    expect(project.git!.mirrors[0]).toMatchObject(defaults(MirrorSpec));
    const team = loadManifestTexts([text("t.yaml", doc("Team", "x", "members: []"))]).state!;
    expect(team.teams[0].services).toEqual(
      defaults(TeamSpec.properties.services as never as Parameters<typeof defaults>[0]),
    );
    const cfg = defaults(ConfigDocument);
    expect(s.config.concurrency).toBe(cfg.concurrency);
    expect(s.config.queueTimeout).toBe(10 * 60_000);
    expect(cfg.queueTimeout).toBe("10m");
    expect(s.config.maxRemovals).toBe(0.25);
    expect(cfg.maxRemovals).toBe("25%");
    expect(Object.values(s.config.prune)).toEqual([false, false, false, false, false]);
    expect(project.git!.group).toMatchObject({
      path: "p",
      requestAccessEnabled: false,
      enableCi: false,
    });
    expect(project.artifacts.repositories).toEqual([
      expect.objectContaining({ key: "project/p/artifact/p", name: "p", type: "generic" }),
    ]);
    expect(s.users[0].services.email).toMatchObject({
      mailplan: "non-retention",
      deprecated: true,
    });
    expect(s.users[0].sendWelcome).toBe(false);
  });

  it("sorts and de-duplicates sets, fills every access level and expands subgroups", () => {
    expect(s.teams[0].members).toEqual(["jdoe", "zed"]);
    expect(project.access.admins).toEqual({ users: ["ann", "jdoe"], organizationTeams: [] });
    expect(project.access.maintainers).toEqual({
      users: [],
      organizationTeams: ["acme/a", "acme/b"],
    });
    expect(Object.keys(project.access).sort()).toEqual([
      "admins",
      "controllers",
      "developers",
      "editors",
      "maintainers",
      "reporters",
    ]);
    expect(project.git!.subgroups).toEqual(["a", "a/b", "a/b/c", "x"]);
    expect(project.git!.mirrors[0].notificationEmails).toEqual(["a@e.org", "b@e.org"]);
    expect(s.sources.get("project/p/subgroup/a")).toEqual(
      s.sources.get("project/p/subgroup/a/b/c"),
    );
  });

  it("collects users referenced but not declared, with every place that references them", () => {
    expect(s.referencedUsers).toEqual([
      { name: "ann", sources: [{ file: "all.yaml", line: 21, column: 28 }] },
      { name: "zed", sources: [{ file: "all.yaml", line: 14, column: 13 }] },
    ]);
  });

  it("collects organizations referenced but not declared", () => {
    const r = loadManifestTexts([
      text("phctl.yaml", "organization: acme\n", true),
      text(
        "u.yaml",
        doc("User", "u", "firstName: U\nlastName: V\nexternalEmail: u@e.org\norganization: beta"),
      ),
    ]);
    expect(r.state!.referencedOrganizations).toEqual([
      { name: "beta", sources: [{ file: "u.yaml", line: 8, column: 17 }] },
    ]);
  });
});

describe("YAML features", () => {
  it("expands anchors, aliases and merge keys, keeping positions at the alias", () => {
    const r = loadManifestTexts([
      text(
        "p.yaml",
        `apiVersion: phctl/v1
kind: Project
metadata: { name: p }
spec:
  title: P
  access: { admins: &leads [jdoe], maintainers: *leads }
  git:
    repositories:
      - &base { name: a, issueTracking: enabled, mergeRequests: enabled }
      - <<: *base
        name: b
      - <<: *base
        name: c
        issueTracking: privat
`,
      ),
    ]);
    expect(r.diagnostics.map((d) => `${d.line}:${d.column} ${d.message} (${d.hint})`)).toEqual([
      "14:24 spec.git.repositories[2].issueTracking must be one of enabled, private, disabled (did you mean private?)",
    ]);
    const ok = loadManifestTexts([
      text(
        "q.yaml",
        `apiVersion: phctl/v1
kind: Project
metadata: { name: p }
spec:
  title: P
  access: { admins: &l [jdoe], developers: *l }
  git:
    repositories:
      - &b { name: a, mergeRequests: enabled }
      - { <<: *b, name: b }
`,
      ),
    ]);
    const repos = ok.state!.projects[0].git!.repositories;
    expect(repos.map((x) => [x.name, x.mergeRequests])).toEqual([
      ["a", "enabled"],
      ["b", "enabled"],
    ]);
    expect(ok.state!.projects[0].access.developers.users).toEqual(["jdoe"]);
  });
});

describe("files and directories", () => {
  it("skips the API profile phctl.yaml names, even inside the config directory", async () => {
    const dir = join(tmp, "with-profile");
    mkdirSync(join(dir, "profiles"), { recursive: true });
    writeFileSync(join(dir, "phctl.yaml"), "organization: acme\napiProfile: profiles/api.yaml\n");
    writeFileSync(join(dir, "profiles/api.yaml"), "queue:\n  id: jobId\n");
    writeFileSync(join(dir, "team.yaml"), doc("Team", "t", "members: []"));
    const r = await loadManifests([dir], { cwd: dir });
    expect(r.diagnostics).toEqual([]);
    expect(r.files).toEqual(["phctl.yaml", "team.yaml"]);
    expect(r.state?.teams.map((t) => t.name)).toEqual(["t"]);
    // Another YAML file there is still read as a manifest (and fails as one).
    writeFileSync(join(dir, "profiles/other.yaml"), "queue:\n  id: jobId\n");
    const again = await loadManifests([dir], { cwd: dir });
    expect(again.diagnostics.map((d) => d.file)).toContain("profiles/other.yaml");
  });

  it("walks *.yaml and *.yml, skipping dot-directories, dot-files and node_modules", async () => {
    const root = join(tmp, "walk");
    for (const d of ["a/b", ".git", "node_modules/x", ".hidden"])
      mkdirSync(join(root, d), { recursive: true });
    const org = (n: string) =>
      `apiVersion: phctl/v1\nkind: Organization\nmetadata: { name: ${n} }\n`;
    writeFileSync(join(root, "one.yaml"), org("one"));
    writeFileSync(join(root, "a/b/two.yml"), org("two"));
    writeFileSync(join(root, "a/notes.txt"), "not yaml");
    writeFileSync(join(root, ".git/x.yaml"), "broken: [");
    writeFileSync(join(root, "node_modules/x/y.yaml"), "broken: [");
    writeFileSync(join(root, ".hidden/z.yaml"), "broken: [");
    writeFileSync(join(root, ".dotfile.yaml"), "broken: [");
    const r = await loadManifests([root], { cwd: tmp });
    expect(r.files).toEqual(["walk/a/b/two.yml", "walk/one.yaml"]);
    expect(r.diagnostics).toEqual([]);
    expect(r.state!.organizations.map((o) => o.name)).toEqual(["one", "two"]);
    // the same file twice (as a directory member and by name) is read once
    const again = await loadManifests([root, join(root, "one.yaml")], { cwd: tmp });
    expect(again.files).toEqual(r.files);
  });

  it("reads phctl.yaml given by name, and reports a second one", async () => {
    const root = join(tmp, "cfg");
    for (const d of ["a", "b/c"]) mkdirSync(join(root, d), { recursive: true });
    writeFileSync(join(root, "a", "phctl.yaml"), "organization: acme\n");
    writeFileSync(join(root, "b", "phctl.yaml"), "organization: beta\n");
    writeFileSync(join(root, "b", "c", "phctl.yml"), "organization: gamma\n");
    const one = await loadManifests([join(root, "a", "phctl.yaml")], { cwd: root });
    expect(one.state!.config.organization).toBe("acme");
    const two = await loadManifests(["a", "b"], { cwd: root });
    expect(two.state).toBeUndefined();
    expect(two.diagnostics.map((d) => `${d.file}:${d.line} ${d.severity} ${d.message}`)).toEqual([
      "b/c/phctl.yml:1 warning ignored: phctl.yaml is read only at the root of a directory given to phctl",
      "b/phctl.yaml:1 error a second phctl.yaml; the first is a/phctl.yaml",
    ]);
  });

  it("throws a one-line user error for a path that does not exist", async () => {
    const err = await loadManifests(["no/such/dir"], { cwd: tmp }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PhctlError);
    expect((err as PhctlError).code).toBe("PATH_NOT_FOUND");
    expect((err as PhctlError).message).toBe("no/such/dir: no such file or directory");
  });

  it("keeps positions right with CRLF line ends and a byte-order mark", () => {
    const body =
      "\ufeffapiVersion: phctl/v1\r\nkind: Team\r\nmetadata: { name: t }\r\nspec:\r\n  memberz: []\r\n";
    const r = loadManifestTexts([{ file: "t.yaml", content: new TextEncoder().encode(body) }]);
    expect(r.diagnostics).toMatchObject([
      { line: 5, column: 3, path: "spec.memberz", hint: "did you mean members?" },
    ]);
  });
});
