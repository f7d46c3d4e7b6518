/**
 * The checks that still run on documents that fail their schemas, so that their errors show
 * with the schema's instead of after it is fixed: a policy's rules and exceptions (an
 * expression's type error, an impossible `expires` date) and the rules that read one
 * document's own fields (a credential in a value, a license id's spelling). Each runs on
 * the part of the document that passes the schema (src/manifest/salvage.ts); a credential is
 * looked for in the document as written, misspelled fields included. Cross-reference rules
 * and policy evaluation do not: a missing part would make them report what is not so.
 */
import type { Collected } from "../manifest/load.js";
import { repositoryIndex } from "../manifest/normalise.js";
import { RULES } from "../manifest/rules/index.js";
import type { Diagnostic } from "../manifest/types.js";
import { compilePolicies } from "../policy/compile.js";
import { policyNow, type PolicyPassOptions } from "../policy/load-pass.js";
import { diskText, type TextOf } from "../policy/position.js";

/** Rules that read only a document's own fields, and what they read: its well-formed part or all of it. */
const OWN_FIELDS = {
  salvaged: [RULES.deprecatedServices, RULES.licenseIds],
  written: [RULES.credentialValues],
};

/** Diagnostics of the own-field checks on the documents that failed their schemas. */
export function partialDiagnostics(read: Collected, o: PolicyPassOptions = {}): Diagnostic[] {
  const partial = read.partial;
  if (!partial || partial.written.length === 0) return [];
  const out: Diagnostic[] = [];
  for (const [which, rules] of Object.entries(OWN_FIELDS) as [
    keyof typeof OWN_FIELDS,
    typeof OWN_FIELDS.written,
  ][]) {
    if (partial[which].length === 0) continue;
    // These rules read only `docs`: no index or users of documents that may lack a spec.
    const ctx = {
      docs: partial[which],
      config: read.config,
      index: repositoryIndex([], read.config),
      users: new Map(),
    };
    for (const rule of rules) out.push(...rule(ctx));
  }
  if (partial.salvaged.some((d) => d.kind === "Policy")) {
    const disk = diskText(o.cwd);
    const text: TextOf = (file) => o.texts?.get(file) ?? disk(file);
    const compiled = compilePolicies(partial.salvaged, { now: o.now ?? policyNow(), text });
    const written = writtenRuleNames(partial.written);
    for (const d of compiled.diagnostics) {
      // A rule that was cut is still the policy's: an exception may name it.
      const named = /^the exception names rule (.+), which the policy does not have$/.exec(
        d.message,
      );
      if (named && written.get(d.name ?? "")?.has(named[1])) continue;
      out.push(d);
    }
  }
  return out;
}

/** The rule names each policy (by name) has as written, the rules cut from it included. */
function writtenRuleNames(docs: readonly { kind: string; name: string; value: unknown }[]) {
  const names = new Map<string, Set<string>>();
  for (const d of docs) {
    if (d.kind !== "Policy") continue;
    const rules = (d.value as { spec?: { rules?: unknown } }).spec?.rules;
    const set = new Set<string>();
    if (Array.isArray(rules))
      for (const r of rules) {
        const name = (r as { name?: unknown } | null)?.name;
        if (typeof name === "string") set.add(name);
      }
    names.set(d.name, set);
  }
  return names;
}
