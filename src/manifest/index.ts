/**
 * The manifest room's public surface: inputs, diagnostics, keys, state types. Loading a whole
 * config (layers and policies included) is src/pipeline/load.ts.
 */
export { type LoadOptions, type ManifestInput } from "./load.js";
export {
  formatDiagnostic,
  formatSummary,
  summarize,
  type DiagnosticSummary,
} from "./diagnostics.js";
export * as keys from "./keys.js";
export type * from "./types.js";
