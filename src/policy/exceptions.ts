/**
 * Policy exceptions: an object (key or key glob) a policy does not apply to, with a reason,
 * an approver and a last day. An expired exception stops counting; one that ends within 14
 * days still counts and is a warning, so it is renewed or the object fixed in time.
 */
import type { ValidDoc } from "../manifest/check.js";
import { makeDiagnostic } from "../manifest/diagnostics.js";
import { didYouMean } from "../manifest/hints.js";
import type { PolicyDocument } from "../manifest/schema/policy.js";
import type { Diagnostic, Source } from "../manifest/types.js";
import { globMatch, type SelectKind } from "../layers/selector.js";
import type { CompiledPolicy, PolicyExceptionInfo } from "./types.js";
import { endOf } from "../expiry/date.js";

/** The UTC midnight after the last day (src/expiry/date.ts: one reading of dates for both). */
export { endOf };

/** An exception that ends within this many days is a warning. */
export const EXPIRY_WARNING_DAYS = 14;
const DAY = 86_400_000;

type WrittenException = NonNullable<PolicyDocument["spec"]["exceptions"]>[number];

/** Whether the exception counts at `now`, and whether it ends soon. */
export function exceptionStatus(expires: string, now: Date): PolicyExceptionInfo["status"] {
  const end = endOf(expires);
  if (end === undefined || now.getTime() >= end) return "expired";
  return end - now.getTime() <= EXPIRY_WARNING_DAYS * DAY ? "expiring" : "active";
}

export function exceptionInfo(e: WrittenException, source: Source, now: Date): PolicyExceptionInfo {
  const info: PolicyExceptionInfo = {
    key: e.key,
    reason: e.reason,
    expires: e.expires,
    approvedBy: e.approvedBy,
    source,
    status: exceptionStatus(e.expires, now),
  };
  if (e.rules) info.rules = e.rules;
  return info;
}

/** The first segment of the keys of each kind's objects (src/manifest/keys.ts). */
const KEY_PREFIX: Record<SelectKind, string> = {
  Project: "project",
  Repository: "project",
  User: "user",
  Team: "team",
};
const FORMS = "project/NAME, project/NAME/repo/[SUBGROUP/]NAME, user/NAME or team/NAME";
const isGlob = (s: string) => s.includes("*") || s.includes("?");

/**
 * Why an exception's key can never match an object of `kind`, or undefined: a key is
 * `kind/NAME…` (globs allowed), so `prj/p1`, `p1` or `user/x` on a Project policy match
 * nothing whatever is declared.
 */
export function exceptionKeyProblem(
  key: string,
  kind: SelectKind,
): { message: string; hint?: string } | undefined {
  const prefix = KEY_PREFIX[kind];
  const parts = key.split("/");
  const rest = parts.slice(1).join("/");
  const [first] = parts;
  if (isGlob(first)) return key.includes("**") || parts.length > 1 ? undefined : shapeless();
  if (parts.length < 2 || parts.some((p) => p === "")) return shapeless();
  if (first === prefix) return undefined;
  const other = Object.values(KEY_PREFIX).includes(first);
  return {
    message: other
      ? `the exception's key ${key} names a ${first}, and the policy selects ${kind === "Repository" ? "repositories" : `${prefix}s`} (keys ${prefix}/…): it can match nothing`
      : `the exception's key ${key} is not an object key (${FORMS})`,
    hint: `did you mean ${prefix}/${rest}?`,
  };
  function shapeless() {
    const name = parts.filter((p) => p !== "").pop();
    const likely = name !== undefined && !isGlob(name) && !Object.values(KEY_PREFIX).includes(name);
    return {
      message: `the exception's key ${key} is not an object key (${FORMS})`,
      ...(likely ? { hint: `did you mean ${prefix}/${name}?` } : {}),
    };
  }
}

/** Malformed dates, keys and unknown rule names (errors); expired and expiring exceptions (warnings). */
export function exceptionDiagnostics(
  doc: ValidDoc<"Policy">,
  exceptions: readonly PolicyExceptionInfo[],
  ruleNames: ReadonlySet<string>,
  out: Diagnostic[],
): void {
  const where = { kind: "Policy", name: doc.name };
  exceptions.forEach((e, i) => {
    const path = ["spec", "exceptions", i];
    const keyProblem = exceptionKeyProblem(e.key, doc.value.spec.select.kind);
    if (keyProblem)
      out.push(
        makeDiagnostic(
          "error",
          "policy-exception",
          doc.handle.at([...path, "key"], "value"),
          keyProblem.message,
          { ...where, hint: keyProblem.hint },
        ),
      );
    if (endOf(e.expires) === undefined) {
      out.push(
        makeDiagnostic(
          "error",
          "policy-exception",
          doc.handle.at([...path, "expires"], "value"),
          `expires: ${e.expires} is not a date`,
          { ...where, hint: "write YYYY-MM-DD, a day that exists" },
        ),
      );
      return;
    }
    (e.rules ?? []).forEach((r, j) => {
      if (!ruleNames.has(r))
        out.push(
          makeDiagnostic(
            "error",
            "policy-exception",
            doc.handle.at([...path, "rules", j], "value"),
            `the exception names rule ${r}, which the policy does not have`,
            { ...where, hint: didYouMean(r, ruleNames) },
          ),
        );
    });
    if (e.status === "expired")
      out.push(
        makeDiagnostic(
          "warning",
          "policy-exception-expired",
          e.source,
          `the exception for ${e.key} expired on ${e.expires}: it no longer counts`,
          { ...where, hint: "renew it (a new expires) or remove it" },
        ),
      );
    else if (e.status === "expiring")
      out.push(
        makeDiagnostic(
          "warning",
          "policy-exception-expiring",
          e.source,
          `the exception for ${e.key} expires on ${e.expires} (approved by ${e.approvedBy})`,
          where,
        ),
      );
  });
}

/** The exception of `policy` that covers `rule` on `key` at `now`, if one still counts. */
export function exceptionFor(
  policy: CompiledPolicy,
  rule: string,
  key: string,
  now: Date,
): PolicyExceptionInfo | undefined {
  for (const e of policy.exceptions) {
    if (e.rules && !e.rules.includes(rule)) continue;
    if (!globMatch(e.key, key)) continue;
    const status = exceptionStatus(e.expires, now);
    if (status !== "expired") return { ...e, status };
  }
  return undefined;
}

const KIND_WORD: Record<SelectKind, string> = {
  Project: "project",
  Repository: "repository",
  User: "user",
  Team: "team",
};

/**
 * Warnings for the exceptions of an object policy that match none of the objects it selects
 * (`selected`: their keys), with the closest key as did-you-mean, or the reason when the key
 * names a declared object the policy does not select (`declared`: every key of its kind).
 * Malformed keys are errors already (exceptionDiagnostics); expired exceptions warn already.
 */
export function unmatchedExceptions(
  policy: CompiledPolicy,
  selected: readonly string[],
  declared: () => readonly string[],
  now: Date,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const kind = policy.select.kind;
  for (const e of policy.exceptions) {
    if (exceptionKeyProblem(e.key, kind) || exceptionStatus(e.expires, now) === "expired") continue;
    if (selected.some((k) => globMatch(e.key, k))) continue;
    const elsewhere = declared().find((k) => globMatch(e.key, k));
    const hint =
      elsewhere !== undefined
        ? `${elsewhere} is declared, but the policy's select does not choose it`
        : didYouMean(e.key, selected.length > 0 ? selected : declared());
    out.push(
      makeDiagnostic(
        "warning",
        "policy-exception-unmatched",
        e.source,
        `the exception for ${e.key} matches no ${KIND_WORD[kind]} the policy selects: it excepts nothing`,
        { kind: "Policy", name: policy.name, ...(hint !== undefined ? { hint } : {}) },
      ),
    );
  }
  return out;
}
