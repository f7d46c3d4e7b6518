/**
 * The places export --factor knows (factor.ts): the default of each scalar it may factor —
 * what an object without the value means, so that an object can say it against a layer —
 * and the places it never factors.
 */
import { DEFAULTS } from "../manifest/schema/common.js";

/** The default of a scalar by place (what an object without it means), where there is one. */
export const SCALAR_DEFAULTS: Record<string, Record<string, unknown>> = {
  Project: {
    "spec.visibility": DEFAULTS.project.visibility,
    "spec.status": DEFAULTS.project.status,
    "spec.externalContribution": DEFAULTS.project.externalContribution,
    "spec.git.group.requestAccessEnabled": DEFAULTS.group.requestAccessEnabled,
    "spec.git.group.enableCi": DEFAULTS.group.enableCi,
  },
  Repository: Object.fromEntries(
    Object.entries(DEFAULTS.repository)
      .filter(([k]) => k !== "subgroup")
      .map(([k, v]) => [`spec.${k}`, v]),
  ),
  User: {
    "spec.role": DEFAULTS.user.role,
    "spec.status": DEFAULTS.user.status,
    ...Object.fromEntries(
      ["git", "artifactservice", "servicedesk", "email", "irc", "wiki"].map((s) => [
        `spec.services.${s}.status`,
        DEFAULTS.service.status,
      ]),
    ),
    "spec.services.email.mailplan": DEFAULTS.service.mailplan,
  },
  Team: Object.fromEntries(
    ["gitservice", "artifactservice", "wiki"].map((s) => [`spec.services.${s}`, false]),
  ),
};

/** Places never factored: identities, free text, and lists of objects of their own. */
export const NEVER = new Set([
  "spec.title",
  "spec.description",
  "spec.organization",
  "spec.firstName",
  "spec.lastName",
  "spec.displayName",
  "spec.externalEmail",
  "spec.eccn",
  "spec.name",
  "spec.subgroup",
  "spec.forkFrom",
  "spec.git.group.path",
  "spec.git.repositories",
  "spec.git.mirrors",
  "spec.artifacts",
]);
