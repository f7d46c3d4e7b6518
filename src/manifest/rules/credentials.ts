/** A credential written into a manifest: it is committed, and every output masks it. */
import { formatPath } from "../diagnostics.js";
import type { FieldPath } from "../positions.js";
import type { Diagnostic } from "../types.js";
import { credentialIn } from "../../secrets.js";
import { report, type RuleContext } from "./context.js";

/** Every string of `value` with its path. */
function* strings(value: unknown, path: FieldPath): Generator<[FieldPath, string]> {
  if (typeof value === "string") yield [path, value];
  else if (Array.isArray(value))
    for (const [i, v] of value.entries()) yield* strings(v, [...path, i]);
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) yield* strings(v, [...path, k]);
}

/**
 * A value that holds a token (a well-known shape, or a token phctl is using) is a warning:
 * the manifest is committed, and phctl masks the value in every plan and file it writes.
 */
export function credentialValues(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of ctx.docs)
    for (const [path, text] of strings(d.value, [])) {
      const what = credentialIn(text);
      if (what === undefined) continue;
      out.push(
        report(
          d,
          path,
          "credential-value",
          `${formatPath(path)} holds ${what}: a manifest is committed, so a credential does not belong in it (plans and every file phctl writes show it masked)`,
          { severity: "warning", hint: "remove it from the manifest and revoke the token" },
        ),
      );
    }
  return out;
}
