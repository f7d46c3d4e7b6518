/**
 * In-place YAML edits (src/adopt/doc-text.ts, file-text.ts): each change touches its own
 * lines only — comments, quoting, flow and block styles, blank lines and the order of
 * everything else stay byte for byte — and the edited text reads back as the value the
 * edits describe.
 */
import { describe, expect, it } from "vitest";
import { DocText, EditError } from "../../src/adopt/doc-text.js";
import { FileText } from "../../src/adopt/file-text.js";

const doc = `# header comment
apiVersion: phctl/v1 # trailing
kind: Project
metadata: { name: p }
spec:
  title: "Quoted title"
  licenses: [MIT]
  access: # authoritative
    admins: [a]

    # about maintainers
    maintainers: { users: [b, c] }
  git:
    repositories:
      - name: one
        issueTracking: enabled # kept
      - name: two
        subgroup: docs
`;

const byName = (n: string) => (x: unknown) => (x as { name?: string }).name === n;
const lines = (t: string) => t.split("\n");

describe("DocText", () => {
  it("replaces a scalar where it stands, keeping its quotes and the comment after it", () => {
    const d = new DocText(doc);
    d.set(["spec", "title"], "New: title");
    d.set(["spec", "git", "repositories", byName("one"), "issueTracking"], "private");
    expect(d.text).toBe(
      doc
        .replace('"Quoted title"', '"New: title"')
        .replace("issueTracking: enabled # kept", "issueTracking: private # kept"),
    );
  });

  it("adds keys in schema order when given one, else at the end of the map, with its indentation", () => {
    const d = new DocText(doc, (path) =>
      path.join(".") === "spec" ? ["title", "description", "licenses", "access", "git"] : [],
    );
    d.set(["spec", "description"], "added");
    d.set(["spec", "git", "repositories", byName("two"), "enableLFS"], true);
    expect(lines(d.text)).toContain("  description: added");
    expect(d.text.indexOf("description: added")).toBeLessThan(d.text.indexOf("licenses:"));
    expect(d.text).toContain("        subgroup: docs\n        enableLFS: true\n");
  });

  it("adds to flow and block lists, and removes items; a map's last key goes with its map", () => {
    const d = new DocText(doc);
    d.append(["spec", "licenses"], "Apache-2.0");
    d.append(["spec", "access", "maintainers", "users"], "d");
    d.removeItem(["spec", "access", "maintainers", "users"], (x) => x === "b");
    d.removeItem(["spec", "git", "repositories"], byName("one"));
    d.append(["spec", "git", "repositories"], {
      name: "three",
      subgroup: "a/b",
      enableLFS: true,
      status: "archived",
    });
    expect(d.text).toContain("  licenses: [MIT, Apache-2.0]\n");
    expect(d.text).toContain("    maintainers: { users: [c, d] }\n");
    expect(d.text).not.toContain("name: one");
    expect(d.text).toContain(
      "      - name: two\n        subgroup: docs\n      - name: three\n        subgroup: a/b\n        enableLFS: true\n        status: archived\n",
    );
    expect(d.value()).toMatchObject({ spec: { licenses: ["MIT", "Apache-2.0"] } });
  });

  it("removes keys with their lines only; comments above and beside other keys stay", () => {
    const d = new DocText(doc);
    d.unset(["spec", "access", "admins"]);
    expect(d.text).toBe(doc.replace("    admins: [a]\n", ""));
    d.unset(["spec", "access", "maintainers"]);
    // The map's last key: the map is written empty; no comment is lost.
    expect(d.text).toContain("  access: {} # authoritative\n    # about maintainers\n  git:");
  });

  it("creates the maps on the way to a new key, as blocks", () => {
    const d = new DocText(doc);
    d.set(["spec", "artifacts", "repositories"], [{ name: "x", type: "pypi" }]);
    expect(
      d.text.endsWith("  artifacts:\n    repositories:\n      - { name: x, type: pypi }\n"),
    ).toBe(true);
  });

  it("quotes values that would read as something else", () => {
    const d = new DocText(doc);
    d.set(["spec", "title"], "true");
    d.append(["spec", "licenses"], "a, b");
    expect(d.value()).toMatchObject({ spec: { title: "true", licenses: ["MIT", "a, b"] } });
  });

  it("replaces a block scalar (`|`) by a value on its key line; the next key stays on its own", () => {
    const d = new DocText("spec:\n  description: |\n    text\n    more\n  next: x # n\n");
    d.set(["spec", "description"], "one line");
    expect(d.text).toBe("spec:\n  description: one line\n  next: x # n\n");
  });

  it("refuses to edit through an alias (EditError), rather than guess", () => {
    const d = new DocText("base: &b { x: 1 }\nother: *b\n");
    expect(() => d.set(["other", "x"], 2)).toThrow(EditError);
  });
});

describe("FileText", () => {
  const stream = `# schema line\n# file header\n${doc}---\n# second\napiVersion: phctl/v1\nkind: Team\nmetadata: { name: t }\n`;

  it("removes a document; the first one's leading comments stay", () => {
    const f = new FileText("f.yaml", stream);
    expect(f.ids()).toEqual(["Project/p", "Team/t"]);
    f.apply("Project/p", { op: "removeDocument" });
    expect(f.text()).toBe(
      "# schema line\n# file header\n# header comment\n---\n# second\napiVersion: phctl/v1\nkind: Team\nmetadata: { name: t }\n",
    );
    f.apply("Team/t", { op: "removeDocument" });
    expect(f.text()).toBeUndefined(); // no document left: the file goes
  });

  it("edits one document and leaves the others byte for byte", () => {
    const f = new FileText("f.yaml", stream);
    f.apply("Team/t", { op: "set", path: ["spec", "members"], value: ["u"] });
    f.check();
    expect(f.text()).toBe(`${stream}spec:\n  members: [u]\n`);
  });
});
