/**
 * The loading pipeline, above the rooms it runs: files (src/manifest: read, parse, schema) →
 * layers (src/layers: effective objects, the source of every value) → cross-reference rules
 * and policies (src/policy: object rules) → DesiredState. Each of those rooms depends only on
 * the rooms below it; this one sees them all, so none of them has to see another above it.
 * Problems are diagnostics (all of them, sorted), never thrown; only a path that does not
 * exist is a (typed) user error.
 */
import { applyLayers, attributeToLayers } from "../layers/effective.js";
import { layerFieldSources } from "../layers/field-sources.js";
import { unreadObjects } from "../layers/unread.js";
import {
  collectDocuments,
  profileFile,
  readInputs,
  ruleContext,
  type Collected,
  type LoadOptions,
  type ManifestInput,
} from "../manifest/load.js";
import { sortDiagnostics } from "../manifest/diagnostics.js";
import { normalise } from "../manifest/normalise.js";
import { runRules } from "../manifest/rules/index.js";
import type { Diagnostic } from "../manifest/types.js";
import { hasRatchet } from "../policy/ratchet.js";
import { policyNow, policyPass, type PolicyPassOptions } from "../policy/load-pass.js";
import { applyExpiry, expiryPass } from "../expiry/index.js";
import { partialDiagnostics } from "./partial.js";
import type { LoadResult } from "./types.js";

export type { LoadOptions, ManifestInput };
export type { LoadResult };

/** Load manifests from already-read contents (no file system). */
export function loadManifestTexts(
  inputs: readonly ManifestInput[],
  opts: LoadOptions = {},
  release = false,
): LoadResult {
  const read = collectDocuments(inputs, opts, release);
  const profile = profileFile(read.config, opts.cwd);
  const files = inputs.filter((i) => !profile?.(i.file)).map((i) => i.file);
  return settleDocuments(read, files, { release, policy: opts });
}

/**
 * Collected documents → the load's result: layers (every object with the Defaults that select
 * it merged in; the rest sees these), cross-reference rules, then the state — unless an error,
 * `extra` (the file system's) included, stops it. `plan --base` settles each side this way too.
 */
export function settleDocuments(
  read: Collected,
  files: readonly string[],
  o: { release?: boolean; extra?: readonly Diagnostic[]; policy?: PolicyPassOptions } = {},
): LoadResult {
  // Objects that did not load: a selector may choose them, so "matches nothing" is not said.
  const unread = unreadObjects(read.diagnostics);
  const layers = applyLayers(read.valid, read.config, unread);
  const collected: Collected = { ...read, valid: layers.docs };
  // Today: read once here (PHCTL_NOW in tests), for exceptions and for grants that expire.
  const now = o.policy?.now ?? policyNow();
  const expiry = expiryPass(collected.valid, collected.config, now);
  // Policies: compile errors are diagnostics; violations stay apart (the plan is still made).
  const policy = policyPass(collected.valid, collected.config, { ...o.policy, now, unread });
  const diagnostics = sortDiagnostics([
    ...collected.diagnostics,
    ...attributeToLayers(
      [...layers.diagnostics, ...runRules(ruleContext(collected)), ...expiry.diagnostics],
      layers,
    ),
    ...policy.diagnostics,
    ...partialDiagnostics(read, o.policy),
    ...(o.extra ?? []),
  ]);
  const state = diagnostics.some((d) => d.severity === "error")
    ? undefined
    : normalise(collected.valid, collected.config, {
        // Ratchet rules are judged on the documents at plan time, and change rules read the
        // declared users (`users`) from them: those are kept.
        release:
          o.release === true &&
          !hasRatchet(policy.policies) &&
          !policy.policies.some((p) => p.scope === "change"),
      });
  if (state) applyExpiry(state, expiry.grants, expiry.today);
  if (state && layers.layered.size > 0) state.layerSources = layerFieldSources(layers.layered);
  if (state && layers.layers.length > 0) state.layers = layers.layers;
  return {
    state,
    layers,
    diagnostics,
    files: [...files].sort(),
    config: collected.config,
    policies: policy.policies,
    violations: policy.violations,
  };
}

/**
 * Load the manifests under `paths` (files or directories; default `.`). Throws a user error
 * only for a path that does not exist; everything else is a diagnostic.
 */
export async function loadManifests(
  paths: readonly string[],
  opts: LoadOptions = {},
): Promise<LoadResult> {
  const { inputs, diagnostics: extra } = await readInputs(paths, opts.cwd ?? process.cwd());
  const result = loadManifestTexts(inputs, opts, true);
  if (extra.length === 0) return result;
  const failed = extra.some((d) => d.severity === "error");
  return {
    ...result,
    state: failed ? undefined : result.state,
    diagnostics: sortDiagnostics([...result.diagnostics, ...extra]),
  };
}
