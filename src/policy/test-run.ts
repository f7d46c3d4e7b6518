/**
 * `phctl policy test`: policy authors' test cases, as `opa test` / `kyverno test`. A case file
 * (`*.policytest.yaml`, beside the policies; the loader skips them) holds:
 *
 *   now: 2026-06-01            # optional: today, for exceptions
 *   organization: acme         # optional: phctl.yaml's organization (default: the DIR's)
 *   cases:
 *     - name: one admin is a warning
 *       objects: [ <manifest documents: Project, User, Team> ]
 *       expect: { two-admins: warn }        # rule (or policy/rule): allow | deny | warn
 *     - name: deleting an active repository
 *       change: { action: delete, kind: Repository, key: project/p/repo/r, before: {...} }
 *       expect: { archived-before-delete: deny }
 *
 * `deny` and `warn` expect a violation with that enforcement that no exception waives;
 * `allow` expects none. A failed expectation names the case's file:line and the rule, and
 * says why when the rule never ran on the case (its policy selects none of the case's
 * objects, or has rules of another scope). A case gives one of `object`, `objects`, `change`.
 */
import { describeSelector, selects, type SelectTarget } from "../layers/selector.js";
import { checkDocument, type ValidDoc } from "../manifest/check.js";
import { formatDiagnostic, formatSource, makeDiagnostic } from "../manifest/diagnostics.js";
import { didYouMean } from "../manifest/hints.js";
import { parseYamlText } from "../manifest/parse.js";
import type { DocHandle, FieldPath } from "../manifest/positions.js";
import type { Diagnostic, Source } from "../manifest/types.js";
import { evaluateChanges, evaluateObjects, targetOfKey } from "./evaluate.js";
import { policyTargets } from "./targets.js";
import type { ChangeInput, CompiledPolicy, Violation } from "./types.js";

/** One failed expectation, or a problem with a case file. */
export interface TestFailure {
  source: Source;
  message: string;
}

export interface TestFileResult {
  cases: number;
  failures: TestFailure[];
}

const EXPECTS = ["allow", "deny", "warn"];

/** A handle for a document nested at `prefix` of a case file. */
function subHandle(h: DocHandle, prefix: FieldPath): DocHandle {
  return {
    file: h.file,
    sourceAt: (o) => h.sourceAt(o),
    start: h.at(prefix),
    at: (path, which) => h.at([...prefix, ...path], which),
  };
}

const at = (s: Source) => `${s.file}:${s.line}:${s.column}`;

/** What one rule did in one case: allow, or the enforcement of its unwaived violation. */
function outcome(vs: readonly Violation[], policy: string, rule: string) {
  const mine = vs.filter((v) => v.policy === policy && v.rule === rule && !v.exception);
  if (mine.length === 0) return { got: "allow", why: "" };
  // A case has nothing before it: under ratchet its violation is new, and denies.
  const got = (x: Violation) => (x.enforcement === "ratchet" ? "deny" : x.enforcement);
  const deny = mine.find((x) => got(x) === "deny");
  const v = deny ?? mine[0];
  return { got: got(v), why: ` (${v.key}: ${v.message})` };
}

/** Resolve `rule` or `policy/rule` among the compiled policies: the policies that have it. */
function findRule(policies: readonly CompiledPolicy[], name: string): CompiledPolicy[] {
  const [p, r] = name.includes("/") ? name.split("/", 2) : [undefined, name];
  return policies.filter(
    (pol) => (p === undefined || pol.name === p) && pol.rules.some((x) => x.name === r),
  );
}

/** What a case gave the rules: the selector targets of its objects, or of its change. */
type CaseInput =
  | { scope: "object"; targets: SelectTarget[] }
  | { scope: "change"; key: string; target?: SelectTarget };

/**
 * Why `policy`'s rules did not run on a case, or "": its scope is not the case's, or its
 * select chooses none of the case's objects.
 */
function notRun(policy: CompiledPolicy, input: CaseInput): string {
  if (policy.scope !== input.scope) {
    const give =
      policy.scope === "change"
        ? "a `change`"
        : policy.scope === "object"
          ? "`object` or `objects`"
          : "nothing policy test can run (live rules run in drift)";
    return `: policy ${policy.name} has ${policy.scope} rules, and the case gives ${input.scope === "change" ? "a change" : "objects"} (give it ${give})`;
  }
  const chosen =
    input.scope === "object"
      ? input.targets.some((t) => selects(policy.select, t))
      : input.target !== undefined && selects(policy.select, input.target);
  if (chosen) return "";
  const of =
    input.scope === "object"
      ? input.targets.map((t) => `${t.kind} ${t.name}`).join(", ") || "no object"
      : input.key;
  return `: policy ${policy.name} selects ${describeSelector(policy.select)}, and the case's ${input.scope === "object" ? "objects are" : "change is"} ${of}; its rules did not run`;
}

/** The selector targets of a case's documents (the Project's repositories included). */
function caseTargets(docs: readonly ValidDoc[], organization: string | undefined): SelectTarget[] {
  const all = policyTargets(docs, organization);
  return [...all.Project, ...all.Repository, ...all.User, ...all.Team].map((t) => t.target);
}

const GIVES = ["object", "objects", "change"] as const;

/**
 * Duplicate policy names among `docs`: an error at the second document's name naming where
 * the first is (as validate's identity rule says it).
 */
export function duplicatePolicies(docs: readonly ValidDoc[]): Diagnostic[] {
  const first = new Map<string, ValidDoc>();
  const out: Diagnostic[] = [];
  for (const d of docs) {
    if (d.kind !== "Policy") continue;
    const prior = first.get(d.name);
    if (!prior) first.set(d.name, d);
    else
      out.push(
        makeDiagnostic(
          "error",
          "duplicate-identity",
          d.handle.at(["metadata", "name"], "value"),
          `duplicate Policy ${d.name}, first declared at ${formatSource(prior.handle.at(["metadata", "name"], "value"))}`,
          { kind: "Policy", name: d.name, path: "metadata.name" },
        ),
      );
  }
  return out;
}

interface CaseFile {
  now?: unknown;
  organization?: unknown;
  cases?: unknown;
}

/** Run the cases of one file against `policies`. */
export function runTestFile(
  file: string,
  text: string,
  policies: readonly CompiledPolicy[],
  defaults: { organization?: string | undefined; now: Date },
): TestFileResult {
  const failures: TestFailure[] = [];
  const parsed = parseYamlText(file, text);
  const fail = (source: Source, message: string) => failures.push({ source, message });
  for (const d of parsed.diagnostics) fail(d, d.message);
  let cases = 0;
  for (const doc of parsed.documents) {
    const h = doc.handle;
    const v = (doc.value ?? {}) as CaseFile;
    const now = typeof v.now === "string" || v.now instanceof Date ? new Date(v.now) : defaults.now;
    const organization =
      typeof v.organization === "string" ? v.organization : defaults.organization;
    if (!Array.isArray(v.cases)) {
      fail(h.start, "a test file holds `cases:`, a list");
      continue;
    }
    (v.cases as Record<string, unknown>[]).forEach((c, i) => {
      cases++;
      const where = h.at(["cases", i]);
      const label = `case ${JSON.stringify(c.name ?? `#${i + 1}`)}`;
      const given = GIVES.filter((g) => c[g] !== undefined);
      if (given.length > 1) {
        fail(
          h.at(["cases", i, given[1]], "key"),
          `${label}: gives ${given.join(" and ")}; a case gives one of object, objects or change`,
        );
        return;
      }
      let violations: Violation[];
      let input: CaseInput;
      if (c.change !== undefined) {
        const ch = c.change as Partial<ChangeInput>;
        const change: ChangeInput = {
          action: String(ch.action ?? "update"),
          kind: String(ch.kind ?? ""),
          key: String(ch.key ?? ""),
          before: ch.before ?? null,
          after: ch.after ?? null,
          fields: ch.fields ?? [],
          source: where,
          ...(typeof ch.file === "string" ? { file: ch.file } : {}),
          ...(typeof ch.layer === "string" ? { layer: ch.layer } : {}),
          ...(ch.labels ? { labels: ch.labels } : {}),
          ...(ch.organization ? { organization: ch.organization } : {}),
        };
        violations = evaluateChanges(policies, [change], now).violations;
        const target = targetOfKey(change.key, change.labels, change.organization);
        input = { scope: "change", key: change.key, ...(target ? { target } : {}) };
      } else {
        const list = (c.objects ?? (c.object !== undefined ? [c.object] : [])) as unknown[];
        const key = c.objects !== undefined ? "objects" : "object";
        const docs: ValidDoc[] = [];
        const problems: Diagnostic[] = [];
        list.forEach((o, j) => {
          const prefix = key === "objects" ? ["cases", i, key, j] : ["cases", i, key];
          const checked = checkDocument({ handle: subHandle(h, prefix), value: o });
          problems.push(...checked.diagnostics.filter((x) => x.severity === "error"));
          if (checked.valid) docs.push(checked.valid);
        });
        for (const p of problems)
          fail(p, `${label}: ${formatDiagnostic(p).slice(at(p).length + 1)}`);
        if (problems.length > 0) return;
        const opts = organization !== undefined ? { organization } : {};
        violations = evaluateObjects(policies, docs, now, opts).violations;
        input = { scope: "object", targets: caseTargets(docs, organization) };
      }
      const expect = (c.expect ?? {}) as Record<string, unknown>;
      if (Object.keys(expect).length === 0) fail(where, `${label}: no expect`);
      for (const [rule, want] of Object.entries(expect)) {
        const ruleAt = h.at(["cases", i, "expect", rule], "key");
        const owners = findRule(policies, rule);
        if (owners.length !== 1) {
          fail(
            ruleAt,
            `${label}: ${owners.length === 0 ? "no policy has rule" : "several policies have rule"} ${rule}${owners.length > 1 ? " (write policy/rule)" : ""}`,
          );
          continue;
        }
        if (typeof want !== "string" || !EXPECTS.includes(want)) {
          const hint =
            typeof want !== "string"
              ? undefined
              : (() => {
                  const stem = EXPECTS.find((e) => want.toLowerCase().startsWith(e.slice(0, 3)));
                  return stem ? `did you mean ${stem}?` : didYouMean(want, EXPECTS);
                })();
          fail(
            h.at(["cases", i, "expect", rule], "value"),
            `${label}: rule ${rule}: expect ${JSON.stringify(want)}: write allow, deny or warn${hint ? ` (${hint})` : ""}`,
          );
          continue;
        }
        const name = rule.includes("/") ? rule.split("/", 2)[1] : rule;
        const { got, why } = outcome(violations, owners[0].name, name);
        if (got === want) continue;
        const because = got === "allow" ? notRun(owners[0], input) : "";
        fail(where, `${label}: rule ${rule}: expected ${want}, got ${got}${why}${because}`);
      }
    });
  }
  return { cases, failures };
}
