/** A credential written into a manifest: it is committed, and every output masks it. */
import { formatPath } from "../diagnostics.js";
import type { FieldPath } from "../positions.js";
import type { Diagnostic } from "../types.js";
import { credentialIn, mayHoldCredential } from "../../secrets.js";
import { report, type RuleContext } from "./context.js";

/**
 * Each string of `value` that holds a credential, with its path (`at` is the path so far, a
 * stack: copied only for a string found).
 */
function findIn(
  value: unknown,
  at: (string | number)[],
  found: (path: FieldPath, what: string) => void,
): void {
  if (typeof value === "string") {
    const what = credentialIn(value);
    if (what !== undefined) found([...at], what);
  } else if (Array.isArray(value))
    for (let i = 0; i < value.length; i++) {
      at.push(i);
      findIn(value[i], at, found);
      at.pop();
    }
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      at.push(k);
      findIn(v, at, found);
      at.pop();
    }
}

/**
 * Can the document hold a credential? One test of its JSON text (most hold none): a value
 * JSON cannot write (a cycle, a BigInt) is looked at string by string.
 */
function mayHold(value: unknown): boolean {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return true;
  }
  return text === undefined || mayHoldCredential(text);
}

/**
 * A value that holds a token (a well-known shape, or a token phctl is using) is a warning:
 * the manifest is committed, and phctl masks the value in every plan and file it writes.
 */
export function credentialValues(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of ctx.docs) {
    if (!mayHold(d.value)) continue;
    findIn(d.value, [], (path, what) =>
      out.push(
        report(
          d,
          path,
          "credential-value",
          `${formatPath(path)} holds ${what}: a manifest is committed, so a credential does not belong in it (plans and every file phctl writes show it masked)`,
          { severity: "warning", hint: "remove it from the manifest and revoke the token" },
        ),
      ),
    );
  }
  return out;
}
