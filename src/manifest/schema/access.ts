/** The `access` block of a Project: users and organization teams on the six access levels. */
import { Type, type TSchema } from "@sinclair/typebox";
import { AccessLevels, TeamLevels, type AccessLevel } from "../../api/schemas.js";
import { about, Patterns, Strict, Username } from "./common.js";
import { grantItem } from "./expires.js";
import { inherit, orRemove } from "./layering.js";

const TeamPath = Type.String({
  pattern: Patterns.organizationTeamPath,
  patternErrorMessage: "must be an organization team path such as acme/firmware-leads",
  examples: ["acme/firmware-leads"],
});
/** A team path, `{ team: PATH, expires: DATE }`, or a tombstone. */
const OrganizationTeamPath = orRemove(
  grantItem(TeamPath, "team", "acme/firmware-leads"),
  "team path",
  "acme/security",
);
/** A username, `{ user: NAME, expires: DATE }`, or a tombstone. */
const User = orRemove(grantItem(Username, "user", "jdoe"), "username", "jdoe");

const ORG_TEAM_LEVELS = "organization teams can only be maintainers, developers or reporters";

/** What each level may do (API-SPEC "Project access levels"). */
const MEANING: Record<AccessLevel, string> = {
  admins: "manage the project's title, description, resources and access",
  controllers: "help oversee the project and manage its information",
  editors: "edit and publish the project's wiki; each needs an active wiki account",
  maintainers:
    "contribute, approve merge requests and release: full control of the project's git and artifact repositories",
  developers:
    "contribute: clone any repository and open merge requests where enabled; read-only on artifact repositories",
  reporters: "have read-only access to the project's git and artifact repositories",
};

function accessLevel(level: AccessLevel): TSchema {
  const withTeams = (TeamLevels as readonly string[]).includes(level);
  const users = Type.Optional(
    Type.Array(
      User,
      about(
        `Usernames of the ${level} (or \`{ user: NAME, expires: YYYY-MM-DD }\`: access that ends).`,
        ["jdoe", "asmith"],
      ),
    ),
  );
  const organizationTeams = withTeams
    ? Type.Optional(
        Type.Array(
          OrganizationTeamPath,
          about(
            `Organization teams (their path, or \`{ team: PATH, expires: YYYY-MM-DD }\`) among the ${level}; an organization team must exist, it cannot be created through the API.`,
            ["acme/firmware-leads"],
          ),
        ),
      )
    : Type.Optional(
        Type.Unsafe<never>({
          not: {},
          errorMessage: `is not allowed here: ${ORG_TEAM_LEVELS}`,
          description: `Not allowed here: ${ORG_TEAM_LEVELS}.`,
          doNotSuggest: true,
        }),
      );
  const form = `a list of usernames or a mapping with users${withTeams ? " and organizationTeams" : ""}`;
  return Type.Optional(
    Type.Union(
      [
        Type.Array(User, { title: `${level} as a list of usernames` }),
        Strict({ users, organizationTeams }, { title: `${level} as a mapping` }),
      ],
      {
        errorMessage: `must be ${form}`,
        ...about(
          `${level[0].toUpperCase()}${level.slice(1)} ${MEANING[level]}. Write ${form}.`,
          ["jdoe"],
          withTeams
            ? { users: ["jdoe"], organizationTeams: ["acme/firmware-leads"] }
            : { users: ["jdoe"] },
        ),
      },
    ),
  );
}

export const AccessSpec = Strict(
  {
    ...(Object.fromEntries(AccessLevels.map((l) => [l, accessLevel(l)])) as Record<
      AccessLevel,
      TSchema
    >),
    inherit: inherit("the project's access"),
  },
  about(
    "Who may do what on the project. Authoritative: users and teams not listed at a level (or at a level not written) are removed from it; apply refuses to leave a project without an admin.",
    { admins: ["jdoe"], maintainers: { users: ["asmith"] }, developers: ["pkumar"] },
  ),
);

/** An item of an access list: a name, or the name with the last day it counts. */
export type GrantInput = string | { user?: string; team?: string; expires: string };
/** Access as a user may write it: a list of usernames or {users, organizationTeams}. */
export type AccessLevelInput =
  GrantInput[] | { users?: GrantInput[]; organizationTeams?: GrantInput[] };
