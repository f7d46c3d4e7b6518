/**
 * A repository's, mirror's or artifact repository's manifest item from the kinds' normalised
 * fields, defaults omitted: what export writes (documents.ts), and what `drift --adopt` adds
 * for a live object a pruning config would delete — one mapping for both.
 */
import type { MirrorFields } from "../kinds/mirror.js";
import type { Blocker, RepoFields } from "../kinds/repository-fields.js";
import { DEFAULTS } from "../manifest/schema/common.js";

const R = DEFAULTS.repository;
const sorted = (xs: readonly string[]) => [...new Set(xs)].sort();

/** Set `key` only when `value` differs from the default (and is defined). */
function put(o: Record<string, unknown>, key: string, value: unknown, dflt?: unknown): void {
  if (value !== undefined && value !== dflt) o[key] = value;
}

/**
 * A repository's manifest item from its normalised fields (the kind's RepoFields), defaults
 * omitted: what export writes and what `drift --adopt` adds for a live repository.
 */
export function repositoryItem(f: RepoFields): Record<string, unknown> {
  const o: Record<string, unknown> = { name: f.name };
  put(o, "subgroup", f.subgroup, R.subgroup);
  put(o, "issueTracking", f.issueTracking, R.issueTracking);
  put(o, "mergeRequests", f.mergeRequests, R.mergeRequests);
  put(o, "requiresDCO", f.requiresDCO, R.requiresDCO);
  put(o, "enableLFS", f.enableLFS, R.enableLFS);
  put(o, "enableForking", f.enableForking, R.enableForking);
  put(o, "status", f.status, R.status);
  if (f.fork !== null) o.forkFrom = f.fork;
  put(o, "commitBlocker", blockerValue(f.commitBlocker));
  put(o, "persistentStorage", f.persistentStorage, R.persistentStorage);
  if (typeof f.bundle === "string") o.bundle = { frequency: f.bundle };
  return o;
}

/** A commit blocker as a manifest writes it (empty lists and an all-time start left out). */
export function blockerValue(b: Blocker | null): Record<string, unknown> | undefined {
  if (!b) return undefined;
  const o: Record<string, unknown> = {};
  if (b.author.length > 0) o.author = b.author;
  if (b.committer.length > 0) o.committer = b.committer;
  if (b.since) o.since = b.since;
  return o;
}

/** A mirror's manifest item from its normalised fields, defaults omitted. */
export function mirrorItem(m: MirrorFields): Record<string, unknown> {
  const o: Record<string, unknown> = {
    from: m.from,
    to: m.to,
    refSpaceFrom: m.refSpaceFrom,
    refSpaceTo: m.refSpaceTo,
    frequency: m.frequency,
  };
  put(o, "excludeTags", m.excludeTags, DEFAULTS.mirror.excludeTags);
  put(o, "enabled", m.enabled, DEFAULTS.mirror.enabled);
  if (m.notificationEmails.length > 0) o.notificationEmails = sorted(m.notificationEmails);
  return o;
}

/** An artifact repository's manifest item (declared name; the default type left out). */
export function artifactItem(name: string, type: string): Record<string, unknown> {
  const o: Record<string, unknown> = { name };
  put(o, "type", type, DEFAULTS.artifactRepository.type);
  return o;
}
