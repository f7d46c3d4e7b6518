/**
 * Who owns what, as a user writes it: a Project's `metadata.owners`, a Project layer's
 * `spec.owners` and phctl.yaml's `owners` (default owners, owners of folders, platform
 * handles). Written like an access level: a list of usernames, or `{users, teams}`.
 */
import { Type } from "@sinclair/typebox";
import { about, Patterns, Strict, Username } from "./common.js";

/** A team as the code-review platform knows it: a name, or a path of subgroups. */
const TeamName = Type.String({
  pattern: Patterns.organizationTeamPath,
  patternErrorMessage: "must be a team name such as firmware, or a path such as hw/firmware",
  examples: ["firmware"],
});

const users = () =>
  Type.Optional(Type.Array(Username, about("Usernames of the owners.", ["jdoe", "asmith"])));
const teams = () =>
  Type.Optional(
    Type.Array(
      TeamName,
      about(
        "Teams of the owners: their name on the code-review platform (phctl.yaml's owners.handles says where they are).",
        ["firmware"],
      ),
    ),
  );

/** `[alice]` or `{ users: [alice], teams: [core] }`. */
export function OwnersSchema(what: string) {
  return Type.Union(
    [
      Type.Array(Username, { title: "owners as a list of usernames" }),
      Strict({ users: users(), teams: teams() }, { title: "owners as a mapping" }),
    ],
    {
      errorMessage: "must be a list of usernames or a mapping with users and teams",
      ...about(`${what} Write a list of usernames or a mapping with users and teams.`, ["jdoe"], {
        users: ["jdoe"],
        teams: ["firmware"],
      }),
    },
  );
}

/** Owners as written: the short list of usernames, or the mapping. */
export type OwnersInput = string[] | { users?: string[]; teams?: string[] };

const Folder = Strict(
  {
    path: Type.String({
      minLength: 1,
      ...about(
        "A folder of the config, relative to phctl.yaml's directory, ending in /; * matches within one path step, ** across steps.",
        "projects/firmware/",
      ),
    }),
    users: users(),
    teams: teams(),
  },
  about("Owners of every file in a folder.", { path: "projects/firmware/", teams: ["firmware"] }),
);

/** A map of phctl names to platform names (keys checked by `keys`, values without `@`). */
const HandleMap = (keys: string, what: string, example: Record<string, string>) =>
  Type.Optional(
    Type.Unsafe<Record<string, string>>({
      type: "object",
      propertyNames: { pattern: keys },
      additionalProperties: {
        type: "string",
        pattern: "^[A-Za-z0-9][A-Za-z0-9._/-]*$",
        patternErrorMessage: "must be a name on the platform, without @",
      },
      ...about(what, example),
    }),
  );

export const OwnersSettingsSchema = Strict(
  {
    platform: Type.Optional(
      OwnersSchema(
        "The platform team: who owns phctl.yaml, the Defaults and Policy documents, and every file no project or folder owner owns.",
      ),
    ),
    folders: Type.Optional(
      Type.Array(Folder, {
        ...about(
          "Owners of folders of the config: a file's owners are the owners of the projects it declares plus those of the last folder listed here that holds it.",
          [{ path: "projects/firmware/", teams: ["firmware"] }],
        ),
      }),
    ),
    file: Type.Optional(
      Type.String({
        minLength: 1,
        ...about(
          "The committed CODEOWNERS file, relative to this file's directory: phctl validate fails when it is not what phctl owners writes.",
          "../.github/CODEOWNERS",
        ),
      }),
    ),
    format: Type.Optional(
      Type.Union([Type.Literal("github"), Type.Literal("gitlab")], {
        default: "github",
        errorMessage: "must be github or gitlab",
        ...about(
          "The platform the CODEOWNERS file is for (and the handles the plan names).",
          "github",
        ),
      }),
    ),
    handles: Type.Optional(
      Strict(
        {
          group: Type.Optional(
            Type.String({
              pattern: Patterns.organizationTeamPath,
              patternErrorMessage:
                "must be a GitHub organization or a GitLab group path, without @",
              ...about(
                "Where the teams are: the GitHub organization, or the GitLab group (path); a team is @GROUP/TEAM. Default: phctl.yaml's organization.",
                "acme",
              ),
            }),
          ),
          users: HandleMap(
            Patterns.username,
            "A user's login on the platform where it is not the username.",
            {
              jdoe: "jane-doe",
            },
          ),
          teams: HandleMap(
            Patterns.organizationTeamPath,
            "A team's name (or subgroup path) on the platform where it differs.",
            { platform: "platform-admins" },
          ),
        },
        about("How owners are named on the code-review platform.", { group: "acme" }),
      ),
    ),
  },
  about(
    "Owners of the config, for the CODEOWNERS file phctl owners writes and the owners a pull-request plan names.",
    { platform: { teams: ["platform"] }, file: ".github/CODEOWNERS" },
  ),
);
