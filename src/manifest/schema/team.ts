/** Schema of `kind: Team` documents (user teams and their members). */
import { Type, type Static } from "@sinclair/typebox";
import { DEFAULTS, DocumentSchema, Metadata, Patterns, Strict, Username } from "./common.js";

const flag = (description: string) =>
  Type.Optional(Type.Boolean({ default: DEFAULTS.team.service, description }));

export const TeamSpec = Strict({
  services: Type.Optional(
    Strict(
      {
        gitservice: flag("categorization only; grants nothing"),
        artifactservice: flag("categorization only; grants nothing"),
        wiki: flag("categorization only; grants nothing"),
      },
      { description: "can be enabled through the API, not disabled" },
    ),
  ),
  members: Type.Optional(
    Type.Array(Username, { description: "usernames; authoritative (others are removed)" }),
  ),
});

export const TeamDocument = DocumentSchema(
  "Team",
  Metadata(
    Type.String({
      pattern: Patterns.team,
      patternErrorMessage: "must be a team name: letters, digits, '.', '_', '-'",
    }),
    "team name",
  ),
  Type.Optional(TeamSpec),
  "a user team",
);
export type TeamDocument = Static<typeof TeamDocument>;
