/** The manifest loader's public surface: load, diagnostics, keys, schemas, state types. */
export { loadManifests, loadManifestTexts, type LoadOptions, type ManifestInput } from "./load.js";
export {
  formatDiagnostic,
  formatSummary,
  summarize,
  type DiagnosticSummary,
} from "./diagnostics.js";
export * as keys from "./keys.js";
export type * from "./types.js";
