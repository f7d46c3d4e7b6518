/**
 * Loading an API profile file: YAML with positions, the published JSON Schema
 * (profile-schema.ts), then what the schema cannot say (an override's path keeps the
 * operation's parameters; no two operations on one method and path). Every problem is
 * `file:line:col field: message (hint)`; any problem stops the command (exit 1), because
 * a half-understood profile would send requests to the wrong paths.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Ajv2020 as Ajv2020Class, ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { createRequire } from "node:module";
import { PhctlError } from "../errors.js";
import { formatDiagnostic, makeDiagnostic, formatPath } from "../manifest/diagnostics.js";
import { parseYamlText } from "../manifest/parse.js";
import { schemaDiagnostics } from "../manifest/schema-errors.js";
import type { Diagnostic } from "../manifest/types.js";
import { normaliseProfile, profileProblems, type ApiProfile } from "./profile.js";
import { apiProfileValidationSchema, type ApiProfileDocument } from "./profile-schema.js";

let validate: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (!validate) {
    // Loaded and compiled only when a profile is given.
    const req = createRequire(import.meta.url);
    const { Ajv2020 } = req("ajv/dist/2020.js") as { Ajv2020: typeof Ajv2020Class };
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false });
    validate = ajv.compile(apiProfileValidationSchema());
  }
  return validate;
}

function fail(file: string, diagnostics: Diagnostic[]): never {
  const lines = [...diagnostics]
    .sort((a, b) => a.line - b.line || a.column - b.column)
    .map(formatDiagnostic);
  const more = lines.length > 1 ? ` (and ${lines.length - 1} more: --verbose lists them)` : "";
  throw new PhctlError("BAD_API_PROFILE", `${lines[0]}${more}`, {
    details: [`API profile ${file}:`, ...lines],
  });
}

/** A profile's text checked: its document, or the problems (each at file:line:col). */
function checkProfile(
  file: string,
  text: string,
): { doc: ApiProfileDocument; problems?: never } | { problems: Diagnostic[] } {
  const { documents, diagnostics } = parseYamlText(file, text, { reader: "full" });
  const errors = diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) return { problems: errors };
  if (documents.length !== 1) {
    const at = documents[1]?.handle.start ?? { file, line: 1, column: 1 };
    return {
      problems: [
        makeDiagnostic(
          "error",
          "profile-documents",
          at,
          documents.length === 0
            ? "the API profile is empty"
            : "an API profile is one YAML document",
        ),
      ],
    };
  }
  const { handle, value } = documents[0];
  const data = value ?? {};
  const v = validator();
  if (!v(data)) return { problems: schemaDiagnostics(v.errors as ErrorObject[], data, handle, {}) };
  const doc = data as ApiProfileDocument;
  const problems = profileProblems(doc);
  if (problems.length > 0)
    return {
      problems: problems.map((p) =>
        makeDiagnostic("error", "profile-rule", handle.at(p.path, "key"), p.message, {
          path: formatPath(p.path),
          hint: p.hint,
        }),
      ),
    };
  return { doc };
}

/** Parse and check a profile's text; `file` names it in messages. */
export function parseApiProfile(file: string, text: string): ApiProfile {
  const checked = checkProfile(file, text);
  if (checked.problems) fail(file, checked.problems);
  return normaliseProfile(checked.doc, file);
}

/**
 * What is wrong with the profile file (for `phctl validate`, beside the manifests' own
 * diagnostics): nothing when it reads and checks; one diagnostic when it cannot be read.
 */
export function apiProfileDiagnostics(file: string, cwd: string = process.cwd()): Diagnostic[] {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), "utf8");
  } catch (e) {
    return [
      makeDiagnostic(
        "error",
        "read-failed",
        { file, line: 1, column: 1 },
        `cannot read the API profile (${(e as NodeJS.ErrnoException).code ?? "error"}); apiProfile: in phctl.yaml is relative to phctl.yaml`,
      ),
    ];
  }
  const checked = checkProfile(file, text);
  return checked.problems ?? [];
}

/** Read, parse and check a profile file (as the user named it; relative to `cwd`). */
export function loadApiProfile(file: string, cwd: string = process.cwd()): ApiProfile {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), "utf8");
  } catch (e) {
    throw new PhctlError(
      "READ_FAILED",
      `API profile ${file}: ${(e as NodeJS.ErrnoException).code ?? "cannot read"} (apiProfile: in phctl.yaml is relative to phctl.yaml, --api-profile to the working directory)`,
    );
  }
  return parseApiProfile(file, text);
}
