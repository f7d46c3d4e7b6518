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
 * `allow` expects none. A failed expectation names the case's file:line and the rule.
 */
import { checkDocument, type ValidDoc } from "../manifest/check.js";
import { formatDiagnostic } from "../manifest/diagnostics.js";
import { parseYamlText } from "../manifest/parse.js";
import type { DocHandle, FieldPath } from "../manifest/positions.js";
import type { Diagnostic, Source } from "../manifest/types.js";
import { evaluateChanges, evaluateObjects } from "./evaluate.js";
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
  const deny = mine.find((v) => v.enforcement === "deny");
  const v = deny ?? mine[0];
  return { got: v.enforcement, why: ` (${v.key}: ${v.message})` };
}

/** Resolve `rule` or `policy/rule` among the compiled policies. */
function findRule(policies: readonly CompiledPolicy[], name: string) {
  const [p, r] = name.includes("/") ? name.split("/", 2) : [undefined, name];
  const found = policies.flatMap((pol) =>
    pol.rules
      .filter((x) => x.name === r && (p === undefined || pol.name === p))
      .map(() => pol.name),
  );
  return found;
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
      let violations: Violation[];
      if (c.change !== undefined) {
        const ch = c.change as Partial<ChangeInput>;
        const input: ChangeInput = {
          action: String(ch.action ?? "update"),
          kind: String(ch.kind ?? ""),
          key: String(ch.key ?? ""),
          before: ch.before ?? null,
          after: ch.after ?? null,
          fields: ch.fields ?? [],
          source: where,
          ...(ch.labels ? { labels: ch.labels } : {}),
          ...(ch.organization ? { organization: ch.organization } : {}),
        };
        violations = evaluateChanges(policies, [input], now).violations;
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
          fail(ruleAt, `${label}: rule ${rule}: expect ${EXPECTS.join(", ")}`);
          continue;
        }
        const name = rule.includes("/") ? rule.split("/", 2)[1] : rule;
        const { got, why } = outcome(violations, owners[0], name);
        if (got !== want) fail(where, `${label}: rule ${rule}: expected ${want}, got ${got}${why}`);
      }
    });
  }
  return { cases, failures };
}
