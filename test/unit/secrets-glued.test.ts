/**
 * Issue 34, defect 3: a token is masked by its own shape wherever it starts — right after a
 * letter, a digit, `_`, `%3D` (a URL-encoded `=`), a newline or a tab, and inside the
 * JSON-escaped text of a value (`\n` and `\t` there are letters) — and a registered
 * credential in its URL-encoded and JSON-escaped forms too. `credentialIn` (what adopt and
 * validate ask) sees the same, and a value that already holds a mask. The reference
 * server's development token has a shape too; `phctl serve` alone shows it.
 */
import { PassThrough } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  credentialIn,
  guardOutput,
  redact,
  redactValue,
  registerSecret,
  writeUnmasked,
} from "../../src/secrets.js";

const GHP = `ghp_${"A1b2C3d4E5".repeat(4)}`;
const GHO = `gho_${"Zz9Yy8Xx7W".repeat(4)}`;
const PAT = `github_pat_11ABCDEFG0${"a1B2c3".repeat(4)}_${"Q".repeat(20)}`;
const GLPAT = "glpat-Xy9_abcDEFghiJKLmno12";
/** The reference server's development token (`phctl serve` prints one of this shape). */
const DEV = `phdev_${"0123456789abcdef01".repeat(2)}`;

/** [token, its mask] */
const SHAPES: [string, string][] = [
  [GHP, "ghp_***"],
  [GHO, "gho_***"],
  [PAT, "github_pat_***"],
  [GLPAT, "glpat-***"],
  [DEV, "phdev_***"],
];
/** [what comes before, the text before the token] */
const BEFORE: [string, string][] = [
  ["a letter", "key"],
  ["a digit", "v2"],
  ["_", "TOKEN_"],
  ["%3D", "https://ci.example/hook?token%3D"],
  ["a newline", "first line\n"],
  ["a tab", "name\t"],
  ["a space", "token "],
];

describe("a token glued to what comes before it", () => {
  for (const [token, masked] of SHAPES)
    for (const [what, before] of BEFORE)
      it(`${masked} after ${what}`, () => {
        expect(redact(`${before}${token} end`)).toBe(`${before}${masked} end`);
        expect(credentialIn(`${before}${token}`)).toBeDefined();
        // The same value as JSON text (a saved plan, adopt's check): `\n` is then a letter.
        const json = JSON.stringify({ description: `${before}${token}` });
        expect(redact(json)).toBe(JSON.stringify({ description: `${before}${masked}` }));
        expect(credentialIn(json)).toBeDefined();
        expect(redactValue({ d: [`${before}${token}`] })).toEqual({ d: [`${before}${masked}`] });
      });

  it("a token glued to another: both are masked, no part of either body shows", () => {
    expect(redact(`${GHP}${GLPAT}`)).toBe("ghp_***glpat-***");
    expect(redact(`${GHP}${GHO}`)).toBe("ghp_***gho_***");
    expect(redact(`${GHP}${PAT}${DEV}`)).toBe("ghp_***github_pat_***");
    expect(redact(`${PAT}${GLPAT}`)).toBe("github_pat_***glpat-***");
    expect(redact(`${GLPAT}${GHP}`)).toBe("glpat-******");
    expect(redact(`${DEV}${GHP}`)).toBe("phdev_***ghp_***");
    expect(redact(`x${GHP}.`)).toBe("xghp_***.");
  });

  it("a body of millions of characters is masked whole (no stack overflow)", () => {
    const run = "a".repeat(8_000_000);
    for (const prefix of ["ghp_", "github_pat_", "glpat-", "phdev_"])
      expect(redact(`x ${prefix}${run}.`)).toBe(`x ${prefix}***.`);
  });

  it("a slug's body is left alone and anything else masked, for any body, long ones too", () => {
    // The definition a slug had as a regular expression; the mask now scans instead.
    const slug = /^[a-z0-9]+(?:-[a-z0-9]+)+$/;
    const body = fc.string({ unit: fc.constantFrom(..."ab9-Z_"), minLength: 20, maxLength: 40 });
    fc.assert(
      fc.property(body, (b) => {
        expect(redact(`x glpat-${b} y`)).toBe(slug.test(b) ? `x glpat-${b} y` : "x glpat-*** y");
      }),
      { numRuns: 500 },
    );
    const longSlug = `${"abc-".repeat(2_000_000)}z`;
    expect(redact(`glpat-${longSlug}`)).toBe(`glpat-${longSlug}`);
    expect(redact(`glpat-${longSlug}-`)).toBe("glpat-***");
  });

  it("still leaves ordinary words, short look-alikes and slugs alone", () => {
    for (const w of [
      "ghp_short123",
      "xglpat-migration-tools-2024",
      "gh_pages high_score laughs_a_lot",
      "phdev_ alone, phdev_abc",
      "glpat-x",
    ]) {
      expect(redact(w)).toBe(w);
      expect(credentialIn(w)).toBeUndefined();
    }
  });
});

describe("a registered credential in any form", () => {
  const secret = "reg/tok+en=Qm7Lz2Rk9Vw4";
  registerSecret(secret);
  const forms: [string, string][] = [
    ["as it is, glued", `x${secret}y`],
    ["URL-encoded", `?t%3D${encodeURIComponent(secret)}&`],
    [
      "URL-encoded, lower-case hex",
      `?t=${encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}&`,
    ],
    ["form-encoded", new URLSearchParams({ t: secret }).toString()],
    ["JSON-escaped", JSON.stringify({ t: `a\n${secret}` })],
    ["JSON-escaped with \\/", JSON.stringify({ t: secret }).replaceAll("/", "\\/")],
  ];
  for (const [what, text] of forms)
    it(what, () => {
      const out = redact(text);
      expect(out).toContain("***");
      for (const part of ["Qm7Lz2Rk9Vw4", "reg/tok", "reg%2F"]) expect(out).not.toContain(part);
      expect(credentialIn(text)).toBe("a token phctl is using");
    });

  it("a JSON-escaped registered secret with a quote stays valid JSON", () => {
    registerSecret('quo"ted-Hp3Xc8Tn1Jd6');
    const text = JSON.stringify({ a: 'x quo"ted-Hp3Xc8Tn1Jd6 y' });
    expect(JSON.parse(redact(text))).toEqual({ a: "x *** y" });
  });
});

describe("a value that already holds a mask", () => {
  it("is a credential to adopt (it would be written into a manifest), named as masked", () => {
    expect(credentialIn("deploy ghp_*** now")).toBe("a masked GitHub token (ghp_***)");
    expect(credentialIn('["line\\nglpat-***"]')).toBe("a masked GitLab token (glpat-***)");
    expect(credentialIn("xgithub_pat_***")).toBe("a masked GitHub token (github_pat_***)");
    expect(credentialIn("phdev_***")).toBe("a masked token of the service (phdev_***)");
    // A mask is not masked again.
    expect(redact("deploy ghp_*** now")).toBe("deploy ghp_*** now");
  });
});

describe("the development token phctl serve prints", () => {
  it("is masked by a guarded stream, and shown only through writeUnmasked", () => {
    const stream = new PassThrough() as unknown as NodeJS.WriteStream;
    const seen: string[] = [];
    (stream as unknown as PassThrough).on("data", (c: Buffer) => seen.push(String(c)));
    guardOutput(stream);
    stream.write(`PHCTL_TOKEN=${DEV}\n`);
    writeUnmasked(stream, `PHCTL_TOKEN=${DEV}\n`);
    expect(seen).toEqual(["PHCTL_TOKEN=phdev_***\n", `PHCTL_TOKEN=${DEV}\n`]);
  });
});
