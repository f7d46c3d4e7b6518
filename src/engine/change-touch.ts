/**
 * What a change of the config touches, computed once from its three sources alike: the
 * manifests' objects (src/engine/scope.ts: declarations and the facts others read of them),
 * the Defaults documents (src/engine/layer-impact.ts: a document added, removed or altered
 * touches what its old or new selector matches) and the Policy documents
 * (src/engine/policy-impact.ts: a policy added, removed or altered judges what its old or new
 * selector chooses). `plan --base` asks it twice — the pull request (base → head) and what was
 * merged and never applied (applied → base) — and `apply --reviewed --applied` once. Pure.
 */
import type { LayerSummary } from "../manifest/types.js";
import type { DesiredState } from "../manifest/types.js";
import { changedLayers } from "./layer-impact.js";
import type { LayerImpact, PolicyImpact } from "./plan.js";
import { changedPolicies, type PolicyDigest } from "./policy-impact.js";
import { changeScope, type ChangeScope } from "./scope.js";

/** One side of a change: a loaded config (src/pipeline's LoadResult has this shape). */
export interface ChangeSide {
  state: DesiredState;
  layers?: { layers: readonly LayerSummary[] } | undefined;
  policies?: readonly PolicyDigest[] | undefined;
}

/** What a change touches, and through which Defaults and Policy documents. */
export interface ChangeTouch extends ChangeScope {
  /** The Defaults documents the change adds, removes or alters, with what each selects. */
  layers: LayerImpact[];
  /** The Policy documents the change adds, removes or alters, with what each judges. */
  policies: PolicyImpact[];
}

export function changeTouches(before: ChangeSide, after: ChangeSide): ChangeTouch {
  const found = changeScope(before.state, after.state);
  const layers = changedLayers(before.layers?.layers ?? [], after.layers?.layers ?? []);
  const policies = changedPolicies(before.policies ?? [], after.policies ?? []);
  const through = { layers: layers.layers, policies: policies.policies };
  // A changed planning setting plans everything: no keys to add.
  if (found.settings.length > 0) return { ...found, ...through };
  const keys = [...new Set([...found.keys, ...layers.keys, ...policies.keys])].sort();
  return { keys, settings: [], ...through };
}
