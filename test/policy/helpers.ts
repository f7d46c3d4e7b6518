/** Policies and objects from YAML texts, for the policy unit tests. */
import { collectDocuments } from "../../src/manifest/load.js";
import { compilePolicies } from "../../src/policy/index.js";

export const NOW = new Date("2026-06-01T12:00:00Z");

/** A Policy document around `spec` (YAML, indented two spaces under spec:). */
export const policy = (name: string, spec: string) =>
  `apiVersion: phctl/v1\nkind: Policy\nmetadata: { name: ${name} }\nspec:\n${spec}`;

/** Load `files` (name → YAML) and compile their policies at NOW. */
export function load(files: Record<string, string>, now = NOW) {
  const c = collectDocuments(Object.entries(files).map(([file, content]) => ({ file, content })));
  const compiled = compilePolicies(c.valid, { now, text: (f) => files[f] });
  return { ...compiled, docs: c.valid, schema: c.diagnostics };
}

export const project = (name: string, spec: string, labels = "{}") =>
  `apiVersion: phctl/v1\nkind: Project\nmetadata: { name: ${name}, labels: ${labels} }\nspec:\n  title: T\n${spec}`;
