/**
 * What a person sees in an editor: yaml-language-server, driven over stdio as VS Code drives
 * it, on copies of the examples with schemas/ at the same relative path as in the repository.
 * Completion at a new key under a Project's spec, at a value of visibility and inside a
 * repository item; hover on a field; diagnostics for a typo in the second document of a
 * multi-document file (its own modeline, or README's `yaml.schemas` setting instead).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LspClient, positionOf, type Position } from "./lsp-client.js";
import { copyExamples } from "../helpers/examples.js";

/** README's "Editor support" setting: the schemas for a config directory, no modeline needed. */
const README_SETTING = {
  "./schemas/manifest.schema.json": ["config/**/*.yaml", "!config/phctl.yaml"],
  "./schemas/config.schema.json": "config/phctl.yaml",
};

let dir: string;
let lsp: LspClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "phctl-lsp-"));
  copyExamples(join(dir, "examples"));
  cpSync("schemas", join(dir, "schemas"), {
    recursive: true,
    filter: (f) => !/\.(yaml|cjs)$/.test(f),
  });
  lsp = new LspClient(process.cwd());
  await lsp.start(dir, {
    validate: true,
    hover: true,
    completion: true,
    schemaStore: { enable: false },
    schemas: README_SETTING,
  });
});

afterAll(async () => {
  if (lsp) expect(await lsp.stop()).toBe(0);
  rmSync(dir, { recursive: true, force: true });
});

interface CompletionItem {
  label: string;
  documentation?: string | { value: string };
}
type Completion = CompletionItem[] | { items: CompletionItem[] };

/** Open `file` (under the copy) with `edit` applied; complete at `at` in the edited text. */
async function completeIn(
  file: string,
  edit: (text: string) => string,
  at: (text: string) => Position,
): Promise<CompletionItem[]> {
  const path = join(dir, file);
  const text = edit(readFileSync(path, "utf8"));
  const uri = lsp.open(path, text);
  const r = await lsp.request<Completion | null>("textDocument/completion", {
    textDocument: { uri },
    position: at(text),
  });
  return Array.isArray(r) ? r : (r?.items ?? []);
}

const labels = (items: CompletionItem[]) => items.map((i) => i.label);

describe("yaml-language-server on the examples", () => {
  it("completes a new key under a Project's spec with its fields", async () => {
    const items = await completeIn(
      "examples/projects/mbed-tls.yaml",
      (t) => t.replace("spec:\n", "spec:\n  \n"),
      (t) => ({ line: positionOf(t, "spec:\n").line + 1, character: 2 }),
    );
    // the fields not written yet, and none of the ones already there
    expect(labels(items)).toEqual(
      expect.arrayContaining([
        "visibility",
        "status",
        "externalContribution",
        "eccn",
        "restrictionLevel",
      ]),
    );
    expect(labels(items)).not.toContain("title");
    const eccn = items.find((i) => i.label === "eccn")!;
    expect(JSON.stringify(eccn.documentation)).toContain("Export control classification number");
  });

  it("completes a value of visibility with its enum", async () => {
    const items = await completeIn(
      "examples/projects/trusted-firmware-a.yaml",
      (t) => t.replace("visibility: public", "visibility: "),
      (t) => positionOf(t, "visibility: ", "", "visibility: ".length),
    );
    expect(labels(items).sort()).toEqual(["private", "public"]);
  });

  it("completes inside a repository item with the repository's settings", async () => {
    const items = await completeIn(
      "examples/projects/ci-tools.yaml",
      (t) => t.replace(/( {6}- name: pipelines)[^\n]*\n/, "$1\n        \n"),
      (t) => ({ line: positionOf(t, "- name: pipelines").line + 1, character: 8 }),
    );
    expect(labels(items)).toEqual(
      expect.arrayContaining([
        "issueTracking",
        "requiresDCO",
        "enableLFS",
        "enableForking",
        "forkFrom",
      ]),
    );
    expect(labels(items)).not.toContain("name");
    expect(labels(items)).not.toContain("visibility"); // a Project field, not a repository's
  });

  it("completes a Defaults layer's values with the fields of the kind it selects", async () => {
    // The examples' layers: a Repository layer first, a Project layer third. Completion is
    // asked on a new line after a value already there, as one adds a field.
    const file = "examples/defaults.yaml";
    const below = (needle: string) => (t: string) => ({
      line: positionOf(t, needle).line + 1,
      character: 4,
    });
    const repository = await completeIn(
      file,
      (t) => t.replace(/ {4}enableForking: .*\n/, "    \n    bundle: { frequency: weekly }\n"),
      below("    mergeRequests: enabled\n"),
    );
    expect(labels(repository)).toEqual(
      expect.arrayContaining(["enableForking", "requiresDCO", "issueTracking", "forkFrom"]),
    );
    for (const other of ["title", "access", "licenses", "name", "subgroup", "inherit"])
      expect(labels(repository)).not.toContain(other);
    // A file of its own: the server keeps the text a file was first opened with.
    cpSync(join(dir, file), join(dir, "examples/defaults-copy.yaml"));
    const project = await completeIn(
      "examples/defaults-copy.yaml",
      (t) =>
        t.replace(
          / {4}access:\n {6}reporters: .*\n/,
          "    description: D\n    \n    eccn: EAR99\n",
        ),
      below("    description: D\n"),
    );
    expect(labels(project)).toEqual(
      expect.arrayContaining(["title", "access", "licenses", "git", "visibility"]),
    );
    for (const other of ["enableForking", "mergeRequests", "inherit"])
      expect(labels(project)).not.toContain(other);
  });

  it("hovers a field with its name, its description and an example", async () => {
    const path = join(dir, "examples/projects/trusted-firmware-a.yaml");
    const text = readFileSync(path, "utf8");
    const uri = lsp.open(path, text);
    const hover = async (needle: string) =>
      (
        await lsp.request<{ contents: { value: string } } | null>("textDocument/hover", {
          textDocument: { uri },
          position: positionOf(text, needle),
        })
      )?.contents.value ?? "";
    const requests = await hover("mergeRequests");
    expect(requests).toMatch(/^#### mergeRequests\n/);
    expect(requests).toContain(
      "Merge requests: enabled, private (project members only) or disabled",
    );
    expect(requests).toContain("Example:");
    expect(await hover("requiresDCO")).toMatch(
      /^#### requiresDCO\n\n.*Developer Certificate of Origin/,
    );
    expect(await hover("refSpaceFrom")).toMatch(/^#### refSpaceFrom\n/);
  });

  it("reports a typo in the second document of a multi-document file", async () => {
    const path = join(dir, "examples/users/acme.yaml");
    const text = readFileSync(path, "utf8").replace("lastName: Smith", "lastNme: Smith");
    const uri = lsp.open(path, text);
    const found = await lsp.diagnosticsFor(uri, (d) => d.length > 0);
    const line = positionOf(text, "lastNme").line;
    expect(found.map((d) => [d.range.start.line, d.message])).toEqual(
      expect.arrayContaining([[line, expect.stringContaining("lastNme")]]),
    );
    // documents 1 and 3 are clean: everything found is in document 2
    const second = positionOf(text, "name: asmith").line;
    const third = positionOf(text, "name: bwong").line;
    for (const d of found) expect(d.range.start.line).toBeGreaterThan(second - 4);
    for (const d of found) expect(d.range.start.line).toBeLessThan(third);
  });

  it("a later document without its own modeline gets no help (why each carries one)", async () => {
    const path = join(dir, "examples/users/linaro-partner.yaml");
    const full = readFileSync(path, "utf8");
    // Each text under its own file: the server keeps a parse per URI and version.
    const hoverAt = async (text: string, file = path) => {
      const uri = lsp.open(file, text);
      const h = await lsp.request<{ contents: { value: string } } | null>("textDocument/hover", {
        textDocument: { uri },
        position: positionOf(text, "firstName", "name: lchen"),
      });
      lsp.notify("textDocument/didClose", { textDocument: { uri } });
      return h?.contents.value ?? "";
    };
    expect(await hoverAt(full)).toMatch(/^#### firstName\n/);
    const stripped = full.replace(/---\n# yaml-language-server:.*\n/, "---\n");
    expect(await hoverAt(stripped, join(dir, "examples/users/stripped.yaml"))).toBe("");
  });

  it("README's yaml.schemas setting does the same for a config directory without modelines", async () => {
    const config = join(dir, "config");
    mkdirSync(config, { recursive: true });
    const text = readFileSync(join(dir, "examples/users/acme.yaml"), "utf8")
      .replace(/^# yaml-language-server:.*\n/gm, "")
      .replace("lastName: Smith", "lastNme: Smith");
    writeFileSync(join(config, "users.yaml"), text);
    const uri = lsp.open(join(config, "users.yaml"), text);
    const found = await lsp.diagnosticsFor(uri, (d) => d.length > 0);
    expect(found.map((d) => d.range.start.line)).toContain(positionOf(text, "lastNme").line);
    expect(found.map((d) => d.message).join("\n")).toContain("lastNme");
  });
});
