/**
 * `phctl validate [PATH…]`: load the manifests, check schemas and cross-references and the
 * policies' object rules — no network — and print every diagnostic, every violation and a
 * summary. Exit 0 without errors or denials, 1 with.
 */
import type { Command } from "commander";
import { userError } from "../errors.js";
import {
  formatDiagnostic,
  formatSummary,
  sortDiagnostics,
  summarize,
  collapseLayered,
} from "../manifest/diagnostics.js";
import { defaultConfigDir } from "../manifest/config-root.js";
import { apiProfileOf } from "../manifest/settings.js";
import { loadManifests } from "../pipeline/load.js";
import type { Diagnostic } from "../manifest/types.js";
import { formatViolation, summarizeViolations, type Violation } from "../policy/index.js";
import { escapeHiddenLines } from "../visible.js";
import { codeownersDiagnostic, configuredCodeowners, ownerIndexOf } from "./owners-file.js";

const FORMATS = ["text", "json", "github", "sarif"] as const;
type Format = (typeof FORMATS)[number];

/** A GitHub Actions workflow command, so CI shows diagnostics on the pull request's lines. */
function githubAnnotation(d: Diagnostic): string {
  const esc = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const prop = (s: string) => esc(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
  const subject = d.kind ? `${d.kind}${d.name ? ` ${d.name}` : ""}: ` : "";
  const text = escapeHiddenLines(`${subject}${d.message}${d.hint ? ` (${d.hint})` : ""}`);
  return `::${d.severity} file=${prop(d.file)},line=${d.line},col=${d.column},title=${prop(d.code)}::${esc(text)}`;
}

/** A violation as a GitHub annotation on the object's line (excepted ones as notices). */
function githubViolation(v: Violation): string {
  const esc = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const prop = (s: string) => esc(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
  const level = v.exception ? "notice" : v.enforcement === "deny" ? "error" : "warning";
  const at = v.source
    ? `file=${prop(v.source.file)},line=${v.source.line},col=${v.source.column},`
    : "";
  const text = escapeHiddenLines(
    `${v.kind} ${v.key}: policy ${v.policy}, rule ${v.rule}: ${v.message}`,
  );
  return `::${level} ${at}title=${prop(`policy ${v.policy}`)}::${esc(text)}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function registerValidate(program: Command): void {
  program
    .command("validate")
    .description("check manifests (YAML syntax, schemas, cross-references) without the network")
    .argument(
      "[paths...]",
      "manifest files or directories (default: the directory holding phctl.yaml: this one, one above, or one below)",
    )
    .option("--format <format>", `output: ${FORMATS.join(", ")}`, "text")
    .option(
      "--codeowners <file>",
      "also check that FILE is the CODEOWNERS phctl owners writes (default: phctl.yaml's owners.file)",
    )
    .addHelpText(
      "after",
      `
Examples:
  phctl validate                       # the config directory: here, above or one below
  phctl validate examples/             # a directory: *.yaml / *.yml, phctl.yaml at its root
  phctl validate projects/tfa.yaml --format json   # {diagnostics, violations, summary} for CI
  phctl validate --format sarif > phctl.sarif      # GitHub code scanning (upload-sarif)
  phctl validate --codeowners .github/CODEOWNERS   # and the committed CODEOWNERS is current

Policies (kind: Policy) are checked too: a denied object exits 1, a warning only prints.`,
    )
    .action(async (paths: string[], o: { format: string; codeowners?: string }) => {
      if (!(FORMATS as readonly string[]).includes(o.format))
        throw userError(
          "BAD_FLAG",
          `--format must be one of ${FORMATS.join(", ")} (got ${o.format})`,
        );
      const format = o.format as Format;
      if (paths.length === 0) {
        const dir = defaultConfigDir(process.cwd(), "validate");
        if (dir !== ".") process.stderr.write(`phctl: validating ${dir} (it holds phctl.yaml)\n`);
        paths = [dir];
      }
      const loaded = await loadManifests(paths);
      const { files } = loaded;
      // The API profile phctl.yaml names is checked too: plan would stop on it.
      const profile = loaded.config ? apiProfileOf(loaded.config) : undefined;
      // The committed CODEOWNERS, when named: stale is an error at its first differing line.
      const codeowners = loaded.state
        ? (o.codeowners ?? configuredCodeowners(loaded.state))
        : undefined;
      const stale =
        codeowners !== undefined && loaded.state
          ? codeownersDiagnostic(
              ownerIndexOf(loaded, loaded.state, paths),
              loaded.state.config.owners?.format ?? "github",
              codeowners,
            )
          : undefined;
      const diagnostics =
        profile || stale
          ? sortDiagnostics([
              ...loaded.diagnostics,
              ...(profile
                ? (await import("../api/profile-load.js")).apiProfileDiagnostics(profile)
                : []),
              ...(stale ? [stale] : []),
            ])
          : loaded.diagnostics;
      const summary = summarize(
        diagnostics,
        files.length + (profile ? 1 : 0) + (codeowners !== undefined ? 1 : 0),
      );
      const violations = loaded.violations ?? [];
      const policy = summarizeViolations(violations);
      if (files.length === 0)
        process.stderr.write(`phctl: no manifest files (*.yaml, *.yml) in ${paths.join(" ")}\n`);
      if (format === "json") {
        process.stdout.write(
          `${JSON.stringify({ diagnostics, violations, summary: { ...summary, policy } }, null, 2)}\n`,
        );
      } else if (format === "sarif") {
        // For code scanning (github/codeql-action/upload-sarif): the log alone on stdout.
        const [sarif, { planViolation }, { VERSION }] = await Promise.all([
          import("../render/sarif.js"),
          import("../engine/policy-check.js"),
          import("../version.js"),
        ]);
        const findings = [
          ...diagnostics.map(sarif.diagnosticFinding),
          ...violations.map((v) => sarif.violationFinding(planViolation(v))),
        ];
        process.stdout.write(sarif.renderSarif(findings, VERSION));
      } else {
        const line = format === "github" ? githubAnnotation : formatDiagnostic;
        for (const d of collapseLayered(diagnostics)) process.stdout.write(`${line(d)}\n`);
        const vline = format === "github" ? githubViolation : formatViolation;
        for (const v of violations) process.stdout.write(`${vline(v)}\n`);
        const counts =
          violations.length > 0
            ? `; policy: ${policy.denied} denied, ${plural(policy.warnings, "warning")}${policy.excepted > 0 ? `, ${policy.excepted} excepted` : ""}${policy.ratchet ? `, ${policy.ratchet} under ratchet (plan judges them against live state)` : ""}`
            : "";
        process.stdout.write(`${formatSummary(summary)}${counts}\n`);
      }
      if (summary.errors > 0 || policy.denied > 0) process.exitCode = 1;
    });
}
