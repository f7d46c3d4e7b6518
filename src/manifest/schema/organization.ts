/** Schema of `kind: Organization` documents (customer organizations of the parent one). */
import { Type, type Static } from "@sinclair/typebox";
import { DocumentSchema, Metadata, OrganizationName, Strict } from "./common.js";

export const OrganizationDocument = DocumentSchema(
  "Organization",
  Metadata(OrganizationName, "organization name; created with POST, renaming is not declarative"),
  Type.Optional(Strict({}, { description: "no settings yet" })),
  "an organization under the token's parent organization",
);
export type OrganizationDocument = Static<typeof OrganizationDocument>;
