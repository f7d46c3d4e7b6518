/**
 * `phctl validate --format sarif`: diagnostics and policy violations as a SARIF 2.1.0 log, the
 * format GitHub code scanning (and other review tools) shows on a pull request's diff. One
 * run, tool `phctl`; a rule per diagnostic code (`phctl/unknown-field`) and per policy rule
 * (`policy/two-admins/at-least-two`); each result at its file, line and column, relative
 * to the working directory (run validate from the repository's root). A pure function.
 */
import type { Diagnostic } from "../manifest/types.js";
import type { PolicyViolation } from "../engine/plan.js";

/** One thing to report, whatever found it. */
export interface Finding {
  ruleId: string;
  /** What the rule checks, for the rule's description. */
  ruleText: string;
  level: "error" | "warning" | "note";
  message: string;
  file?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
  /** The object (`project/tf-a`) when it has no line: a logical location. */
  key?: string | undefined;
}

export function diagnosticFinding(d: Diagnostic): Finding {
  const subject = d.kind ? `${d.kind}${d.name ? ` ${d.name}` : ""}: ` : "";
  return {
    ruleId: `phctl/${d.code}`,
    ruleText: `phctl check ${d.code}`,
    level: d.severity === "error" ? "error" : d.severity === "warning" ? "warning" : "note",
    message: `${subject}${d.message}${d.hint ? ` (${d.hint})` : ""}`,
    file: d.file,
    line: d.line,
    column: d.column,
  };
}

export function violationFinding(v: PolicyViolation): Finding {
  return {
    ruleId: `policy/${v.policy}/${v.rule}`,
    ruleText: `rule ${v.rule} of the organization's policy ${v.policy}`,
    // An excepted violation is a note: code scanning shows it without failing the check.
    level: v.exception ? "note" : v.enforcement === "deny" ? "error" : "warning",
    message: `${v.key}: ${v.message}${v.exception ? ` (excepted until ${v.exception.expires}: ${v.exception.reason}; approved by ${v.exception.approvedBy})` : ""}`,
    file: v.source?.file,
    line: v.source?.line,
    column: v.source?.column,
    key: v.key,
  };
}

/** A path as a SARIF URI reference: forward slashes, each segment percent-encoded. */
function uriOf(file: string): string {
  return file
    .replace(/\\/g, "/")
    .split("/")
    .map((s) => encodeURIComponent(s))
    .join("/");
}

function locationOf(f: Finding) {
  const locations: object[] = [];
  if (f.file !== undefined) {
    locations.push({
      physicalLocation: {
        artifactLocation: { uri: uriOf(f.file) },
        ...(f.line !== undefined && f.line >= 1
          ? {
              region: {
                startLine: f.line,
                ...(f.column !== undefined && f.column >= 1 ? { startColumn: f.column } : {}),
              },
            }
          : {}),
      },
    });
  } else if (f.key !== undefined) {
    locations.push({ logicalLocations: [{ fullyQualifiedName: f.key, kind: "object" }] });
  }
  return locations;
}

/** The SARIF log (JSON text) of `findings`, made by phctl `version`. */
export function renderSarif(findings: readonly Finding[], version: string): string {
  const rules: { id: string; shortDescription: { text: string } }[] = [];
  const index = new Map<string, number>();
  for (const f of findings)
    if (!index.has(f.ruleId)) {
      index.set(f.ruleId, rules.length);
      rules.push({ id: f.ruleId, shortDescription: { text: f.ruleText } });
    }
  const results = findings.map((f) => ({
    ruleId: f.ruleId,
    ruleIndex: index.get(f.ruleId)!,
    level: f.level,
    message: { text: f.message },
    locations: locationOf(f),
  }));
  const log = {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "phctl",
            version,
            rules,
          },
        },
        // Columns count as the YAML reader counts: JavaScript string positions.
        columnKind: "utf16CodeUnits",
        results,
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
