/**
 * The CEL environments rules are checked and evaluated in. Checking is typed: `object` is the
 * selected kind's document as src/policy/shape.ts derives it from the kind's JSON Schema (a
 * misspelled field is a type error at load), `params` is typed by the policy's own params.
 * Evaluation runs in an untyped environment over the views (shape.ts): the types were proven
 * at load, and the library's typed evaluation would want every nested mapping converted.
 */
import { Environment } from "@marcbachmann/cel-js";
import type { SelectKind } from "../layers/selector.js";
import { kindSchema } from "../manifest/schema/index.js";
import type { PolicyScope } from "../manifest/schema/policy.js";
import { LIVE_SCHEMAS } from "./live-schema.js";
import { MAX_NESTING } from "./nesting.js";
import { re2Matches, RE2_FUNCTION } from "./re2.js";
import { celType, shapeOf, shapeOfValue, type ObjectShape, type Shape } from "./shape.js";

/**
 * Structural limits at parse time (the library's): an expression is at most 2,000 nodes and
 * 64 deep (runs of unary operators, which the library does not bound, are nesting.ts's).
 * The evaluation's cost limit is cost.ts.
 */
const LIMITS = {
  maxAstNodes: 2000,
  maxDepth: MAX_NESTING,
  maxListElements: 1000,
  maxMapEntries: 1000,
  maxCallArguments: 32,
};
const OPTIONS = { limits: LIMITS, homogeneousAggregateLiterals: false };

const docShape = (k: "Project" | "User" | "Team") => shapeOf(kindSchema(k)) as ObjectShape;

function field(s: Shape | undefined, name: string): Shape {
  if (s?.t !== "object" || !s.fields[name]) throw new Error(`no field ${name} in the schema`);
  return s.fields[name];
}

let shapes: Record<SelectKind, ObjectShape> | undefined;
/**
 * The shape of `object` per selected kind. A Repository is one item of a project's
 * `spec.git.repositories` plus `project`: its project's `metadata` and `organization`.
 */
export function kindShapes(): Record<SelectKind, ObjectShape> {
  if (shapes) return shapes;
  const project = docShape("Project");
  const repos = field(field(field(project, "spec"), "git"), "repositories");
  const item = (repos as { item: ObjectShape }).item;
  const repository: ObjectShape = {
    ...item,
    fields: {
      ...item.fields,
      project: {
        t: "object",
        fields: { metadata: field(project, "metadata"), organization: { t: "string" } },
        defaults: {},
        container: false,
      },
    },
  };
  shapes = {
    Project: project,
    Repository: repository,
    User: docShape("User"),
    Team: docShape("Team"),
  };
  return shapes;
}

/** `change`: one plan entry. */
const CHANGE_FIELDS = {
  action: "string",
  kind: "string",
  key: "string",
  before: "dyn",
  after: "dyn",
  fields: "list<string>",
  file: "string",
  layer: "string",
  project: "string",
  organization: "string",
};

const checkEnvs = new Map<string, Environment>();
/** The field names each environment's types declare: did-you-mean candidates. */
const names = new WeakMap<Environment, Set<string>>();

/** Every field name the types of a check environment declare. */
export const fieldNames = (env: Environment): Set<string> => names.get(env) ?? new Set();

/** The typed environment of one scope and kind, without params (cloned per policy). */
function baseEnv(scope: PolicyScope, kind: SelectKind): Environment {
  const id = `${scope}/${kind}`;
  let env = checkEnvs.get(id);
  if (env) return env;
  env = new Environment(OPTIONS);
  const e = env;
  const known = new Set<string>(["object", "users", "change", "params", "today"]);
  names.set(e, known);
  const register = (name: string, fields: Record<string, string>) => {
    e.registerType(name, { fields });
    for (const k of Object.keys(fields)) known.add(k);
  };
  if (scope === "object") {
    e.registerVariable("object", celType(kindShapes()[kind], kind, register));
    const user = kind === "User" ? "User" : celType(kindShapes().User, "User", register);
    e.registerVariable("users", `map<string, ${user}>`);
    // Today (UTC, YYYY-MM-DD), for grants that expire: `timestamp(today + "T00:00:00Z")`.
    e.registerVariable("today", "string");
  } else if (scope === "change") {
    register("Change", CHANGE_FIELDS);
    e.registerVariable("change", "Change");
    e.registerVariable("users", `map<string, ${celType(kindShapes().User, "User", register)}>`);
  } else {
    // A live object: typed by its published schema (live-schema.ts), not the manifest's.
    const live = shapeOf(LIVE_SCHEMAS[kind]);
    e.registerVariable("object", celType(live, `Live${kind}`, register));
  }
  checkEnvs.set(id, env);
  return env;
}

/** The typed environment a policy's rules are checked in. */
export function checkEnv(
  scope: PolicyScope,
  kind: SelectKind,
  params: Record<string, unknown>,
): Environment {
  const base = baseEnv(scope, kind);
  const env = base.clone();
  const known = new Set(fieldNames(base));
  names.set(env, known);
  const register = (name: string, fields: Record<string, string>) => {
    env.registerType(name, { fields });
    for (const k of Object.keys(fields)) known.add(k);
  };
  env.registerVariable("params", celType(shapeOfValue(params), "Params", register));
  return env;
}

let evalEnv: Environment | undefined;
/**
 * The untyped environment rules run in. A rule's `matches()` is evaluated as RE2_FUNCTION,
 * on RE2 (re2.ts: linear time, whatever the pattern).
 */
export function evaluationEnv(): Environment {
  evalEnv ??= new Environment(OPTIONS)
    .registerVariable("object", "dyn")
    .registerVariable("users", "dyn")
    .registerVariable("change", "dyn")
    .registerVariable("params", "dyn")
    .registerVariable("today", "dyn")
    .registerFunction(`string.${RE2_FUNCTION}(string): bool`, (s: string, p: string) =>
      re2Matches(s, p),
    );
  return evalEnv;
}
