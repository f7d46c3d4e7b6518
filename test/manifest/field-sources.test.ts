/**
 * Each changed field at its own line (src/manifest/field-sources.ts), for every kind a plan
 * updates: the object found by the position the loader recorded for it, the field by its key
 * under it; a field the manifest leaves to its default has no line of its own. Alike by the
 * fast reader and the full one (an anchor sends the file to the full reader).
 */
import { describe, expect, it } from "vitest";
import { kinds } from "../../src/kinds/index.js";
import { locateFields, type FieldRequest } from "../../src/manifest/field-sources.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import { text } from "./helpers.js";

const MANIFESTS = `apiVersion: phctl/v1
kind: User
metadata: { name: jdoe }
spec:
  firstName: Jane
  lastName: Doe
  externalEmail: jane@example.org
  services:
    git: { status: active, personalProjectLimit: 5 }
    artifactservice: {}
---
apiVersion: phctl/v1
kind: Team
metadata: { name: core }
spec:
  services:
    gitservice: true
  members: [jdoe]
---
apiVersion: phctl/v1
kind: Project
metadata: { name: tf-a }
spec:
  title: TF-A
  access: { admins: [jdoe] }
  git:
    group:
      enableCi: true
    repositories:
      - name: one
        issueTracking: disabled
      - name: two
        forkFrom: https://example.org/up.git
        mergeRequests: private
    mirrors:
      - from: https://example.org/a.git
        to: ssh://git@git.example.org/acme/tf-a/one.git
        refSpaceFrom: refs/heads/*
        refSpaceTo: refs/heads/*
        frequency: daily
  artifacts:
    repositories:
      - { name: releases, type: generic }
`;

/** What to ask, by key: the fields and the lines expected (undefined: the default's). */
const ASKED: Record<string, [string, number | undefined][]> = {
  "user/jdoe": [
    ["lastName", 6],
    ["role", undefined],
  ],
  "user/jdoe/service/git": [
    ["personalProjectLimit", 9],
    ["status", 9],
  ],
  "team/core": [
    ["gitservice", 17],
    ["wiki", undefined],
  ],
  "project/tf-a": [["title", 24]],
  "project/tf-a/group": [["enableCi", 28]],
  "project/tf-a/repo/one": [
    ["issueTracking", 31],
    ["enableLFS", undefined],
  ],
  "project/tf-a/repo/two": [
    ["mergeRequests", 34],
    ["fork", 33],
  ],
  "project/tf-a/mirror/ssh://git@git.example.org/acme/tf-a/one.git": [["frequency", 40]],
  "project/tf-a/artifact/releases": [["type", 43]],
};

function located(content: string, reader: "auto" | "full") {
  const r = loadManifestTexts([text("all.yaml", content)], { reader });
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const requests: FieldRequest[] = [];
  for (const kind of kinds)
    for (const d of kind.desired(r.state!))
      if (ASKED[d.key])
        requests.push({
          kind: kind.kind,
          key: d.key,
          source: d.source!,
          fields: ASKED[d.key].map(([f]) => f),
        });
  expect(requests.map((q) => q.key).sort()).toEqual(Object.keys(ASKED).sort());
  const found = locateFields(requests, (file) => (file === "all.yaml" ? content : undefined));
  return Object.fromEntries(
    requests.map((q, i) => [q.key, q.fields.map((f, j) => [f, found[i][j]?.line])]),
  );
}

describe("locateFields", () => {
  it("names each field's own line, by the fast reader", () => {
    expect(located(MANIFESTS, "auto")).toEqual(ASKED);
  });

  it("and by the full reader (a file with an anchor)", () => {
    const anchored = MANIFESTS.replace("  title: TF-A", "  title: &t TF-A");
    expect(located(anchored, "full")).toEqual(ASKED);
  });

  it("a file that is gone locates nothing (the object's line stands)", () => {
    const r = loadManifestTexts([text("all.yaml", MANIFESTS)]);
    const p = r.state!.projects[0];
    expect(
      locateFields(
        [{ kind: "Project", key: p.key, source: p.source, fields: ["title"] }],
        () => undefined,
      ),
    ).toEqual([[undefined]]);
  });

  it("a list item read alone or its document whole: the same lines (comments, markers between)", () => {
    const repos = Array.from(
      { length: 100 },
      (_, i) =>
        `      - name: r${i}\n# a comment at the margin, inside the item\n        issueTracking: disabled\n`,
    );
    const content = `${MANIFESTS}...\n---\n${MANIFESTS.split("---\n")[2]
      .replace("name: tf-a", "name: big")
      .replace(/ {4}repositories:\n[^]*?(?= {4}mirrors:)/, `    repositories:\n${repos.join("")}`)
      .replace(/ {4}mirrors:\n[^]*$/, "")}`;
    const r = loadManifestTexts([text("all.yaml", content)]);
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const lines = content.split("\n");
    const repositories = kinds
      .find((k) => k.kind === "Repository")!
      .desired(r.state!)
      .filter((d) => d.key.startsWith("project/big/"));
    expect(repositories).toHaveLength(100);
    const ask = (ds: typeof repositories) =>
      locateFields(
        ds.map((d) => ({
          kind: "Repository",
          key: d.key,
          source: d.source!,
          fields: ["issueTracking"],
        })),
        () => content,
      ).map(([s]) => s?.line);
    const expected = repositories.map((d) => {
      const at = lines.indexOf(`      - name: ${d.key.split("/").at(-1)}`);
      expect(lines[at + 2]).toBe("        issueTracking: disabled");
      return at + 3;
    });
    expect(ask(repositories)).toEqual(expected); // 100 asked: the document read whole
    expect(ask(repositories.slice(0, 3))).toEqual(expected.slice(0, 3)); // 3: each item alone
  });
});
