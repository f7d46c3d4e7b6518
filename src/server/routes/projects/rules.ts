/**
 * The project rules shared by the API handlers and seeding: slug derivation and checks, and
 * the organization-level switch for external contributions.
 */
import type { ServerContext } from "../../context.js";
import { conflict, ruleViolated } from "../../errors.js";
import { bool } from "../../store/db.js";
import type { OrgRow } from "../../store/lookups.js";

/**
 * Slugs that are static path segments under /v1/projects (`/v1/projects/systems/…` is the
 * persistent-storage lookup), so a project of that name could never be addressed.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set(["systems"]);

/** Longest slug the create body accepts (its pattern allows 63 characters). */
const MAX_SLUG = 63;
/** The create body's slug pattern, for slugs that arrive another way (restore, seeding). */
const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * The slug a name gives when none is sent: lower case, every run of non-alphanumerics
 * becomes one "-", no leading or trailing "-", at most 63 characters. May be "".
 */
export function deriveSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, MAX_SLUG)
    .replace(/-+$/, "");
}

/** Throw unless `slug` may name a new project: not empty, not reserved, not taken (anywhere). */
export function checkNewSlug(ctx: ServerContext, slug: string, name?: string): void {
  if (slug === "") {
    throw ruleViolated(
      `no project slug can be derived from the name ${JSON.stringify(name ?? "")}; send projectSlug`,
      "projectSlug",
    );
  }
  if (!SLUG.test(slug)) {
    throw ruleViolated(
      `project slug ${slug} must be lower-case letters, digits and "-" (at most 63)`,
      "projectSlug",
    );
  }
  if (RESERVED_SLUGS.has(slug)) {
    throw ruleViolated(`project slug ${slug} is reserved`, "projectSlug");
  }
  // Slugs are unique across the service (the table says so), not per parent organization.
  if (ctx.db.get("SELECT 1 FROM projects WHERE slug = ?", slug)) {
    throw conflict(`project ${slug} already exists`, "projectSlug");
  }
}

/** `externalContribution: true` needs the organization to allow external contributions. */
export function checkExternalContribution(org: OrgRow, wanted: boolean | undefined): void {
  if (wanted === true && !bool(org.allow_external_contribution)) {
    throw ruleViolated(
      `organization ${org.name} does not allow external contributions`,
      "externalContribution",
    );
  }
}
