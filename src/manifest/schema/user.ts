/** Schema of `kind: User` documents (a user and the service accounts the user should have). */
import { Type, type Static } from "@sinclair/typebox";
import { ActiveInactive, UserRole } from "../../api/schemas.js";
import {
  DEFAULTS,
  DocumentSchema,
  Email,
  enumFrom,
  MailPlans,
  Metadata,
  OrganizationName,
  StringEnum,
  Strict,
  Username,
} from "./common.js";

const ServiceStatus = enumFrom(ActiveInactive, { default: DEFAULTS.service.status });
const deprecated = (what: string) => ({
  deprecated: true,
  deprecationMessage: `${what} accounts are deprecated by the service`,
});

export const UserServicesSpec = Strict(
  {
    git: Type.Optional(
      Strict(
        {
          status: Type.Optional(ServiceStatus),
          personalProjectLimit: Type.Optional(
            Type.Integer({
              minimum: 0,
              description: "up to the organization's maximum; 403 when not allowed",
            }),
          ),
        },
        { description: "git hosting account" },
      ),
    ),
    artifactservice: Type.Optional(
      Strict(
        { status: Type.Optional(ServiceStatus) },
        { description: "artifact repository account" },
      ),
    ),
    servicedesk: Type.Optional(
      Strict({ status: Type.Optional(ServiceStatus) }, { description: "service desk account" }),
    ),
    email: Type.Optional(
      Strict(
        {
          status: Type.Optional(ServiceStatus),
          mailplan: Type.Optional(StringEnum(MailPlans, { default: DEFAULTS.service.mailplan })),
        },
        { description: "e-mail account (deprecated)", ...deprecated("e-mail") },
      ),
    ),
    irc: Type.Optional(
      Strict(
        { status: Type.Optional(ServiceStatus) },
        { description: "IRC account (deprecated)", ...deprecated("IRC") },
      ),
    ),
    wiki: Type.Optional(
      Strict(
        { status: Type.Optional(ServiceStatus) },
        {
          description: "wiki account (deprecated; project editors need one)",
          ...deprecated("wiki"),
        },
      ),
    ),
  },
  { description: "accounts the user should have; a service not listed is not managed" },
);

export const UserSpec = Strict({
  firstName: Type.String({ minLength: 1 }),
  lastName: Type.String({ minLength: 1 }),
  displayName: Type.Optional(Type.String({ minLength: 1, description: "not managed when absent" })),
  externalEmail: Type.String({ ...Email, description: "unique; immutable after creation" }),
  organization: Type.Optional(
    Type.String({
      ...OrganizationName,
      description: "must exist; default: phctl.yaml's organization (the token's)",
    }),
  ),
  role: Type.Optional(enumFrom(UserRole, { default: DEFAULTS.user.role })),
  status: Type.Optional(enumFrom(ActiveInactive, { default: DEFAULTS.user.status })),
  sendWelcome: Type.Optional(
    Type.Boolean({
      default: DEFAULTS.user.sendWelcome,
      description: "send the welcome e-mail once, right after creation",
    }),
  ),
  services: Type.Optional(UserServicesSpec),
});

export const UserDocument = DocumentSchema(
  "User",
  Metadata(Username, "username; immutable after creation"),
  UserSpec,
  "a user of the service and their service accounts",
);
export type UserDocument = Static<typeof UserDocument>;
