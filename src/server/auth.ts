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
  if (!TOKEN_CHARS.test(secret)) {
    throw new Error(
      `a token's secret is sent as a bearer token, so it has only ${TOKEN_WORDS} (the secret is not shown)`,
    );
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

/**
 * What a bearer token may contain (RFC 6750's b64token): a value with a space, a quote or
 * a letter outside ASCII can never be a token, and is refused as malformed, not "missing".
 */
const TOKEN_CHARS = /^[A-Za-z0-9\-._~+/]+=*$/;
const TOKEN_WORDS = "letters, digits and - . _ ~ + / (= only at the end), with no spaces";

/** The bearer value of an Authorization header, or undefined (for attribution only). */
export function bearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

/**
 * The token of an Authorization header; otherwise 401 saying what is wrong: no header or
 * no token after `Bearer` (missing), another scheme, or a token with characters no token
 * has (malformed). Nothing of the header is echoed: it may be a token.
 */
export function requireBearer(header: string | undefined): string {
  const m = /^(\S+)(?:\s+([\s\S]*?))?\s*$/.exec(header ?? "");
  if (!m) throw unauthorized("missing bearer token");
  if (m[1].toLowerCase() !== "bearer")
    throw unauthorized('the Authorization header is not a bearer token: send "Bearer TOKEN"');
  const token = m[2] ?? "";
  if (token === "") throw unauthorized("missing bearer token");
  if (!TOKEN_CHARS.test(token))
    throw unauthorized(`the bearer token is malformed: a token has only ${TOKEN_WORDS}`);
  return token;
}

/** The token of a PRIVATE-TOKEN header (the delivery-metrics API); otherwise 401 saying why. */
export function requirePrivateToken(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header.join(",") : header;
  if (!value) throw unauthorized("missing PRIVATE-TOKEN header");
  if (!TOKEN_CHARS.test(value))
    throw unauthorized(`the PRIVATE-TOKEN header is malformed: a token has only ${TOKEN_WORDS}`);
  return value;
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
