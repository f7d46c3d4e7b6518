/** A repository of a Project's `git` block: its settings, fork source, commit blocker, bundle. */
import { Type } from "@sinclair/typebox";
import { RepoStatus, Tristate } from "../../api/schemas.js";
import {
  about,
  BundleFrequencies,
  DEFAULTS,
  enumFrom,
  oneOfMessage,
  Patterns,
  StringEnum,
  Strict,
} from "./common.js";
import { inherit } from "./layering.js";

const R = DEFAULTS.repository;
/** A boolean setting with its default; the example is the other value. */
export const bool = (dflt: boolean, description: string, example = !dflt) =>
  Type.Optional(Type.Boolean({ default: dflt, ...about(description, example) }));
export const CLONE_URL = "must be a clone URL (https://… or ssh://…)";

const domains = (who: string) =>
  Type.Optional(
    Type.Array(
      Type.String({ format: "hostname", ...about("An e-mail domain.", "example.org") }),
      about(`E-mail domains ${who} may have; a push with any other is rejected.`, ["example.org"]),
    ),
  );

export const CommitBlockerSpec = Strict(
  {
    author: domains("commit authors"),
    committer: domains("committers"),
    since: Type.Optional(
      Type.Unsafe<string | null>({
        type: ["string", "null"],
        pattern: Patterns.isoDate,
        patternErrorMessage: "must be an ISO 8601 date or date-time, or null (all time)",
        ...about(
          "Check only commits after this ISO 8601 date or date-time; null checks all of them (all time).",
          null,
          "2024-01-01",
        ),
      }),
    ),
  },
  about(
    "A pre-receive hook that rejects a whole push when an author or committer has an e-mail domain not listed.",
    { author: ["example.org"], committer: ["example.org"], since: null },
  ),
);

const tristate = (what: string, dflt: string) =>
  Type.Optional(
    enumFrom(Tristate, {
      default: dflt,
      ...about(`${what}: enabled, private (project members only) or disabled.`, "enabled"),
    }),
  );

export const RepositorySpec = Strict(
  {
    name: Type.String({
      pattern: Patterns.repository,
      patternErrorMessage: "must be a repository name: letters, digits, '.', '_', '-'",
      ...about("Repository name, unique within its subgroup.", "trusted-firmware-a"),
    }),
    subgroup: Type.Optional(
      Type.String({
        pattern: `^$|${Patterns.subgroupPath}`,
        patternErrorMessage: 'must be "" (the project group) or a subgroup path such as tools/ci',
        default: R.subgroup,
        ...about(
          'Subgroup the repository is in: "" (the project group, the default) or a path declared in git.subgroups, such as tools/ci.',
          "tools/ci",
        ),
      }),
    ),
    issueTracking: tristate("The issue tracker", R.issueTracking),
    mergeRequests: tristate("Merge requests", R.mergeRequests),
    requiresDCO: bool(
      R.requiresDCO,
      "Require a Developer Certificate of Origin sign-off (Signed-off-by) on every commit.",
    ),
    enableLFS: bool(R.enableLFS, "Enable Git LFS (large file storage) for the repository."),
    enableForking: bool(
      R.enableForking,
      "Allow forks of the repository; the service refuses to fork one with false.",
    ),
    status: Type.Optional(
      enumFrom(RepoStatus, {
        default: R.status,
        ...about("active or archived (read-only); archiving can be undone.", "archived"),
      }),
    ),
    forkFrom: Type.Optional(
      Type.String({
        pattern: Patterns.cloneUrl,
        patternErrorMessage: CLONE_URL,
        ...about(
          "Create the repository as a fork of this clone URL (https://… or ssh://…); fixed at creation (a change is blocked).",
          "https://git.example.org/acme/tf-a/trusted-firmware-a.git",
        ),
      }),
    ),
    commitBlocker: Type.Optional(CommitBlockerSpec),
    persistentStorage: bool(
      R.persistentStorage,
      "Persistent storage for the repository's CI jobs.",
    ),
    bundle: Type.Optional(
      Strict(
        {
          frequency: StringEnum(BundleFrequencies, {
            ...oneOfMessage(BundleFrequencies),
            ...about("How often the bundle is made: daily, weekly or monthly.", "weekly"),
          }),
        },
        about(
          "A CI bundle of the repository; its frequency is fixed at creation (bundles cannot be updated or deleted through the API).",
          { frequency: "weekly" },
        ),
      ),
    ),
    inherit: inherit("the repository"),
  },
  about("A git repository of the project.", { name: "docs", subgroup: "tools/ci" }),
);
