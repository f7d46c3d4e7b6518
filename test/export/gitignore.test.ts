/**
 * `phctl export` writes a `.gitignore` for `.phctl/` (issue 36, item 8): a plan or apply of the
 * exported directory keeps its state there (the embedded database, the journal and its lock),
 * which must never be committed. A `.gitignore` already in a forced target keeps its lines.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gitignoreText, writeExport } from "../../src/export/write.js";

const FILES = [{ path: "phctl.yaml", text: "organization: acme\n" }];
const temp = () => mkdtempSync(join(tmpdir(), "phctl-export-gitignore-"));

describe("export's .gitignore", () => {
  it("a new directory gets one that ignores .phctl/", () => {
    const out = join(temp(), "acme");
    expect(writeExport(out, FILES, false, { gitignore: true })).toEqual({ gitignore: true });
    const text = readFileSync(join(out, ".gitignore"), "utf8");
    expect(text.split("\n")).toContain(".phctl/");
    expect(text).toMatch(/^# phctl's state beside phctl\.yaml/);
  });

  it("with --force, one already there keeps its lines and gets .phctl/; one that has it is left alone", () => {
    const out = join(temp(), "busy");
    mkdirSync(out);
    writeFileSync(join(out, ".gitignore"), "node_modules/\n*.log");
    writeExport(out, FILES, true, { gitignore: true });
    const text = readFileSync(join(out, ".gitignore"), "utf8");
    expect(text.startsWith("node_modules/\n*.log\n# phctl's state")).toBe(true);
    expect(text.endsWith(".phctl/\n")).toBe(true);
    // A second export changes nothing in it.
    expect(writeExport(out, FILES, true, { gitignore: true })).toEqual({ gitignore: false });
    expect(readFileSync(join(out, ".gitignore"), "utf8")).toBe(text);
    expect(gitignoreText("/.phctl\n")).toBeUndefined();
  });

  it("render (the same writer, without the option) writes none", () => {
    const out = join(temp(), "rendered");
    writeExport(out, FILES, false);
    expect(existsSync(join(out, ".gitignore"))).toBe(false);
  });
});
