/**
 * `phctl apply plan.json`: which argument is a saved plan, reading it (a phctl plan or a
 * one-line error), and the one-line refusal of a stale one, naming each changed object.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { Ajv } from "ajv";
import { userError, type PhctlError } from "../errors.js";
import type { StaleObject } from "../engine/guards.js";
import { Plan } from "../engine/plan.js";

/**
 * Where the manifests of a saved plan are, when only the plan is given: the directory that
 * holds every manifest file its entries come from — or, above it (not above the working
 * directory), the nearest one with a phctl.yaml. "." when the plan names no source.
 */
export function manifestsOfPlan(plan: Plan, cwd: string = process.cwd()): string {
  const dirs = [
    ...new Set(
      plan.entries.flatMap((e) => (e.source ? [dirname(resolve(cwd, e.source.file))] : [])),
    ),
  ];
  if (dirs.length === 0) return ".";
  let common = dirs[0];
  for (const d of dirs.slice(1))
    while (common !== d && !d.startsWith(`${common}${sep}`)) common = dirname(common);
  const root = resolve(cwd);
  if (!common.startsWith(root)) return ".";
  for (let dir = common; ; dir = dirname(dir)) {
    if (["phctl.yaml", "phctl.yml"].some((f) => existsSync(join(dir, f))))
      return relative(cwd, dir) || ".";
    if (dir === root || !dir.startsWith(root)) break;
  }
  return relative(cwd, common) || ".";
}

/** Split the arguments: at most one saved plan (a `.json` file), the rest manifest paths. */
export function splitArgs(paths: readonly string[]): { saved?: string; manifests: string[] } {
  const isFile = (p: string) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  const saved = paths.filter((p) => p.toLowerCase().endsWith(".json") && isFile(p));
  if (saved.length > 1)
    throw userError("BAD_ARGUMENTS", `one saved plan at a time (got ${saved.join(", ")})`);
  const manifests = paths.filter((p) => !saved.includes(p));
  return {
    ...(saved[0] !== undefined ? { saved: saved[0] } : {}),
    manifests,
  };
}

export function readSavedPlan(file: string): Plan {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw userError(
      "BAD_PLAN",
      `${file} is not a saved plan: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  const validate = new Ajv({ strict: false, allErrors: false }).compile(Plan);
  if (!validate(data)) {
    const first = validate.errors?.[0];
    throw userError(
      "BAD_PLAN",
      `${file} is not a phctl plan (made by \`phctl plan --out\`): ${first ? `${first.instancePath || "/"} ${first.message ?? ""}` : "unexpected shape"}`,
    );
  }
  return data;
}

/** The refusal of a stale saved plan: every changed object, with how it changed. */
export function staleError(file: string, stale: readonly StaleObject[]): PhctlError {
  const lines = stale.map((s) => `${s.key}: ${s.changes.join("; ")}`);
  return userError(
    "STALE_PLAN",
    `the saved plan ${file} is stale: ${stale.length === 1 ? "1 object" : `${stale.length} objects`} changed since it was made — ${lines.join(" | ")}; make a new plan (phctl plan --out ${file})`,
    lines,
  );
}
