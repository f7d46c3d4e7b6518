/** Schema of `kind: Organization` documents (customer organizations of the parent one). */
import { Type, type Static } from "@sinclair/typebox";
import { about, OrganizationName, Strict } from "./common.js";
import { DocumentSchema, Metadata } from "./document.js";

export const OrganizationDocument = DocumentSchema(
  "Organization",
  Metadata(
    OrganizationName,
    "The organization name; created with the API, renaming is not declarative.",
    "acme-partner",
  ),
  Type.Optional(Strict({}, about("No settings yet: leave it out, or write {}.", {}))),
  "an organization under the token's parent organization",
);
export type OrganizationDocument = Static<typeof OrganizationDocument>;
