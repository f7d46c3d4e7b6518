/**
 * The benchmark organization (generate.ts) as one configuration written two ways: flat (every
 * object says everything) and layered (6 Defaults documents in defaults.yaml give what the
 * projects, repositories and users share; the objects keep the rest). Both load to the same
 * desired state (test/bench/layers-smoke.test.ts holds them equal), the state of `seed` (a
 * no-change plan of either against it is empty). The layers:
 *
 * - `project-baseline` (Project): the license and the subgroups every project has;
 * - `security-access` (Project): organization team acme/security reports on every project;
 * - `repository-baseline` (Repository): DCO required, forking off, on every repository;
 * - `docs-repositories` (Repository, subgroup docs, priority 10): issue tracking on;
 * - `user-baseline` (User): every user's git account;
 * - `lfs-repositories` (Repository, projects named `p*7`: a tenth of them): LFS on. The scoped
 *   PR plan of bench/layers.ts changes this one (`lfsOff`): it selects a subset.
 *
 * The flat text is generate()'s with those values written into each object; the layered
 * text is generate()'s without the lines the layers give. Each edit is checked to have
 * happened, so a change of the generator's templates fails here, not silently.
 */
import type { SeedDocument } from "../src/server/seed.js";
import { generate, ORG, slugOf, type Organization, type Shape } from "./generate.js";

export interface LayeredConfigs {
  /** Every object in full (phctl.yaml included). */
  flat: { file: string; content: string }[];
  /** The same configuration with defaults.yaml (phctl.yaml included). */
  layered: { file: string; content: string }[];
  /** The organization generate() made (its seed is live state for the flat config minus the layers' values). */
  org: Organization;
  /** Live state both configs describe: org's seed with the layers' values (and team acme/security). */
  seed: SeedDocument;
}

/** The file of the layers. */
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
---
apiVersion: phctl/v1
kind: Defaults
metadata: { name: lfs-repositories }
spec:
  description: The repositories of the projects named p*7 store large files
  select: { kind: Repository, names: ["p*7"] }
  values: { enableLFS: true }
`;

/** The Defaults document that selects a subset: a tenth of the projects' repositories. */
export const SUBSET_LAYER = "lfs-repositories";

/** Whether project `slug` is one `SUBSET_LAYER` selects (its glob `p*7`). */
export const inSubset = (slug: string) => slug.endsWith("7");

/** `LAYERS` with `SUBSET_LAYER` turning LFS off: a pull request that changes one layer's values. */
export function lfsOff(layers: string): string {
  return edit(layers, /values: \{ enableLFS: true \}/, () => "values: { enableLFS: false }");
}

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

/** A flat repository line of project `slug`: the layers' values written in. */
function flatRepository(slug: string, line: string, inner: string): string {
  const docs = /subgroup: docs\b/.test(inner);
  const lfs = inSubset(slug) ? ", enableLFS: true" : "";
  const extra = `${docs ? ", issueTracking: enabled" : ""}, requiresDCO: true, enableForking: false${lfs}`;
  return line.replace(`{ ${inner} }`, `{ ${inner}${extra} }`);
}

function projectTexts(slug: string, content: string): { flat: string; layered: string } {
  const REPORTERS = /^ {4}reporters: \[([^\]]*)\]$/m;
  const REPO = /^ {6}- \{ (name: (?:main|repo\d+)\b[^}]*) \}$/gm;
  const flat = edit(
    edit(
      content,
      REPORTERS,
      (_m, users) => `    reporters: { users: [${users}], organizationTeams: [acme/security] }`,
    ),
    REPO,
    (m, inner) => flatRepository(slug, m, inner),
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
      const t = projectTexts(f.file.slice("projects/".length, -".yaml".length), f.content);
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
  return { flat, layered, org, seed: layeredSeed(org) };
}

/** The organization team the `security-access` layer makes a reporter of every project. */
const SECURITY_TEAM = { organization: ORG, name: "security", path: `${ORG}/security` };

/** org's seed with what the layers give (the seed has the rest): what both configs describe. */
function layeredSeed(org: Organization): SeedDocument {
  const seed = structuredClone(org.seed);
  seed.orgTeams = [...(seed.orgTeams ?? []), SECURITY_TEAM];
  for (const p of seed.projects ?? []) {
    p.orgTeams = { ...p.orgTeams, reporters: [SECURITY_TEAM.path] };
    for (const r of p.git?.repositories ?? []) {
      Object.assign(r, { requiresDCO: true, enableForking: false });
      if (r.subgroup === "docs") r.issueTracking = "enabled";
      if (inSubset(p.slug)) r.enableLFS = true;
    }
  }
  return seed;
}

/** The slugs of the organization's projects that `SUBSET_LAYER` selects. */
export function subsetProjects(shape: Shape): string[] {
  return Array.from({ length: shape.projects }, (_, p) => slugOf(p)).filter(inSubset);
}
