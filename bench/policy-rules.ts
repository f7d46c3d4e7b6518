/**
 * The policy benchmark's rules and measure (bench/policy.ts runs it; the smoke test in
 * test/policy/bench-smoke.test.ts runs it at size S): 20 object rules (8 on repositories,
 * 6 on projects, 4 on users, 2 on teams) over the size-L organization (2,000 projects,
 * 20,000 repositories, 10,000 users), in process: what the policy pass (compile + evaluate)
 * adds to loading the manifests, best of 3. Target: at most 0.5 s.
 */
import { collectDocuments } from "../src/manifest/load.js";
import { policyPass } from "../src/policy/load-pass.js";
import { generate, SIZES, type Size } from "./generate.js";

const rule = (name: string, expression: string) =>
  `    - name: ${name}\n      expression: ${JSON.stringify(expression)}\n`;

const doc = (name: string, kind: string, rules: string[], params = "{}") =>
  `apiVersion: phctl/v1\nkind: Policy\nmetadata: { name: ${name} }\nspec:\n  select: { kind: ${kind} }\n  enforcement: warn\n  params: ${params}\n  rules:\n${rules.join("")}`;

/** The 20 rules, as one file of four Policy documents. */
export const BENCH_POLICIES = [
  doc("repositories", "Repository", [
    rule("r1", "object.name.size() > 0"),
    rule("r2", "object.status == 'active' || object.status == 'archived'"),
    rule("r3", "!object.enableLFS || object.persistentStorage || true"),
    rule("r4", "object.issueTracking != 'private' || object.mergeRequests != 'enabled'"),
    rule("r5", "!has(object.forkFrom) || object.forkFrom.startsWith('https://')"),
    rule("r6", "object.subgroup == '' || !object.subgroup.startsWith('/')"),
    rule("r7", "!('tier' in object.project.metadata.labels) || object.requiresDCO"),
    rule("r8", "object.name.matches('^[a-z0-9._-]+$')"),
  ]),
  doc(
    "projects",
    "Project",
    [
      rule("p1", "size(object.spec.access.admins.users) >= params.min"),
      rule("p2", "object.spec.visibility != 'public' || size(object.spec.licenses) > 0"),
      rule("p3", "!has(object.spec.eccn) || object.spec.git.repositories.all(r, !r.enableForking)"),
      rule(
        "p4",
        "object.spec.access.admins.users.all(u, !(u in users) || users[u].spec.role != 'system-admin')",
      ),
      rule("p5", "!has(object.spec.git) || size(object.spec.git.repositories) <= 500"),
      rule("p6", "object.spec.title.size() > 0"),
    ],
    "{ min: 1 }",
  ),
  doc("users", "User", [
    rule("u1", "object.spec.externalEmail.contains('@')"),
    rule("u2", "object.spec.role != 'system-admin'"),
    rule("u3", "object.spec.status == 'active' || object.spec.status == 'inactive'"),
    rule("u4", "object.spec.firstName.size() > 0"),
  ]),
  doc("teams", "Team", [
    rule("t1", "size(object.spec.members) > 0"),
    rule("t2", "object.spec.members.all(m, m.size() > 0)"),
  ]),
].join("---\n");

/** Seconds (best of `runs`) to load, and to run the policy pass on the loaded documents. */
export function measure(size: Size, runs = 3) {
  const org = generate(SIZES[size]);
  const inputs = [
    ...org.files.map((f) => (f.file === "phctl.yaml" ? { ...f, config: true } : f)),
    { file: "policies/bench.yaml", content: BENCH_POLICIES },
  ];
  let load = Infinity;
  let policy = Infinity;
  let violations = 0;
  let unevaluated = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const c = collectDocuments(inputs);
    const t1 = performance.now();
    const pass = policyPass(c.valid, c.config);
    const t2 = performance.now();
    if (pass.diagnostics.some((d) => d.severity === "error"))
      throw new Error(JSON.stringify(pass.diagnostics[0]));
    violations = pass.violations.length;
    unevaluated = pass.violations.filter((v) => v.evaluationError !== undefined).length;
    load = Math.min(load, (t1 - t0) / 1000);
    policy = Math.min(policy, (t2 - t1) / 1000);
  }
  return { shape: SIZES[size], load, policy, violations, unevaluated };
}
