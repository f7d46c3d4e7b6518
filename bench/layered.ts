/**
 * The benchmark organization (generate.ts) as one configuration written two ways: flat (every
 * object says everything) and layered (5 Defaults documents in defaults.yaml give what every
 * project, repository and user shares; the objects keep the rest). Both load to the same
 * desired state (test/bench/layers-smoke.test.ts holds them equal). The layers:
 *
 * - `project-baseline` (Project): the license and the subgroups every project has;
 * - `security-access` (Project): organization team acme/security reports on every project;
 * - `repository-baseline` (Repository): DCO required, forking off, on every repository;
 * - `docs-repositories` (Repository, subgroup docs, priority 10): issue tracking on;
 * - `user-baseline` (User): every user's git account.
 *
 * The flat text is generate()'s with those values written into each object; the layered
 * text is generate()'s without the lines the layers give. Each edit is checked to have
 * happened, so a change of the generator's templates fails here, not silently.
 */
import { generate, type Organization, type Shape } from "./generate.js";

export interface LayeredConfigs {
  /** Every object in full (phctl.yaml included). */
  flat: { file: string; content: string }[];
  /** The same configuration with defaults.yaml (phctl.yaml included). */
  layered: { file: string; content: string }[];
  /** The organization generate() made (its seed is live state for the flat config minus the layers' values). */
  org: Organization;
}

/** The file of the 5 layers. */
export const DEFAULTS_FILE = "defaults.yaml";

export const LAYERS = `apiVersion: phctl/v1
kind: Defaults
metadata: { name: project-baseline }
spec:
  description: What every project has
  select: { kind: Project }
  values:
    licenses: [Apache-2.0]
    git: { subgroups: [docs, tools/ci] }
---
apiVersion: phctl/v1
kind: Defaults
metadata: { name: security-access }
spec:
  select: { kind: Project }
  values:
    access: { reporters: { organizationTeams: [acme/security] } }
---
apiVersion: phctl/v1
kind: Defaults
metadata: { name: repository-baseline }
spec:
  select: { kind: Repository }
  values: { requiresDCO: true, enableForking: false }
---
apiVersion: phctl/v1
kind: Defaults
metadata: { name: docs-repositories }
spec:
  priority: 10
  select: { kind: Repository, subgroups: [docs] }
  values: { issueTracking: enabled }
---
apiVersion: phctl/v1
kind: Defaults
metadata: { name: user-baseline }
spec:
  select: { kind: User }
  values:
    services: { git: { status: active } }
`;

/** `text` with every `from` replaced by `to`, which must occur `times` times (or at least once). */
function edit(text: string, from: RegExp, to: (m: string, ...g: string[]) => string): string {
  let n = 0;
  const out = text.replace(from, (m: string, ...g: string[]) => {
    n++;
    return to(m, ...g);
  });
  if (n === 0) throw new Error(`bench/layered.ts: ${String(from)} no longer matches generate()`);
  return out;
}

/** A flat repository line: the layers' values written in. */
function flatRepository(line: string, inner: string): string {
  const docs = /subgroup: docs\b/.test(inner);
  const extra = `${docs ? ", issueTracking: enabled" : ""}, requiresDCO: true, enableForking: false`;
  return line.replace(`{ ${inner} }`, `{ ${inner}${extra} }`);
}

function projectTexts(content: string): { flat: string; layered: string } {
  const REPORTERS = /^ {4}reporters: \[([^\]]*)\]$/m;
  const REPO = /^ {6}- \{ (name: (?:main|repo\d+)\b[^}]*) \}$/gm;
  const flat = edit(
    edit(
      content,
      REPORTERS,
      (_m, users) => `    reporters: { users: [${users}], organizationTeams: [acme/security] }`,
    ),
    REPO,
    (m, inner) => flatRepository(m, inner),
  );
  const layered = edit(
    edit(content, /^ {2}licenses: \[Apache-2\.0\]\n/m, () => ""),
    /^ {4}subgroups: \[docs, tools\/ci\]\n/m,
    () => "",
  );
  return { flat, layered };
}

/** The organization of `shape`, flat and layered. */
export function layeredConfigs(shape: Shape): LayeredConfigs {
  const org = generate(shape);
  const flat: LayeredConfigs["flat"] = [];
  const layered: LayeredConfigs["layered"] = [{ file: DEFAULTS_FILE, content: LAYERS }];
  for (const f of org.files) {
    if (f.file.startsWith("projects/")) {
      const t = projectTexts(f.content);
      flat.push({ file: f.file, content: t.flat });
      layered.push({ file: f.file, content: t.layered });
    } else if (f.file === "users.yaml") {
      flat.push(f);
      layered.push({
        file: f.file,
        content: edit(f.content, /^ {2}services:\n {4}git: \{ status: active \}\n/gm, () => ""),
      });
    } else {
      flat.push(f);
      layered.push(f);
    }
  }
  return { flat, layered, org };
}
