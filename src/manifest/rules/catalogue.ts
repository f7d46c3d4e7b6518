/** Rules about what the service offers: deprecated services, license ids. */
import { formatPath } from "../diagnostics.js";
import { COMMON_LICENSES } from "../schema/common.js";
import type { Diagnostic } from "../types.js";
import { projects, report, type RuleContext } from "./context.js";

/** email, irc and wiki accounts are deprecated by the service: they work, with a warning. */
export function deprecatedServices(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of ctx.docs) {
    if (d.kind !== "User") continue;
    for (const service of ["email", "irc", "wiki"] as const) {
      if (!d.value.spec.services?.[service]) continue;
      const path = ["spec", "services", service];
      out.push(
        report(
          d,
          path,
          "deprecated-service",
          `${formatPath(path)}: ${service} accounts are deprecated by the service (API 2026-02); they still work`,
          {
            severity: "warning",
            which: "key",
          },
        ),
      );
    }
  }
  return out;
}

/**
 * Licenses are SPDX ids (the schema checks the shape; the catalogue is checked at plan time).
 * An id that differs from a common one only in case or punctuation is a near-certain typo.
 */
export function licenseIds(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const canonical = (id: string) => id.toLowerCase().replace(/[^a-z0-9]/g, "");
  const common = new Map(COMMON_LICENSES.map((c) => [canonical(c), c]));
  for (const p of projects(ctx)) {
    (p.value.spec.licenses ?? []).forEach((l, i) => {
      const c = common.get(canonical(l));
      const near = c === l ? undefined : c;
      if (near === undefined) return;
      const path = ["spec", "licenses", i];
      out.push(
        report(p, path, "license-id", `${formatPath(path)} ${l} is not the SPDX spelling`, {
          severity: "warning",
          hint: `did you mean ${near}?`,
        }),
      );
    });
  }
  return out;
}
