/**
 * Live mutations of the converged examples, made through the API as someone using the
 * service's own tools would: each is data (for fast-check to pick and print) and an async
 * function that makes it. The set covers every kind's fields that the API can change and
 * the authoritative lists: titles and descriptions, repository settings, archives and
 * deletions, subgroups deleted (with their repositories), access entries and team members
 * added and removed, display names, roles and transfers, service accounts deactivated, a
 * team service enabled (blocked to undo), a team deleted, git group flags, a git group
 * deleted (with everything in it), mirrors changed, disabled,
 * deleted and added, licenses, an artifact repository deleted, a commit blocker removed —
 * and, as a support desk would, a visibility or ECCN changed (ticket entries).
 */
import fc from "fast-check";
import type { AccessLevel } from "../../src/api/schemas.js";

export type Mutation =
  | { m: "project"; slug: string; field: "name" | "description"; value: string }
  | { m: "repo"; slug: string; repo: string; field: string; value: string | boolean }
  | { m: "deleteRepo"; slug: string; repo: string }
  | { m: "access"; slug: string; level: AccessLevel; user: string; add: boolean }
  | { m: "member"; team: string; user: string; add: boolean }
  | { m: "user"; user: string; field: "displayName" | "role"; value: string }
  | { m: "teamService"; team: string; service: "gitservice" | "artifactservice" | "wiki" }
  | { m: "group"; slug: string; enableCi: boolean }
  | { m: "mirror"; frequency: "once" | "weekly" }
  | { m: "license"; slug: string; license: string; add: boolean }
  | { m: "deleteArtifact"; slug: string; name: string }
  | { m: "deleteSubgroup"; slug: string; path: string }
  | { m: "deleteMirror" }
  | { m: "newMirror"; slug: string }
  | { m: "disableMirror" }
  | { m: "service"; user: string; service: "git" | "artifactservice" }
  | { m: "archive"; slug: string }
  | { m: "archiveRepo"; slug: string; repo: string }
  | { m: "unblock" }
  | { m: "transfer"; user: string; to: "acme" | "linaro-partner" }
  | { m: "requestAccess"; slug: string }
  | { m: "support"; slug: string; field: "visibility" | "eccn"; value: string }
  | { m: "deleteTeam" }
  | { m: "deleteGroup"; slug: string };

const SLUGS = ["ci-tools", "mbed-tls", "trusted-firmware-a"] as const;
const USERS = ["jdoe", "asmith", "bwong", "pkumar", "lchen"] as const;
/** Repositories of the examples (not the fork source: deleting it is another story). */
const REPOS: [string, string][] = [
  ["ci-tools", "pipelines"],
  ["ci-tools", "lava/jobs/job-templates"],
  ["ci-tools", "forks/tf-a-staging"],
  ["mbed-tls", "mbedtls"],
  ["mbed-tls", "framework/test-data"],
  ["trusted-firmware-a", "tf-a-tests"],
  ["trusted-firmware-a", "docs/user-guide"],
  ["trusted-firmware-a", "tools/ci/ci-scripts"],
];
/** Mirror destinations of `newMirror`, one per project (a manifest's mirror must point at a declared repository). */
export const MIRROR_TO: Record<string, string> = {
  "ci-tools": "ssh://git@git.example.org/acme/ci-tools/pipelines.git",
  "mbed-tls": "ssh://git@git.example.org/linaro-partner/mbedtls/mbedtls.git",
  "trusted-firmware-a": "ssh://git@git.example.org/acme/tf-a/tf-a-tests.git",
};
/** Repositories that may be deleted: not a fork source, nor a mirror destination. */
const DELETABLE = REPOS.filter(([slug, repo]) => !MIRROR_TO[slug].endsWith(`/${repo}.git`));
const LEVELS: AccessLevel[] = ["admins", "controllers", "maintainers", "developers", "reporters"];

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc
    .record({
      m: fc.constant("project" as const),
      slug: fc.constantFrom(...SLUGS),
      field: fc.constantFrom("name" as const, "description" as const),
      value: fc.constantFrom("Renamed live", "", "Changed: by hand, on the web"),
    })
    // A project's name cannot be empty.
    .map((p) => (p.field === "name" && p.value === "" ? { ...p, value: "Renamed" } : p)),
  fc
    .oneof(
      fc.record({
        field: fc.constantFrom("issueTracking", "mergeRequests"),
        value: fc.constantFrom("enabled", "private", "disabled"),
      }),
      fc.record({
        field: fc.constantFrom("requiresDCO", "enableLFS", "enableForking"),
        value: fc.boolean(),
      }),
    )
    .chain((f) =>
      fc.constantFrom(...REPOS).map(([slug, repo]) => ({ m: "repo" as const, slug, repo, ...f })),
    ),
  fc.constantFrom(...DELETABLE).map(([slug, repo]) => ({ m: "deleteRepo" as const, slug, repo })),
  fc.record({
    m: fc.constant("access" as const),
    slug: fc.constantFrom(...SLUGS),
    level: fc.constantFrom(...LEVELS),
    user: fc.constantFrom(...USERS),
    add: fc.boolean(),
  }),
  fc.record({
    m: fc.constant("member" as const),
    team: fc.constantFrom("tfa-maintainers", "ci-operators"),
    user: fc.constantFrom(...USERS),
    add: fc.boolean(),
  }),
  fc
    .record({
      m: fc.constant("user" as const),
      user: fc.constantFrom(...USERS),
      field: fc.constantFrom("displayName" as const, "role" as const),
      value: fc.constantFrom("Someone Else", "users-admin", "member"),
    })
    .map((u) => ({
      ...u,
      value: u.field === "role" && u.value === "Someone Else" ? "member" : u.value,
    })),
  fc.record({
    m: fc.constant("teamService" as const),
    team: fc.constantFrom("tfa-maintainers", "ci-operators"),
    service: fc.constantFrom("gitservice" as const, "artifactservice" as const, "wiki" as const),
  }),
  fc.record({
    m: fc.constant("group" as const),
    slug: fc.constantFrom(...SLUGS),
    enableCi: fc.boolean(),
  }),
  fc.record({
    m: fc.constant("mirror" as const),
    frequency: fc.constantFrom("once" as const, "weekly" as const),
  }),
  fc.record({
    m: fc.constant("license" as const),
    slug: fc.constantFrom(...SLUGS),
    license: fc.constantFrom("MIT", "Apache-2.0", "BSD-3-Clause"),
    add: fc.boolean(),
  }),
  fc.constantFrom(
    { m: "deleteArtifact" as const, slug: "mbed-tls", name: "wheels" },
    { m: "deleteArtifact" as const, slug: "trusted-firmware-a", name: "images" },
    { m: "deleteSubgroup" as const, slug: "trusted-firmware-a", path: "tools" },
    { m: "deleteSubgroup" as const, slug: "trusted-firmware-a", path: "tools/ci" },
    { m: "deleteSubgroup" as const, slug: "ci-tools", path: "lava/jobs" },
    { m: "deleteSubgroup" as const, slug: "mbed-tls", path: "framework" },
    { m: "deleteMirror" as const },
    { m: "disableMirror" as const },
    { m: "unblock" as const },
    { m: "deleteTeam" as const },
  ),
  fc.record({ m: fc.constant("deleteGroup" as const), slug: fc.constantFrom(...SLUGS) }),
  fc.record({ m: fc.constant("newMirror" as const), slug: fc.constantFrom(...SLUGS) }),
  fc.record({
    m: fc.constant("service" as const),
    user: fc.constantFrom(...USERS),
    service: fc.constantFrom("git" as const, "artifactservice" as const),
  }),
  fc.record({ m: fc.constant("archive" as const), slug: fc.constantFrom(...SLUGS) }),
  fc.constantFrom(...REPOS).map(([slug, repo]) => ({ m: "archiveRepo" as const, slug, repo })),
  fc.record({
    m: fc.constant("transfer" as const),
    user: fc.constantFrom(...USERS),
    to: fc.constantFrom("acme" as const, "linaro-partner" as const),
  }),
  fc.record({ m: fc.constant("requestAccess" as const), slug: fc.constantFrom(...SLUGS) }),
  fc.constantFrom(
    { m: "support" as const, slug: "ci-tools", field: "visibility" as const, value: "private" },
    { m: "support" as const, slug: "trusted-firmware-a", field: "eccn" as const, value: "5D002" },
    { m: "support" as const, slug: "trusted-firmware-a", field: "eccn" as const, value: "" },
  ),
);

/**
 * Live removals of the list entries fixture.ts's LAYERS give: to every project or team (a
 * tombstone in the object's own list), and to trusted-firmware-a alone (out of its layer).
 */
export const layerMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    m: fc.constant("access" as const),
    slug: fc.constantFrom(...SLUGS),
    level: fc.constant("reporters" as const),
    user: fc.constant("lchen"),
    add: fc.constant(false),
  }),
  fc.constant({
    m: "access" as const,
    slug: "trusted-firmware-a",
    level: "developers" as const,
    user: "asmith",
    add: false,
  }),
  fc.record({
    m: fc.constant("license" as const),
    slug: fc.constantFrom(...SLUGS),
    license: fc.constant("MIT"),
    add: fc.constant(false),
  }),
  fc.record({
    m: fc.constant("member" as const),
    team: fc.constantFrom("tfa-maintainers", "ci-operators"),
    user: fc.constant("bwong"),
    add: fc.constant(false),
  }),
);
