/**
 * The loader: paths → files → YAML documents → schema-checked manifests → cross-reference
 * rules → DesiredState. Problems are returned as diagnostics (all of them, sorted), never
 * thrown; only a path that does not exist is a (typed) user error.
 */
import { readFileSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { applyLayers, attributeToLayers } from "../layers/effective.js";
import { layerFieldSources } from "../layers/field-sources.js";
import { unreadObjects } from "../layers/unread.js";
import { checkDocument, type ValidDoc } from "./check.js";
import { bytePosition, decodeYamlBytes } from "./decode.js";
import { makeDiagnostic, sortDiagnostics } from "./diagnostics.js";
import { discover } from "./discover.js";
import { normalise, repositoryIndex } from "./normalise.js";
import { parseYamlText, type ParseOptions } from "./parse.js";
import { policyPass, type PolicyPassOptions } from "../policy/load-pass.js";
import { runRules, type RuleContext } from "./rules/index.js";
import type { ConfigDocument } from "./schema/config.js";
import { schemaDiagnostics } from "./schema-errors.js";
import { apiProfileOf, normaliseConfig } from "./settings.js";
import type { Diagnostic, LoadResult, ManifestConfig, Source } from "./types.js";
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
function profileFile(
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
    }
  }
  return { config, valid, diagnostics };
}

/** The context the cross-reference rules run in. */
export function ruleContext(c: Collected): RuleContext {
  const users = new Map<string, ValidDoc<"User">>();
  for (const d of c.valid) if (d.kind === "User" && !users.has(d.name)) users.set(d.name, d);
  return { docs: c.valid, config: c.config, index: repositoryIndex(c.valid, c.config), users };
}

/** Load manifests from already-read contents (no file system). */
export function loadManifestTexts(
  inputs: readonly ManifestInput[],
  opts: LoadOptions = {},
  release = false,
): LoadResult {
  const read = collectDocuments(inputs, opts, release);
  const profile = profileFile(read.config, opts.cwd);
  const files = inputs.filter((i) => !profile?.(i.file)).map((i) => i.file);
  return settleDocuments(read, files, { release, policy: opts });
}

/**
 * Collected documents → the load's result: layers (every object with the Defaults that select
 * it merged in; the rest sees these), cross-reference rules, then the state — unless an error,
 * `extra` (the file system's) included, stops it. `plan --base` settles each side this way too.
 */
export function settleDocuments(
  read: Collected,
  files: readonly string[],
  o: { release?: boolean; extra?: readonly Diagnostic[]; policy?: PolicyPassOptions } = {},
): LoadResult {
  // Objects that did not load: a selector may choose them, so "matches nothing" is not said.
  const unread = unreadObjects(read.diagnostics);
  const layers = applyLayers(read.valid, read.config, unread);
  const collected: Collected = { ...read, valid: layers.docs };
  // Policies: compile errors are diagnostics; violations stay apart (the plan is still made).
  const policy = policyPass(collected.valid, collected.config, { ...o.policy, unread });
  const diagnostics = sortDiagnostics([
    ...collected.diagnostics,
    ...attributeToLayers([...layers.diagnostics, ...runRules(ruleContext(collected))], layers),
    ...policy.diagnostics,
    ...(o.extra ?? []),
  ]);
  const state = diagnostics.some((d) => d.severity === "error")
    ? undefined
    : normalise(collected.valid, collected.config, { release: o.release === true });
  if (state && layers.layered.size > 0) state.layerSources = layerFieldSources(layers.layered);
  if (state && layers.layers.length > 0) state.layers = layers.layers;
  return {
    state,
    layers,
    diagnostics,
    files: [...files].sort(),
    config: collected.config,
    policies: policy.policies,
    violations: policy.violations,
  };
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

/**
 * Load the manifests under `paths` (files or directories; default `.`). Throws a user error
 * only for a path that does not exist; everything else is a diagnostic.
 */
export async function loadManifests(
  paths: readonly string[],
  opts: LoadOptions = {},
): Promise<LoadResult> {
  const { inputs, diagnostics: extra } = await readInputs(paths, opts.cwd ?? process.cwd());
  const result = loadManifestTexts(inputs, opts, true);
  if (extra.length === 0) return result;
  const failed = extra.some((d) => d.severity === "error");
  return {
    ...result,
    state: failed ? undefined : result.state,
    diagnostics: sortDiagnostics([...result.diagnostics, ...extra]),
  };
}
