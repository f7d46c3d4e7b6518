/** Shared helpers of the manifest tests: load a fixture and render its diagnostics. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatDiagnostic, formatSummary, summarize } from "../../src/manifest/diagnostics.js";
import type { ManifestInput } from "../../src/manifest/load.js";
import type { DesiredState, LoadResult } from "../../src/manifest/types.js";

export const CASES = "test/fixtures/manifests/cases";
export const GOLDEN = "test/golden/manifest";
export const EXAMPLES = "examples";

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
    text(`examples/${f}`, readFileSync(join(EXAMPLES, f), "utf8"), f === "phctl.yaml"),
  );
}

/** A state without any source positions (to compare loads of differently laid-out files). */
export function withoutSources(state: DesiredState | undefined): unknown {
  return JSON.parse(
    JSON.stringify(state, (k, v: unknown) => (k === "source" || k === "sources" ? undefined : v)),
  );
}
