/** The `git` block of a Project: its group, subgroups, repositories and mirrors. */
import { Type } from "@sinclair/typebox";
import { MirrorFrequency } from "../../api/schemas.js";
import { about, DEFAULTS, Email, enumFrom, Patterns, Strict } from "./common.js";
import { inherit, orRemove } from "./layering.js";
import { bool, CLONE_URL, RepositorySpec } from "./repository.js";

export { CommitBlockerSpec, RepositorySpec } from "./repository.js";

const TFA_UPSTREAM = "https://github.com/ARM-software/arm-trusted-firmware.git";
const TFA_HERE = "ssh://git@git.example.org/acme/tf-a/trusted-firmware-a.git";

const SubgroupPath = Type.String({
  pattern: Patterns.subgroupPath,
  patternErrorMessage: "must be a subgroup path such as docs or tools/ci",
  examples: ["docs", "tools/ci"],
});

export const MirrorSpec = Strict(
  {
    from: Type.String({
      pattern: Patterns.cloneUrl,
      patternErrorMessage: CLONE_URL,
      ...about("Source: a clone URL (https://… or ssh://…); fixed at creation.", TFA_UPSTREAM),
    }),
    to: Type.String({
      pattern: Patterns.sshUrl,
      patternErrorMessage:
        "must be an ssh URL such as ssh://git@git.example.org/acme/group/repo.git",
      ...about("Destination: the ssh URL of a repository; identifies the mirror.", TFA_HERE),
    }),
    refSpaceFrom: Type.String({
      minLength: 1,
      ...about("Refs to copy from the source; fixed at creation.", "refs/heads/*"),
    }),
    refSpaceTo: Type.String({
      minLength: 1,
      ...about("Where the copied refs go in the destination; fixed at creation.", "refs/heads/*"),
    }),
    frequency: enumFrom(
      MirrorFrequency,
      about("How often it runs: once, daily or weekly.", "daily"),
    ),
    excludeTags: bool(DEFAULTS.mirror.excludeTags, "Do not copy tags."),
    enabled: bool(
      DEFAULTS.mirror.enabled,
      "Run the mirror (true) or pause it (false); apply switches it with notes naming the manifest.",
    ),
    notificationEmails: Type.Optional(
      Type.Array(
        Email,
        about("Addresses stored on the mirror for its notifications; fixed at creation.", [
          "ops@example.org",
        ]),
      ),
    ),
  },
  about("A pull mirror of an outside repository.", {
    from: TFA_UPSTREAM,
    to: TFA_HERE,
    refSpaceFrom: "refs/heads/*",
    refSpaceTo: "refs/heads/*",
    frequency: "daily",
  }),
);

export const GitSpec = Strict(
  {
    group: Type.Optional(
      Strict(
        {
          path: Type.Optional(
            Type.String({
              pattern: Patterns.groupPath,
              patternErrorMessage: "must be a group path: letters, digits, '.', '_', '-'",
              ...about(
                "Path of the project's git group (default: the project slug); fixed at creation (a change is blocked).",
                "tf-a",
              ),
            }),
          ),
          requestAccessEnabled: bool(
            DEFAULTS.group.requestAccessEnabled,
            "Let users ask for access to the group.",
          ),
          enableCi: bool(DEFAULTS.group.enableCi, "Enable CI pipelines in the group."),
        },
        about("The project's git group.", { path: "tf-a", enableCi: true }),
      ),
    ),
    subgroups: Type.Optional(
      Type.Array(
        orRemove(SubgroupPath, "path", "docs"),
        about("Subgroups of the project group; parents are implied (tools/ci declares tools).", [
          "docs",
          "tools/ci",
        ]),
      ),
    ),
    repositories: Type.Optional(
      Type.Array(
        orRemove(
          RepositorySpec,
          "subgroup path and name (tools/ci/docs; docs in the project group)",
          "docs",
        ),
        about("The project's git repositories.", [{ name: "docs", mergeRequests: "enabled" }]),
      ),
    ),
    mirrors: Type.Optional(
      Type.Array(
        orRemove(MirrorSpec, "destination (to)", TFA_HERE),
        about(
          "Pull mirrors into the project's repositories, identified by their destination (to).",
          [
            {
              from: TFA_UPSTREAM,
              to: TFA_HERE,
              refSpaceFrom: "refs/heads/*",
              refSpaceTo: "refs/heads/*",
              frequency: "daily",
            },
          ],
        ),
      ),
    ),
    inherit: inherit("the project's git side"),
  },
  about(
    "The project's git side: its group, subgroups, repositories and mirrors. Without it, a live git group is deleted only with prune.groups.",
    {
      group: { path: "tf-a" },
      subgroups: ["docs"],
      repositories: [{ name: "docs", subgroup: "docs" }],
    },
  ),
);
