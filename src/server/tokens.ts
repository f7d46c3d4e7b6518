/**
 * The tokens a server accepts, each bound to its parent organization (created with default
 * settings when it does not exist yet), and authentication of a request against them: the
 * API's bearer or PRIVATE-TOKEN check with the role matrix, and the /_control check (a
 * system-admin token, scoped to its parent organization, or a test-admin token, unscoped).
 */
import type { FastifyRequest } from "fastify";
import type { OperationId } from "../api/routes.js";
import type { RouteDef } from "../api/route-def.js";
import {
  mayCall,
  requireBearer,
  requirePrivateToken,
  roleForbidden,
  unauthorized,
} from "./auth.js";
import type { Caller } from "./context.js";
import { HttpError } from "./errors.js";
import type { TokenSpec } from "./options.js";
import { isoNow, type Db } from "./store/db.js";

interface KnownToken {
  spec: TokenSpec;
  orgId: number;
}

/**
 * Who may use /_control: `parentOrgId` is the parent organization its calls are confined
 * to, or null for a test-admin token (every tenant).
 */
export interface ControlCaller {
  parentOrgId: number | null;
}

export class TokenTable {
  private readonly known = new Map<string, KnownToken>();

  constructor(
    private readonly db: Db,
    readonly tokens: readonly TokenSpec[],
  ) {
    for (const t of tokens)
      this.known.set(t.secret, { spec: t, orgId: ensureParentOrg(db, t.parentOrganization) });
  }

  /** Forget a secret: from now on it is refused (401), as an expired or revoked token is. */
  revoke(secret: string): void {
    this.known.delete(secret);
  }

  /** The parent organization id of a known secret, or null. */
  tenantOf(secret: string | undefined): number | null {
    return secret === undefined ? null : (this.known.get(secret)?.orgId ?? null);
  }

  /**
   * The caller of an API operation; throws 401 (no, malformed or unknown token) or 403 (role).
   * `onKnown` learns the tenant before the role check, so a refused request is still
   * attributed to its parent organization in the request log.
   */
  authenticate(
    req: FastifyRequest,
    def: RouteDef,
    op: OperationId,
    onKnown: (parentOrgId: number) => void,
  ): Caller {
    const secret =
      def.auth === "gitToken"
        ? requirePrivateToken(req.headers["private-token"])
        : requireBearer(req.headers.authorization);
    const t = this.known.get(secret);
    if (!t) throw unauthorized("invalid token");
    onKnown(t.orgId);
    if (!mayCall(t.spec.role, def.auth)) {
      throw roleForbidden(t.spec.role, def.auth, `${def.method} ${def.path} (${op})`);
    }
    const org = this.db.get<{ name: string }>(
      "SELECT name FROM organizations WHERE id = ?",
      t.orgId,
    );
    return {
      role: t.spec.role,
      parentOrgId: t.orgId,
      parentOrganization: org?.name ?? t.spec.parentOrganization,
    };
  }

  /** The caller of a /_control endpoint; 401 without a known token, 403 for other roles. */
  control(req: FastifyRequest): ControlCaller {
    const t = this.known.get(requireBearer(req.headers.authorization));
    if (!t) throw unauthorized("invalid token");
    if (t.spec.testAdmin === true) return { parentOrgId: null };
    if (t.spec.role !== "system-admin") {
      throw new HttpError(
        "FORBIDDEN",
        "control endpoints need a system-admin token (scoped to its parent organization) or a test-admin token",
      );
    }
    return { parentOrgId: t.orgId };
  }
}

/** Make sure a token's parent organization exists (with its default settings). */
function ensureParentOrg(db: Db, name: string): number {
  const row = db.get<{ id: number }>("SELECT id FROM organizations WHERE name = ?", name);
  if (row) return row.id;
  return Number(
    db.run(
      "INSERT INTO organizations (name, parent_id, created) VALUES (?, NULL, ?)",
      name,
      isoNow(),
    ).lastInsertRowid,
  );
}
