/**
 * A repository's managed fields and their one normal form, shared by the desired side (the
 * manifest), the live side (the API's repository record) and apply (the record a create
 * answers): settings, status, fork source, commit blocker, persistent storage and bundle.
 */
import type { Static } from "@sinclair/typebox";
import type { RepoStatus, Tristate } from "../api/schemas.js";
import type { LiveRepository } from "../engine/readers.js";
import type { CommitBlockerState, RepositoryState } from "../manifest/types.js";
import { sameRepository } from "./git-shared.js";

/** The commit blocker as compared: allowed domains (lower-case, sorted, unique) and the start. */
export interface Blocker {
  author: string[];
  committer: string[];
  /** ISO 8601 instant (normalised), or null for all time. */
  since: string | null;
  [k: string]: unknown;
}

export interface RepoFields {
  /** Identity (part of the key): equal on both sides whenever the keys match. */
  name: string;
  subgroup: string;
  issueTracking: Static<typeof Tristate>;
  mergeRequests: Static<typeof Tristate>;
  requiresDCO: boolean;
  enableLFS: boolean;
  enableForking: boolean;
  status: Static<typeof RepoStatus>;
  /** Clone URL of the fork source; null for a repository that is not a fork. */
  fork: string | null;
  commitBlocker: Blocker | null;
  persistentStorage: boolean;
  /** Bundle frequency, null for none; absent (not managed) unless the manifest declares one. */
  bundle?: string | null;
  [k: string]: unknown;
}

/** The settings one PATCH changes (status is applied on its own, see repository-apply.ts). */
export const SETTINGS = [
  "issueTracking",
  "mergeRequests",
  "requiresDCO",
  "enableLFS",
  "enableForking",
] as const;

const uniqueSorted = (xs: readonly string[]) => [...new Set(xs)].sort();

/** `@Example.COM ` → `example.com` (as the service stores a domain). */
export const normaliseDomain = (d: string) => d.trim().replace(/^@/, "").toLowerCase();

/** A date or date-time as one ISO instant, so `2024-01-01` and `2024-01-01T00:00:00Z` agree. */
export function normaliseSince(since: string | null | undefined): string | null {
  if (since === null || since === undefined || since === "") return null;
  const t = Date.parse(since);
  return Number.isNaN(t) ? since : new Date(t).toISOString();
}

/**
 * A blocker in normal form; null when absent or without any domain (the API cannot enable a
 * blocker with no domains, so an empty one means "no blocker").
 */
export function normaliseBlocker(
  b:
    | { author?: readonly string[]; committer?: readonly string[]; since?: string | null }
    | null
    | undefined,
): Blocker | null {
  if (!b) return null;
  const author = uniqueSorted((b.author ?? []).map(normaliseDomain));
  const committer = uniqueSorted((b.committer ?? []).map(normaliseDomain));
  if (author.length === 0 && committer.length === 0) return null;
  return { author, committer, since: normaliseSince(b.since) };
}

/** The desired fields of a declared repository. */
export function desiredFields(r: RepositoryState): RepoFields {
  const blocker: CommitBlockerState | undefined = r.commitBlocker;
  return {
    name: r.name,
    subgroup: r.subgroup,
    issueTracking: r.issueTracking,
    mergeRequests: r.mergeRequests,
    requiresDCO: r.requiresDCO,
    enableLFS: r.enableLFS,
    enableForking: r.enableForking,
    status: r.status,
    fork: r.forkFrom ?? null,
    commitBlocker: normaliseBlocker(blocker),
    persistentStorage: r.persistentStorage,
    ...(r.bundle ? { bundle: r.bundle.frequency } : {}),
  };
}

/** A live repository's source, when it was read in this plan (no extra call is made for it). */
export interface ForkSource {
  key: string;
  record: LiveRepository;
}

/**
 * The live `fork` value. Not a fork → null. A fork whose source was read in this plan (it is
 * a repository of a declared project) → the declared URL when it names that source, else the
 * source's clone URL (a different source: blocked). A source outside the plan's reads is not
 * resolved (that would cost a call): only fork-ness is compared, so the declared URL stands.
 */
export function liveFork(
  r: LiveRepository,
  declared: RepositoryState | undefined,
  source: ForkSource | undefined,
): string | null {
  if (r.gitSourceRepoID === 0) return null;
  const wanted = declared?.forkFrom;
  if (!source) return wanted ?? `a fork of repository ${r.gitSourceRepoID}`;
  if (
    wanted !== undefined &&
    (declared?.forkFromKey === source.key ||
      sameRepository(wanted, source.record.httpURI) ||
      sameRepository(wanted, source.record.sshURI))
  ) {
    return wanted;
  }
  return source.record.httpURI;
}

/** The fields of a live record (fork and bundle come from the caller: they need more context). */
export function recordFields(
  r: LiveRepository,
  fork: string | null,
  bundle?: string | null,
): RepoFields {
  return {
    name: r.name,
    subgroup: r.subgroups,
    issueTracking: r.issueTracking,
    mergeRequests: r.mergeRequests,
    requiresDCO: r.requiresDCO,
    enableLFS: r.enableLFS,
    enableForking: r.enableForking,
    status: r.status === "archived" ? "archived" : "active",
    fork,
    commitBlocker: normaliseBlocker(r.commitBlocker),
    persistentStorage: r.persistentStorage !== null,
    ...(bundle !== undefined ? { bundle } : {}),
  };
}
