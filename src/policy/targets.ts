/**
 * The objects object rules run on, from the documents: each Project, each repository of a
 * project's spec.git.repositories (a Repository), each User and Team — with what selectors
 * match (src/layers/selector.ts), the key violations name, the source, and the view rules
 * read (shape.ts), made once per object whatever the number of policies.
 */
import type { SelectKind, SelectTarget } from "../layers/selector.js";
import type { ValidDoc } from "../manifest/check.js";
import { projectKey, repositoryKey, teamKey, userKey } from "../manifest/keys.js";
import type { Source } from "../manifest/types.js";
import { kindShapes } from "./env.js";
import { view } from "./shape.js";

/** One object a selector may choose. */
export interface PolicyTarget {
  target: SelectTarget;
  key: string;
  source: Source;
  /** The CEL `object`, made on first use. */
  object: () => Record<string, unknown>;
}

const once = <T>(f: () => T): (() => T) => {
  let v: T | undefined;
  let done = false;
  return () => {
    if (!done) {
      v = f();
      done = true;
    }
    return v as T;
  };
};

const labelsOf = (m: { labels?: Record<string, string> }) => m.labels ?? {};

/** Every target of each kind; `organization`: phctl.yaml's, for objects that name none. */
export function policyTargets(
  docs: readonly ValidDoc[],
  organization?: string,
): Record<SelectKind, PolicyTarget[]> {
  const shapes = kindShapes();
  const out: Record<SelectKind, PolicyTarget[]> = {
    Project: [],
    Repository: [],
    User: [],
    Team: [],
  };
  const org = (o: string | undefined) => (o ?? organization) as string;
  for (const d of docs) {
    switch (d.kind) {
      case "Project": {
        const meta = d.value.metadata;
        const organizationOf = org(d.value.spec.organization);
        const target: SelectTarget = { kind: "Project", name: d.name, labels: labelsOf(meta) };
        if (organizationOf !== undefined) target.organization = organizationOf;
        out.Project.push({
          target,
          key: projectKey(d.name),
          source: d.handle.start,
          object: once(() => view(shapes.Project, d.value) as Record<string, unknown>),
        });
        const project = once(() => ({
          metadata: (view(shapes.Project, d.value) as { metadata: unknown }).metadata,
          ...(organizationOf !== undefined ? { organization: organizationOf } : {}),
        }));
        (d.value.spec.git?.repositories ?? []).forEach((r, i) => {
          if (r === null || typeof r !== "object" || "$remove" in r) return;
          const repo = r as { name: string; subgroup?: string };
          const subgroup = repo.subgroup ?? "";
          out.Repository.push({
            target: { ...target, kind: "Repository", repository: { name: repo.name, subgroup } },
            key: repositoryKey(d.name, subgroup, repo.name),
            source: d.handle.at(["spec", "git", "repositories", i]),
            object: once(() => ({
              ...(view(shapes.Repository, r) as Record<string, unknown>),
              project: project(),
            })),
          });
        });
        break;
      }
      case "User":
      case "Team": {
        const o = d.kind === "User" ? org(d.value.spec.organization) : organization;
        const target: SelectTarget = {
          kind: d.kind,
          name: d.name,
          labels: labelsOf(d.value.metadata),
        };
        if (o !== undefined) target.organization = o;
        const shape = shapes[d.kind];
        out[d.kind].push({
          target,
          key: d.kind === "User" ? userKey(d.name) : teamKey(d.name),
          source: d.handle.start,
          object: once(() => {
            const v = view(shape, d.value) as { spec: Record<string, unknown> };
            // A user's organization is phctl.yaml's when it names none (as selectors see it).
            if (d.kind === "User" && o !== undefined) v.spec.organization = o;
            return v;
          }),
        });
        break;
      }
      case "Organization":
      case "Defaults":
      case "Policy":
        break;
    }
  }
  return out;
}
