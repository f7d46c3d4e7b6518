/**
 * The escaping of hidden characters (src/visible.ts): every bidi control, zero-width
 * and control character becomes a visible `\uXXXX`; letters of any script and emoji stay.
 */
import { describe, expect, it } from "vitest";
import {
  escapeHidden,
  escapeHiddenLines,
  escapeJsonText,
  visibleJson,
  visibleText,
} from "../../src/visible.js";
import { rawAt } from "../helpers/hidden.js";

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Every code point the README promises to escape. */
const ESCAPED = [
  ...range(0x202a, 0x202e), // LRE RLE PDF LRO RLO
  ...range(0x2066, 0x2069), // LRI RLI FSI PDI
  0x200e,
  0x200f,
  0x061c, // LRM RLM ALM
  ...range(0x200b, 0x200d), // ZWSP ZWNJ ZWJ
  0x2028,
  0x2029,
  0xfeff,
  ...range(0x2060, 0x2064),
  0x00ad,
  ...range(0x0000, 0x001f),
  0x007f,
  ...range(0x0080, 0x009f),
];

const hex = (n: number) => n.toString(16).padStart(4, "0");

describe("escapeHidden", () => {
  it.each(ESCAPED.map((n) => [`U+${hex(n).toUpperCase()}`, n]))(
    "%s becomes \\u%s, nothing of it left raw",
    (_name, n) => {
      const s = `a${String.fromCharCode(n)}b`;
      expect(escapeHidden(s)).toBe(`a\\u${hex(n)}b`);
      expect(visibleText(s)).toBe(`a\\u${hex(n)}b`);
    },
  );

  it("a hidden character beyond U+FFFF is written as its two JSON halves", () => {
    expect(escapeHidden("x\u{E0001}y")).toBe("x\\udb40\\udc01y");
    expect(JSON.parse(`"${escapeHidden("x\u{E0001}y")}"`)).toBe("x\u{E0001}y");
  });

  it("a lone surrogate is escaped, a pair (an emoji) is not", () => {
    expect(escapeHidden("a\ud800b")).toBe("a\\ud800b");
    expect(escapeHidden("a😀b")).toBe("a😀b");
  });

  it.each([
    ["Arabic", "مشروع البرمجيات الآمنة"],
    ["Hebrew", "תוכנה מאובטחת"],
    ["Persian digits and letters", "پروژه ۱۲۳"],
    ["CJK", "安全的固件"],
    ["Devanagari", "सुरक्षित फर्मवेयर"],
    ["accents and spaces", "Café  crème — naïve\u00a0déjà vu"],
    ["emoji", "🚀 ✅ ❤️ 👍🏽"],
    ["emoji joined by U+200D", "👩‍💻 👨‍👩‍👧 🏳️‍🌈 🧑🏽‍🚀"],
    ["a subdivision flag", "🏴󠁧󠁢󠁥󠁮󠁧󠁿"],
    ["a backslash", "C:\\users\\x"],
  ])("%s is left as it is", (_name, s) => {
    expect(escapeHidden(s)).toBe(s);
  });

  it("a U+200D that joins no emoji is escaped", () => {
    expect(escapeHidden("ad\u200dmin")).toBe("ad\\u200dmin");
    expect(escapeHidden("👩\u200d")).toBe("👩\\u200d");
  });

  it("applied twice changes nothing", () => {
    const s = "x\u202ey\u2067z\u200f\u061c\n";
    expect(escapeHidden(escapeHidden(s))).toBe(escapeHidden(s));
  });

  it("escapeHiddenLines keeps line breaks and escapes the rest", () => {
    expect(escapeHiddenLines("one \u202e\ntwo\r")).toBe("one \\u202e\ntwo\\u000d");
  });
});

describe("visibleText", () => {
  it("doubles backslashes, so a literal \\u202e never reads as an escaped U+202E", () => {
    expect(visibleText("a\u202eb")).toBe("a\\u202eb");
    expect(visibleText("a\\u202eb")).toBe("a\\\\u202eb");
    expect(visibleText("a\\b")).toBe("a\\\\b");
    expect(visibleText("a\u202eb")).not.toBe(visibleText("a\\u202eb"));
  });
});

describe("visibleJson", () => {
  it.each([
    "evil\u202e\u2067\u200f\u061ctxt",
    "a\\u202e literal",
    "line\nbreak\u2028and\u0085",
    "מאובטחת 🚀",
  ])("is JSON that parses back to the value, with no raw hidden character: %j", (s) => {
    const shown = visibleJson(s);
    expect(JSON.parse(shown)).toBe(s);
    expect(rawAt(shown)).toBe("");
  });

  it("an escaped character and a literal backslash-u are told apart", () => {
    expect(visibleJson("\u202e")).toBe('"\\u202e"');
    expect(visibleJson("\\u202e")).toBe('"\\\\u202e"');
  });
});

describe("escapeJsonText", () => {
  it("escapes inside the strings of indented JSON, keeps its own line breaks, reads back the same", () => {
    const value = { a: `x\u202e\ny`, list: ["\u2067", "plain 🚀"], "k\u200f": 1 };
    const text = escapeJsonText(JSON.stringify(value, null, 2));
    expect(rawAt(text)).toBe("");
    expect(text.split("\n")).toHaveLength(JSON.stringify(value, null, 2).split("\n").length);
    expect(JSON.parse(text)).toEqual(value);
  });
});
