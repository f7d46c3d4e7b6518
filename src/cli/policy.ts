/**
 * `phctl policy test [DIR]`: run the policy test cases (`*.policytest.yaml`) under DIR
 * against the policies under DIR (src/policy/test-run.ts). Exit 0 when every expectation
 * holds, 1 otherwise (or when a policy does not compile).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { Command } from "commander";
import { formatDiagnostic, sortDiagnostics } from "../manifest/diagnostics.js";
import { isPolicyTest } from "../manifest/discover.js";
import { collectDocuments, readInputs } from "../manifest/load.js";
import { compilePolicies } from "../policy/index.js";
import { policyNow } from "../policy/load-pass.js";
import { diskText } from "../policy/position.js";
import { duplicatePolicies, runTestFile } from "../policy/test-run.js";
import { escapeHiddenLines } from "../visible.js";

/** `1 case`, `2 cases`. */
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Test case files under `dir`, sorted (dot-directories and node_modules skipped). */
function testFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.isFile() && isPolicyTest(e.name)) out.push(join(d, e.name));
    }
  };
  walk(dir);
  return out;
}

export function registerPolicy(program: Command): void {
  const policy = program.command("policy").description("work with policies (kind: Policy)");
  policy
    .command("test")
    .description("run the policy test cases (*.policytest.yaml) against the policies under DIR")
    .argument("[dir]", "directory holding policies and their test cases", ".")
    .addHelpText(
      "after",
      `
Examples:
  phctl policy test examples/policies   # the starter library's tests
  phctl policy test policies/           # in CI, beside phctl validate`,
    )
    .action(async (dir: string) => {
      const cwd = process.cwd();
      const show = (abs: string) => relative(cwd, abs).split(sep).join("/");
      const { inputs, diagnostics: read } = await readInputs([dir], cwd);
      const collected = collectDocuments(inputs, { cwd });
      const now = policyNow();
      const compiled = compilePolicies(collected.valid, { now, text: diskText(cwd) });
      const errors = sortDiagnostics([
        ...read,
        ...collected.diagnostics,
        ...duplicatePolicies(collected.valid),
        ...compiled.diagnostics,
      ]).filter((d) => d.severity === "error");
      for (const d of errors) process.stdout.write(`${formatDiagnostic(d)}\n`);
      if (errors.length > 0) {
        process.stdout.write(`policies do not load: ${count(errors.length, "error")}\n`);
        process.exitCode = 1;
        return;
      }
      const files = testFiles(dir);
      let cases = 0;
      let failed = 0;
      for (const abs of files) {
        const file = show(abs);
        const r = runTestFile(file, readFileSync(abs, "utf8"), compiled.policies, {
          organization: collected.config.organization,
          now,
        });
        cases += r.cases;
        failed += r.failures.length;
        for (const f of r.failures)
          process.stdout.write(
            `${escapeHiddenLines(`${f.source.file}:${f.source.line}:${f.source.column} FAIL ${f.message}`)}\n`,
          );
        if (r.failures.length === 0)
          process.stdout.write(`ok ${file} (${count(r.cases, "case")})\n`);
      }
      if (files.length === 0) process.stdout.write(`no test cases (*.policytest.yaml) in ${dir}\n`);
      process.stdout.write(
        `${count(compiled.policies.length, "policy", "policies")}, ${count(cases, "case")}, ${count(failed, "failed expectation")}\n`,
      );
      if (failed > 0 || files.length === 0) process.exitCode = 1;
    });
}
