import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { anchorsOf, checkMarkdown, shippedMarkdown } from "../helpers/doc-links.js";

const ROOT = resolve(import.meta.dirname, "../..");

describe("the repository's documents point only at files inside it", () => {
  const files = shippedMarkdown(ROOT);

  it("finds the documents a user reads", () => {
    const names = files.map((f) => relative(ROOT, f));
    expect(names).toEqual(
      expect.arrayContaining([
        "README.md",
        "CHANGELOG.md",
        "docs/api.md",
        "docs/design.md",
        "src/server/SPEC.md",
        "bench/README.md",
      ]),
    );
    expect(names.filter((n) => n.startsWith("test/") || n.startsWith("node_modules/"))).toEqual([]);
  });

  it("every link and path in them exists in the repository (file:line of each that does not)", () => {
    const problems = files.flatMap((f) => checkMarkdown(ROOT, f, readFileSync(f, "utf8")));
    expect(problems.map((p) => `${p.at} ${p.message}`)).toEqual([]);
  });
});

describe("the link rules", () => {
  const root = mkdtempSync(join(tmpdir(), "phctl-doc-links-"));
  mkdirSync(join(root, "docs"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src/a.ts"), "");
  writeFileSync(join(root, "docs/guide.md"), "# Guide\n\n## Two words\n\n## Two words\n");
  const check = (text: string, file = "README.md") =>
    checkMarkdown(root, join(root, file), text).map((p) => `${p.at} ${p.message}`);

  it("flags ../shared and the outside design documents anywhere, code blocks included", () => {
    expect(check("see `../shared/DESIGN.md`\n```\ncat ../shared/x\n```\nAPI-SPEC.md\n")).toEqual([
      "README.md:1 mentions ../shared, which is not in the repository",
      "README.md:1 `../shared/DESIGN.md` leaves the repository",
      "README.md:3 mentions ../shared, which is not in the repository",
      "README.md:5 mentions API-SPEC.md, which is not in the repository",
    ]);
  });

  it("flags a link that leaves the repository or names nothing, and a missing heading", () => {
    expect(
      check(
        "[a](docs/guide.md) [b](docs/nope.md) [c](../x.md)\n[d](docs/guide.md#two-words-1) [e](docs/guide.md#three)\n[f]: src/gone.ts\n",
      ),
    ).toEqual([
      "README.md:1 docs/nope.md does not exist",
      "README.md:1 ../x.md leaves the repository",
      "README.md:2 docs/guide.md#three: docs/guide.md has no heading #three",
      "README.md:3 src/gone.ts does not exist",
    ]);
  });

  it("resolves links from the file's directory", () => {
    expect(check("[up](../src/a.ts) [here](guide.md#guide)\n", "docs/x.md")).toEqual([]);
    expect(check("[wrong](src/a.ts)\n", "docs/x.md")).toEqual([
      "docs/x.md:1 src/a.ts does not exist",
    ]);
  });

  it("leaves URLs, anchors, built files, placeholders and fenced examples alone", () => {
    const text = [
      "[site](https://example.org/x) [mail](mailto:a@b.c) [top](#guide)",
      "`dist/cli/main.js` `src/<kind>.ts` `config/phctl.yaml` `phctl.yaml`",
      "```sh",
      "npx phctl plan . --base ../main  # [x](nowhere.md) `src/missing.ts`",
      "```",
    ].join("\n");
    expect(check(text)).toEqual([]);
  });

  it("checks inline code paths under a top-level directory", () => {
    expect(check("`src/a.ts` and `src/b.ts`\n")).toEqual(["README.md:1 `src/b.ts` does not exist"]);
  });

  it("numbers repeated headings as GitHub does", () => {
    expect([...anchorsOf("# A `b` c!\n## A b c\n```\n# not\n```\n")]).toEqual(["a-b-c", "a-b-c-1"]);
  });
});
