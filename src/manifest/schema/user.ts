/** Schema of `kind: User` documents (a user and the service accounts the user should have). */
import { Type, type Static } from "@sinclair/typebox";
import { ActiveInactive, UserRole } from "../../api/schemas.js";
import {
  about,
  DEFAULTS,
  Email,
  enumFrom,
  MailPlans,
  oneOfMessage,
  OrganizationName,
  StringEnum,
  Strict,
  Username,
} from "./common.js";
import { Expires } from "./expires.js";
import { inherit } from "./layering.js";
import { DocumentSchema, Metadata } from "./document.js";

const ServiceStatus = enumFrom(ActiveInactive, {
  default: DEFAULTS.service.status,
  ...about(
    "active or inactive: inactive deactivates the account and keeps it; active (re)activates it.",
    "active",
  ),
});
const deprecated = (what: string) => ({
  deprecated: true,
  deprecationMessage: `${what} accounts are deprecated by the service`,
});
/** An account whose only setting is its status. */
/** `expires:` on a service account: from the day after, the account is deactivated. */
const accountExpires = Type.Optional(Expires("the account (deactivated from the day after)"));
const statusOnly = (description: string, extra: object = {}) =>
  Type.Optional(
    Strict(
      { status: Type.Optional(ServiceStatus), expires: accountExpires },
      { ...about(description, { status: "active" }), ...extra },
    ),
  );

export const UserServicesSpec = Strict(
  {
    git: Type.Optional(
      Strict(
        {
          status: Type.Optional(ServiceStatus),
          expires: accountExpires,
          personalProjectLimit: Type.Optional(
            Type.Integer({
              minimum: 0,
              ...about(
                "How many personal projects the user may create, up to the organization's maximum; the service refuses it (403) where personal projects are not allowed. Not managed when absent.",
                5,
              ),
            }),
          ),
        },
        about("Git hosting account.", { status: "active", personalProjectLimit: 5 }, {}),
      ),
    ),
    artifactservice: statusOnly("Artifact repository account."),
    servicedesk: statusOnly("Service desk account."),
    email: Type.Optional(
      Strict(
        {
          status: Type.Optional(ServiceStatus),
          expires: accountExpires,
          mailplan: Type.Optional(
            StringEnum(MailPlans, {
              ...oneOfMessage(MailPlans),
              default: DEFAULTS.service.mailplan,
              ...about(
                "retention (the mailbox is archived when the user is removed) or non-retention (it is deleted); set at creation, a change is blocked.",
                "retention",
              ),
            }),
          ),
        },
        {
          ...about("E-mail account (deprecated).", { status: "active", mailplan: "retention" }),
          ...deprecated("e-mail"),
        },
      ),
    ),
    irc: statusOnly("IRC account (deprecated).", deprecated("IRC")),
    wiki: statusOnly(
      "Wiki account (deprecated); a project's editors need an active one.",
      deprecated("wiki"),
    ),
  },
  about(
    "The service accounts the user should have; a service not listed is not managed. Accounts are created and changed by queued jobs.",
    { git: { status: "active" }, artifactservice: {} },
  ),
);

export const UserSpec = Strict(
  {
    firstName: Type.String({ minLength: 1, ...about("The user's first name.", "Jane") }),
    lastName: Type.String({ minLength: 1, ...about("The user's last name.", "Doe") }),
    displayName: Type.Optional(
      Type.String({
        minLength: 1,
        ...about(
          "Name the service shows; not managed when absent (the identity provider's stays).",
          "Jane Doe",
        ),
      }),
    ),
    externalEmail: Type.String({
      ...Email,
      ...about(
        "The user's e-mail address; unique among users and fixed at creation (a change is blocked).",
        "jane.doe@example.org",
      ),
    }),
    organization: Type.Optional(
      Type.String({
        ...OrganizationName,
        ...about(
          "The user's organization: phctl.yaml's organization (the token's, the default) or a customer organization that exists or is declared. A change moves the user with a transfer job, only within the parent organization.",
          "acme-partner",
        ),
      }),
    ),
    role: Type.Optional(
      enumFrom(UserRole, {
        default: DEFAULTS.user.role,
        ...about(
          "member (read-only), projects-admin (manages projects), users-admin (manages users) or system-admin (both).",
          "projects-admin",
        ),
      }),
    ),
    status: Type.Optional(
      enumFrom(ActiveInactive, {
        default: DEFAULTS.user.status,
        ...about(
          "active or inactive: inactive disables the user and keeps it (deleting a user needs a support ticket).",
          "inactive",
        ),
      }),
    ),
    sendWelcome: Type.Optional(
      Type.Boolean({
        default: DEFAULTS.user.sendWelcome,
        ...about(
          "Send the welcome e-mail (a link to set a password, and the user's services) once, right after the user is created; never to a user that exists already.",
          true,
        ),
      }),
    ),
    services: Type.Optional(UserServicesSpec),
    expires: Type.Optional(
      Expires(
        "the user's whole access (every project access and team membership; the user is made inactive)",
      ),
    ),
    inherit: inherit("the user (its service accounts included)"),
  },
  about("The user's profile and service accounts.", {
    firstName: "Jane",
    lastName: "Doe",
    externalEmail: "jane.doe@example.org",
    services: { git: {} },
  }),
);

export const UserDocument = DocumentSchema(
  "User",
  Metadata(Username, "The username; fixed at creation.", "jdoe"),
  UserSpec,
  "a user of the service and their service accounts",
);
export type UserDocument = Static<typeof UserDocument>;
