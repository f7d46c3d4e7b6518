/**
 * scalarSourceOffset (issue 35, item 11): each character of a scalar's value is found at its
 * place in the file, whatever the style — escapes in double quotes, `''` in single quotes,
 * folded plain and quoted lines, `|` and `>` blocks. The values come from an independent
 * YAML parser (the `yaml` package), so the test does not trust the walker's own decoding.
 */
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { scalarSourceOffset } from "../../src/manifest/scalar-source.js";

/** `key: <scalar>` documents: the scalar starts after `key: `. */
const CASES: Record<string, string> = {
  double: 'x: "a.matches(\\"^a\\\\\\\\d\\") && b == \\"\\u00e9\\" && c\\td \\x41\\U0001F600z"\n',
  doubleFolded: 'x: "first  \n   second\n\n   third \\\n   fourth"\n',
  single: "x: 'it''s ''q'' &&\n  next  line'\n",
  plain: "x: alpha ==\n  beta &&\n\n  gamma # comment\n",
  literal: "x: |\n  one\n    two\n\n  three\n",
  folded: "x: >-\n  one\n  two\n\n  three\n    more\n  four\n",
  tagged: 'x: !!str "a\\"b"\n',
  crlf: 'x: "a\\"b\r\n  c"\r\n',
};

/** Each index of the value → its offset; the character (or escape) there. */
function walk(text: string) {
  const value = String((parse(text) as { x: string }).x);
  const start = text.indexOf(":") + 2;
  return { value, at: (i: number) => scalarSourceOffset(text, start, value, i) };
}

describe("scalarSourceOffset", () => {
  for (const [name, text] of Object.entries(CASES))
    it(`finds every character of a ${name} scalar`, () => {
      const { value, at } = walk(text);
      for (let i = 0; i < value.trimEnd().length; i++) {
        const off = at(i);
        expect(off, `${name}[${i}] ${JSON.stringify(value[i])}`).toBeDefined();
        const c = value[i];
        const src = text[off!];
        if (c === " " || c === "\n") {
          // A folded line break stands for the break (or the white space before it).
          if (src !== c) expect([" ", "\n", "\r", "\\"]).toContain(src);
        } else if (src !== c) {
          // An escape: the backslash; `''`: its first quote; an astral escape's second half.
          expect(src === "\\" || (c === "'" && src === "'") || /[\udc00-\udfff]/.test(c)).toBe(
            true,
          );
        }
      }
    });

  it("counts each escape as its source width", () => {
    const text = CASES.double;
    const { value, at } = walk(text);
    expect(at(value.indexOf("&& b"))).toBe(text.indexOf("&& b"));
    expect(at(value.indexOf("é"))).toBe(text.indexOf("\\u00e9"));
    expect(at(value.indexOf("z"))).toBe(text.indexOf("z"));
  });

  it("maps a folded line to its own line in the file", () => {
    for (const name of ["plain", "single", "folded", "literal", "doubleFolded"]) {
      const text = CASES[name];
      const { value, at } = walk(text);
      for (const word of ["beta", "next", "three", "two", "second", "third", "fourth"]) {
        if (!value.includes(word)) continue;
        expect(at(value.indexOf(word)), `${name} ${word}`).toBe(text.indexOf(word));
      }
    }
  });

  it("just past the last character for the value's end; undefined for another value", () => {
    const text = CASES.literal;
    const { value, at } = walk(text);
    expect(at(value.length)).toBe(text.lastIndexOf("three") + 5);
    expect(scalarSourceOffset(text, 3, "not this", 2)).toBeUndefined();
  });
});
