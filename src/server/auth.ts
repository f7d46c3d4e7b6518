/**
 * Bearer-token authentication and the role matrix (DESIGN.md, "API decisions"):
 * member reads; users-admin writes users, teams and service accounts; projects-admin writes
 * projects and everything under them; both may grant project access; system-admin may do
 * everything, including organizations. The token's secret is never logged or echoed.
 */
import type { Permission } from "../api/route-def.js";
import type { TokenSpec } from "./options.js";
import { HttpError } from "./errors.js";

export const ROLES = ["member", "users-admin", "projects-admin", "system-admin"] as const;

const ALLOWED: Record<Permission, readonly TokenSpec["role"][]> = {
  read: ROLES,
  gitToken: ROLES,
  users: ["users-admin", "system-admin"],
  projects: ["projects-admin", "system-admin"],
  access: ["users-admin", "projects-admin", "system-admin"],
  system: ["system-admin"],
};

export function mayCall(role: TokenSpec["role"], permission: Permission): boolean {
  return ALLOWED[permission].includes(role);
}

/** The fourth field of a token spec that gives it the test-admin capability. */
export const TEST_ADMIN = "test-admin";

/**
 * Parse `SECRET:ROLE:PARENT_ORG`, or `SECRET:ROLE:PARENT_ORG:test-admin` for a token whose
 * /_control calls act on every parent organization (the `--token` flag and token files).
 */
export function parseTokenSpec(text: string): TokenSpec {
  const parts = text.split(":");
  const [secret, role, parentOrganization, capability] = parts;
  if (parts.length < 3 || parts.length > 4 || !secret || !role || !parentOrganization) {
    throw new Error(
      `a token is written SECRET:ROLE:PARENT_ORG or SECRET:ROLE:PARENT_ORG:${TEST_ADMIN}`,
    );
  }
  if (!(ROLES as readonly string[]).includes(role)) {
    throw new Error(`token role must be one of ${ROLES.join(", ")} (got ${role})`);
  }
  if (capability !== undefined && capability !== TEST_ADMIN) {
    throw new Error(`the fourth field of a token can only be ${TEST_ADMIN} (got ${capability})`);
  }
  const spec: TokenSpec = { secret, role: role as TokenSpec["role"], parentOrganization };
  return capability === TEST_ADMIN ? { ...spec, testAdmin: true } : spec;
}

/** Parse a tokens file: one SECRET:ROLE:PARENT_ORG[:test-admin] per line; # comments and blank lines ignored. */
export function parseTokensFile(text: string): TokenSpec[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"))
    .map(parseTokenSpec);
}

/** The bearer value of an Authorization header, or undefined. */
export function bearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

export function unauthorized(why: string): HttpError {
  return new HttpError("UNAUTHORIZED", why, undefined, {
    "www-authenticate": 'Bearer realm="phctl"',
  });
}

export function roleForbidden(role: string, permission: Permission, what: string): HttpError {
  return new HttpError(
    "FORBIDDEN",
    `role ${role} may not ${what} (needs ${ALLOWED[permission].filter((r) => r !== "member").join(" or ")})`,
  );
}
