/** What loading a config gives (src/pipeline/load.ts): the state and what every room found. */
import type { LayersResult } from "../layers/effective.js";
import type { Diagnostic, DesiredState, ManifestConfig } from "../manifest/types.js";
import type { CompiledPolicy, Violation } from "../policy/types.js";

/** What loadManifests returns: `state` is undefined when any diagnostic is an error. */
export interface LoadResult {
  state: DesiredState | undefined;
  diagnostics: Diagnostic[];
  /** Files read, relative to the current directory, sorted. */
  files: string[];
  /** phctl.yaml's settings, also when the manifests have errors (validate checks apiProfile). */
  config?: ManifestConfig;
  /** The Defaults layers and the objects they changed (explain, render, the blast radius). */
  layers?: LayersResult;
  /** The compiled `kind: Policy` documents (src/policy/); for change and live rules. */
  policies?: CompiledPolicy[];
  /** Object rules that do not hold: apart from diagnostics, so a plan is still made. */
  violations?: Violation[];
}
