/** Schema of `kind: Team` documents (user teams and their members). */
import { Type, type Static } from "@sinclair/typebox";
import { about, DEFAULTS, Patterns, Strict, Username } from "./common.js";
import { DocumentSchema, Metadata } from "./document.js";
import { grantItem } from "./expires.js";
import { inherit, orRemove } from "./layering.js";

const flag = (what: string) =>
  Type.Optional(
    Type.Boolean({
      default: DEFAULTS.team.service,
      ...about(
        `Categorize the team as a ${what} team (to find and assign teams by service); grants nothing. Can be turned on through the API, not off (a change to false is blocked).`,
        true,
      ),
    }),
  );

export const TeamSpec = Strict(
  {
    services: Type.Optional(
      Strict(
        {
          gitservice: flag("git"),
          artifactservice: flag("artifact repository"),
          wiki: flag("wiki"),
        },
        about("Service categories of the team: labels only, they grant no access.", {
          gitservice: true,
          artifactservice: true,
          wiki: false,
        }),
      ),
    ),
    members: Type.Optional(
      Type.Array(
        orRemove(grantItem(Username, "user", "jdoe"), "username", "jdoe"),
        about(
          "Usernames of the members (or `{ user: NAME, expires: YYYY-MM-DD }`: a membership that ends). Authoritative: members not listed are removed from the team (their accounts stay).",
          ["jdoe", "asmith"],
        ),
      ),
    ),
    inherit: inherit("the team"),
  },
  about("The team's service categories and members.", {
    services: { gitservice: true },
    members: ["jdoe", "asmith"],
  }),
);

export const TeamDocument = DocumentSchema(
  "Team",
  Metadata(
    Type.String({
      pattern: Patterns.team,
      maxLength: 100,
      patternErrorMessage: "must be a team name: letters, digits, '.', '_', '-'",
    }),
    "The team name.",
    "tfa-maintainers",
  ),
  Type.Optional(TeamSpec),
  "a user team",
);
export type TeamDocument = Static<typeof TeamDocument>;
