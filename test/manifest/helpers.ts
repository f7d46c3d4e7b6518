/** Shared helpers of the manifest tests: load a fixture and render its diagnostics. */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { join } from "node:path";
import { formatDiagnostic, formatSummary, summarize } from "../../src/manifest/diagnostics.js";
import type { ManifestInput } from "../../src/manifest/load.js";
import type { DesiredState } from "../../src/manifest/types.js";
import type { LoadResult } from "../../src/pipeline/types.js";

/** fast-check runs per property: PHCTL_FC_RUNS, else the file's own default. */
export const fcRuns = (dflt: number) => Number(process.env.PHCTL_FC_RUNS ?? dflt);

export const CASES = "test/fixtures/manifests/cases";
export const GOLDEN = "test/golden/manifest";
export const EXAMPLES = "examples";
export const FLAT_EXAMPLES = "test/fixtures/examples-flat";

/** Diagnostics and summary as `phctl validate` prints them. */
export function render(r: LoadResult): string {
  return (
    [
      ...r.diagnostics.map(formatDiagnostic),
      formatSummary(summarize(r.diagnostics, r.files.length)),
    ].join("\n") + "\n"
  );
}

/** One in-memory manifest file. */
export const text = (file: string, content: string, config = false): ManifestInput => ({
  file,
  content,
  config,
});

/** Every YAML document of the examples as text, with the file it came from. */
export function exampleFiles(): ManifestInput[] {
  const files = [
    "phctl.yaml",
    "organizations.yaml",
    "teams.yaml",
    "users/acme.yaml",
    "users/linaro-partner.yaml",
    "projects/trusted-firmware-a.yaml",
    "projects/mbed-tls.yaml",
    "projects/ci-tools.yaml",
  ];
  return files.map((f) =>
    // The flat copy of the examples (no layers, no policies): these tests are about loading
    // and normalising manifests; the layers have their own (test/layers).
    text(`examples/${f}`, readFileSync(join(FLAT_EXAMPLES, f), "utf8"), f === "phctl.yaml"),
  );
}

/** A state without any source positions (to compare loads of differently laid-out files). */
export function withoutSources(state: DesiredState | undefined): unknown {
  return JSON.parse(
    JSON.stringify(state, (k, v: unknown) => (k === "source" || k === "sources" ? undefined : v)),
  );
}

/** Bits of YAML and of manifests that random text is made of. */
export const YAML_BITS = [
  "apiVersion: phctl/v1",
  "kind: Project",
  "kind: User",
  "metadata:",
  "  name: x",
  "spec:",
  "  title: T",
  "- a",
  "- ",
  "&a ",
  "*a",
  "*b",
  "---",
  "...",
  "  ",
  "\t",
  ": ",
  "[",
  "]",
  "{",
  "}",
  '"',
  "'",
  "# c",
  "<<: *a",
  "!!binary ",
  "!tag ",
  "%YAML 1.2",
  "? x",
  "|",
  ">",
  ",",
  "\n",
  "\r\n",
  "é",
  "\u0000",
  "\ufeff",
  "0x1F",
  "~",
  "null",
  "yes",
  "1e3",
];

/** One edit of a file's text: delete, insert a YAML bit, swap or duplicate lines. */
export const textMutation = fc.oneof(
  fc.record({ op: fc.constant("delete" as const), at: fc.nat(), len: fc.nat({ max: 40 }) }),
  fc.record({ op: fc.constant("insert" as const), at: fc.nat(), s: fc.constantFrom(...YAML_BITS) }),
  fc.record({ op: fc.constant("swap" as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ op: fc.constant("dup" as const), a: fc.nat() }),
);
export type TextMutation = typeof textMutation extends fc.Arbitrary<infer T> ? T : never;

/** `s` with the edits applied in order. */
export function mutateText(s: string, ms: readonly TextMutation[]): string {
  for (const m of ms) {
    if (m.op === "delete") {
      const at = m.at % (s.length + 1);
      s = s.slice(0, at) + s.slice(at + m.len);
    } else if (m.op === "insert") {
      const at = m.at % (s.length + 1);
      s = s.slice(0, at) + m.s + s.slice(at);
    } else {
      const lines = s.split("\n");
      const a = m.a % lines.length;
      if (m.op === "dup") lines.splice(a, 0, lines[a]);
      else {
        const b = m.b % lines.length;
        [lines[a], lines[b]] = [lines[b], lines[a]];
      }
      s = lines.join("\n");
    }
  }
  return s;
}

/** Nested YAML-able values: `leaf`s in lists of at most `width` items and maps of `width` keys. */
export function yamlTree(
  key: fc.Arbitrary<string>,
  leaf: fc.Arbitrary<unknown>,
  width: number,
): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      leaf,
      fc.array(tie("node"), { maxLength: width }),
      fc.dictionary(key, tie("node"), { maxKeys: width }),
    ),
  })).node;
}

/** One to three documents, each a map of 1..`maxKeys` keys. */
export const yamlDocuments = (
  key: fc.Arbitrary<string>,
  value: fc.Arbitrary<unknown>,
  maxKeys: number,
) => fc.array(fc.dictionary(key, value, { minKeys: 1, maxKeys }), { minLength: 1, maxLength: 3 });
