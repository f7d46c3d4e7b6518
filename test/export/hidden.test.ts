/**
 * Export's YAML writer and drift --adopt's in-place edits with hidden characters (bidi
 * controls, zero-width, C1 controls) in live values: written as double-quoted scalars with
 * visible escapes (`"\u202e"`), read back as the exact value.
 */
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { DocText } from "../../src/adopt/doc-text.js";
import { flowText, scalarText } from "../../src/adopt/render.js";
import type { ExportDocument } from "../../src/export/documents.js";
import { manifestFile } from "../../src/export/yaml.js";
import { EVIL, rawAt, SHOWN } from "../helpers/hidden.js";

const ODD = [
  `Trusted${EVIL} Firmware`,
  "zero\u200bwidth and\u00a0no-break",
  "C1\u0085next line",
  "a tag \u{E0041} beyond U+FFFF",
  "a literal \\u202e, not the character",
  "tab\tand \u202e",
];

function project(values: string[]): ExportDocument {
  return {
    kind: "Project",
    name: "p",
    value: {
      apiVersion: "phctl.dev/v1",
      kind: "Project",
      metadata: { name: "p" },
      spec: {
        title: values[0],
        description: values.join(" | "),
        labels: values,
        teams: Object.fromEntries(values.map((v, i) => [v, i])),
        notes: "two\nlines",
      },
    },
    comments: [{ path: ["spec", "title"], text: `was ${values[0]}` }],
  };
}

describe("export writes hidden characters escaped", () => {
  it("as double-quoted scalars with \\u escapes, and reads back as the exact values", () => {
    const doc = project(ODD);
    const text = manifestFile("schemas/manifest.schema.json", [`of ${EVIL}`], [doc]);
    expect(rawAt(text)).toBe("");
    expect(text).toContain(`title: "Trusted${SHOWN} Firmware"`);
    expect(text).toContain('"a tag \\U000e0041 beyond U+FFFF"');
    expect(text).toContain("notes: |-\n"); // a plain line break still makes a block scalar
    const back = parseAllDocuments(text).map((d) => d.toJS() as unknown);
    expect(back).toEqual([doc.value]);
  });

  it("leaves other values as they were", () => {
    const doc = project(["Trusted Firmware", "Café 🚀 👩‍💻 مشروع"]);
    const text = manifestFile("schemas/manifest.schema.json", [], [doc]);
    expect(text).toContain("title: Trusted Firmware # was Trusted Firmware\n");
    expect(text).toContain("Café 🚀 👩‍💻 مشروع");
  });
});

describe("drift --adopt writes hidden characters escaped", () => {
  it.each(ODD)("%j as a double-quoted scalar that reads back as the value", (v) => {
    for (const text of [scalarText(v), scalarText(v, true), flowText([v]), flowText({ [v]: v })]) {
      expect(rawAt(text)).toBe("");
      const back = parseAllDocuments(`x: ${text}\n`)[0].toJS() as { x: unknown };
      expect(back.x).toEqual(text.startsWith("[") ? [v] : text.startsWith("{") ? { [v]: v } : v);
    }
  });
});

describe("drift --adopt edits in place", () => {
  const doc = `spec:\n  title: "Quoted"\n  description: 'single'\n  subtitle: plain # kept\n`;
  it("a live value with hidden characters replaces a double-, single-quoted or plain one escaped", () => {
    const d = new DocText(doc);
    for (const k of ["title", "description", "subtitle"]) d.set(["spec", k], `x${EVIL}y`);
    expect(d.text).toBe(
      `spec:\n  title: "x${SHOWN}y"\n  description: "x${SHOWN}y"\n  subtitle: "x${SHOWN}y" # kept\n`,
    );
    expect(d.value()).toEqual({
      spec: { title: `x${EVIL}y`, description: `x${EVIL}y`, subtitle: `x${EVIL}y` },
    });
  });
});
