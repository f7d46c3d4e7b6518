/**
 * The manifest room's part of loading: paths → files → YAML documents → schema-checked
 * manifests (`collectDocuments`), and the context the cross-reference rules run in. Layers,
 * rules, policies and the DesiredState come after, in src/pipeline/load.ts, the one place
 * above manifest/, layers/ and policy/ that runs them in order. Problems are diagnostics,
 * never thrown; only a path that does not exist is a (typed) user error.
 */
import { readFileSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { checkDocument, type ValidDoc } from "./check.js";
import { bytePosition, decodeYamlBytes } from "./decode.js";
import { makeDiagnostic } from "./diagnostics.js";
import { discover } from "./discover.js";
import { repositoryIndex } from "./normalise.js";
import { parseYamlText, type ParseOptions } from "./parse.js";
import type { RuleContext } from "./rules/index.js";
import type { ConfigDocument } from "./schema/config.js";
import { schemaDiagnostics } from "./schema-errors.js";
import { apiProfileOf, normaliseConfig } from "./settings.js";
import type { Diagnostic, ManifestConfig, Source } from "./types.js";
import { validateAgainst } from "./validator.js";

export interface LoadOptions extends ParseOptions {
  /** Diagnostics and sources name files relative to this directory (default: process.cwd()). */
  cwd?: string;
  /** Today, for policy exceptions (default: the clock, or PHCTL_NOW). */
  now?: Date;
}

/** A file's content, already read: what loadManifestTexts works on (tests use it directly). */
export interface ManifestInput {
  /** As shown in diagnostics: relative, `/`-separated. */
  file: string;
  content: string | Uint8Array;
  /** phctl.yaml rather than manifests. */
  config?: boolean;
}

/** `out.push(...more)` for any length (spreading 100,000s of arguments overflows the stack). */
function append<T>(out: T[], more: readonly T[]): void {
  for (const x of more) out.push(x);
}

function decode(input: ManifestInput, out: Diagnostic[]): string | undefined {
  if (typeof input.content === "string") return input.content;
  const d = decodeYamlBytes(input.content);
  if (d.ok) return d.text;
  const at = bytePosition(input.content, d.offset);
  out.push(makeDiagnostic("error", d.code, { file: input.file, ...at }, d.message));
  return undefined;
}

function loadConfig(
  input: ManifestInput | undefined,
  opts: ParseOptions,
  out: Diagnostic[],
): { doc?: ConfigDocument; source?: Source } {
  if (!input) return {};
  const text = decode(input, out);
  if (text === undefined) return {};
  const { documents, diagnostics } = parseYamlText(input.file, text, opts);
  append(
    out,
    diagnostics.filter((d) => d.code !== "empty-file"),
  );
  const [first, ...rest] = documents;
  for (const extra of rest)
    out.push(
      makeDiagnostic(
        "error",
        "config-documents",
        extra.handle.start,
        "phctl.yaml must hold a single document",
      ),
    );
  if (!first || first.value === null || first.value === undefined) return {};
  const errors = validateAgainst("Config", first.value);
  if (errors.length > 0) {
    append(out, schemaDiagnostics(errors, first.value, first.handle, {}));
    return {};
  }
  return { doc: first.value, source: first.handle.start };
}

/**
 * Whether a file is the API profile phctl.yaml names (`apiProfile:`, relative to phctl.yaml):
 * it may sit in the config directory (README: profiles/acme-api.yaml) and is no manifest.
 */
export function profileFile(
  config: ManifestConfig,
  cwd = process.cwd(),
): ((file: string) => boolean) | undefined {
  const named = apiProfileOf(config);
  if (named === undefined) return undefined;
  const target = resolve(cwd, named);
  return (file) => resolve(cwd, file) === target;
}

/** What the inputs hold before normalisation: config, documents that passed their schemas. */
export interface Collected {
  config: ManifestConfig;
  valid: ValidDoc[];
  diagnostics: Diagnostic[];
  /**
   * Documents that fail their schemas: the part of each that passes (`salvaged`) and each as
   * written. Never objects of the config; only their own fields' checks run on them.
   */
  partial?: { salvaged: ValidDoc[]; written: ValidDoc[] };
}

/**
 * Decode, parse and schema-check every input (no cross-reference rules yet). `release`: the
 * inputs are the caller's to spend — each one's bytes are dropped once decoded (a 50 MB file
 * is not held twice).
 */
export function collectDocuments(
  inputs: readonly ManifestInput[],
  opts: LoadOptions = {},
  release = false,
): Collected {
  const diagnostics: Diagnostic[] = [];
  const configs = inputs.filter((i) => i.config);
  for (const extra of configs.slice(1))
    diagnostics.push(
      makeDiagnostic(
        "error",
        "config-conflict",
        { file: extra.file, line: 1, column: 1 },
        `a second phctl.yaml; the first is ${configs[0]?.file ?? ""}`,
        {
          hint: "validate one config repository at a time",
        },
      ),
    );
  const cfg = loadConfig(configs[0], opts, diagnostics);
  const config = normaliseConfig(cfg.doc, cfg.source);
  const valid: ValidDoc[] = [];
  const partial = { salvaged: [] as ValidDoc[], written: [] as ValidDoc[] };
  const profile = profileFile(config, opts.cwd);
  for (const input of inputs) {
    if (input.config || profile?.(input.file)) continue;
    const text = decode(input, diagnostics);
    if (release) input.content = "";
    if (text === undefined) continue;
    const parsed = parseYamlText(input.file, text, opts);
    append(diagnostics, parsed.diagnostics);
    for (const doc of parsed.documents) {
      const checked = checkDocument(doc);
      append(diagnostics, checked.diagnostics);
      if (checked.valid) valid.push(checked.valid);
      if (checked.partial?.salvaged) partial.salvaged.push(checked.partial.salvaged);
      if (checked.partial) partial.written.push(checked.partial.written);
    }
  }
  return { config, valid, diagnostics, partial };
}

/** The context the cross-reference rules run in. */
export function ruleContext(c: Collected): RuleContext {
  const users = new Map<string, ValidDoc<"User">>();
  for (const d of c.valid) if (d.kind === "User" && !users.has(d.name)) users.set(d.name, d);
  return { docs: c.valid, config: c.config, index: repositoryIndex(c.valid, c.config), users };
}

/**
 * Files under `paths`, read; unreadable files, ignored nested configs and symbolic links
 * not followed (discover) are diagnostics.
 */
export async function readInputs(
  paths: readonly string[],
  cwd: string,
): Promise<{ inputs: ManifestInput[]; diagnostics: Diagnostic[] }> {
  const found = await discover(paths.length > 0 ? paths : ["."], cwd);
  const show = (abs: string) => relative(cwd, abs).split(sep).join("/") || ".";
  const diagnostics: Diagnostic[] = [...found.diagnostics];
  // Synchronous reads: a tenth of the CPU of promise-based ones for thousands of small files.
  const read = (abs: string, config: boolean): ManifestInput | undefined => {
    try {
      return { file: show(abs), content: readFileSync(abs), config };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? "error";
      diagnostics.push(
        makeDiagnostic(
          "error",
          "read-failed",
          { file: show(abs), line: 1, column: 1 },
          `cannot read the file (${code})`,
        ),
      );
      return undefined;
    }
  };
  const inputs = [
    ...found.configs.map((f) => read(f, true)),
    ...found.manifests.map((f) => read(f, false)),
  ].filter((i): i is ManifestInput => i !== undefined);
  const inUse = found.configs[0];
  for (const nested of found.nestedConfigs)
    diagnostics.push(
      makeDiagnostic(
        "warning",
        "nested-config",
        { file: show(nested), line: 1, column: 1 },
        "ignored: phctl.yaml is read only at the root of a directory given to phctl",
        {
          hint: inUse ? `the config in use is ${show(inUse)}` : "pass its directory instead",
        },
      ),
    );
  return { inputs, diagnostics };
}
