/**
 * Tests never depend on the state a user's own run leaves in the checkout (issue 36, item 9):
 * the README's quick start applies examples/ in place, which leaves examples/.phctl/ (the
 * embedded database, the journal and its lock), and a test copying examples/ along with it
 * started from that state (EEXIST on a lock, a journal where none was expected). Every copy
 * of examples/ goes through test/helpers/examples.ts, which leaves `.phctl/` out.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { copyExamples, EXAMPLES_DIR } from "../helpers/examples.js";

const ROOT = resolve(import.meta.dirname, "../..");

/** Every file under `dir` with one of the extensions, skipping node_modules and dot-dirs. */
function sources(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return d.name === "node_modules" || d.name.startsWith(".") ? [] : sources(p, ext); // prettier-ignore
    return ext.test(d.name) ? [p] : [];
  });
}

describe("copies of examples/", () => {
  it("leave out .phctl/ (the state the quick start leaves), and keep everything else", () => {
    // A checkout after `npx phctl apply examples/ --auto-approve`: examples/.phctl holds a
    // database, a journal and a lock (a lock whose process is gone, as the user's run left it).
    const checkout = mkdtempSync(join(tmpdir(), "phctl-copy-examples-"));
    const from = join(checkout, "examples");
    copyExamples(from);
    mkdirSync(join(from, ".phctl"));
    for (const f of ["embedded.sqlite", "journal.jsonl", "journal.jsonl.lock"])
      writeFileSync(join(from, ".phctl", f), "left by the user's run\n");
    mkdirSync(join(from, "projects", ".phctl"));

    const to = join(mkdtempSync(join(tmpdir(), "phctl-copy-examples-")), "examples");
    copyExamples(to, from);
    expect(existsSync(join(to, ".phctl"))).toBe(false);
    expect(existsSync(join(to, "projects", ".phctl"))).toBe(false);
    const files = (d: string) =>
      sources(d, /./)
        .map((p) => relative(d, p))
        .sort();
    expect(files(to)).toEqual(files(EXAMPLES_DIR));
    expect(files(to)).toContain("phctl.yaml");
    expect(readFileSync(join(to, "phctl.yaml"), "utf8")).toBe(
      readFileSync(join(EXAMPLES_DIR, "phctl.yaml"), "utf8"),
    );
    // Dot-files that belong to the config (its .gitignore, the workflow templates) are kept.
    expect(existsSync(join(to, ".gitignore"))).toBe(true);
    expect(existsSync(join(to, ".github", "workflows"))).toBe(true);
  });

  it("every test and benchmark copies examples/ through the helper", () => {
    const raw: string[] = [];
    for (const file of sources(join(ROOT, "test"), /\.ts$/).concat(
      sources(join(ROOT, "bench"), /\.ts$/),
    )) {
      if (file.endsWith(join("helpers", "examples.ts"))) continue;
      const text = readFileSync(file, "utf8");
      // Names bound to the repository's examples/ in this file (`const EXAMPLES = resolve(…, "../../examples")`).
      const bound = [...text.matchAll(/\bconst (\w+) = (?:resolve|join)\([^)]*["'](?:\.\.\/)*examples["']\)/g)].map((m) => m[1]); // prettier-ignore
      for (const m of text.matchAll(/\bcp(?:Sync)?\(\s*([^,]+?)\s*,/g)) {
        const src = m[1];
        const repoExamples =
          /^["'](?:\.\/)?examples\/?["']$/.test(src) ||
          /^(?:join|resolve)\([^)]*["'](?:\.\.\/)*examples["']\)$/.test(src) ||
          bound.includes(src);
        if (repoExamples) raw.push(`${relative(ROOT, file)}: cpSync(${src}, …)`);
      }
    }
    expect(raw, "use copyExamples() from test/helpers/examples.ts").toEqual([]);
  });
});
