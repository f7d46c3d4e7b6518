/** Rules about a project's git side: subgroups, forks, mirrors, commit blockers. */
import { formatPath } from "../diagnostics.js";
import { didYouMean } from "../hints.js";
import { repositoryKey } from "../keys.js";
import { withParents } from "../normalise-project.js";
import { DEFAULTS } from "../schema/common.js";
import type { Diagnostic } from "../types.js";
import { projects, report, repositories, type RuleContext } from "./context.js";

/** A repository's subgroup is declared in spec.git.subgroups (or is a parent of one). */
export function repositorySubgroupDeclared(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of projects(ctx)) {
    const declared = withParents(p.value.spec.git?.subgroups ?? []);
    const known = new Set(declared);
    repositories(p).forEach((r, i) => {
      if (!r.subgroup || known.has(r.subgroup)) return;
      const path = ["spec", "git", "repositories", i, "subgroup"];
      out.push(
        report(
          p,
          path,
          "undeclared-subgroup",
          `${formatPath(path)} ${r.subgroup} is not declared in spec.git.subgroups`,
          {
            hint: didYouMean(r.subgroup, declared) ?? `add ${r.subgroup} to spec.git.subgroups`,
          },
        ),
      );
    });
  }
  return out;
}

/** Repositories whose fork chain comes back to them (each has at most one source). */
function forkCycles(sources: ReadonlyMap<string, string>): Set<string> {
  const onCycle = new Set<string>();
  const done = new Set<string>();
  for (const start of sources.keys()) {
    const path: string[] = [];
    const inPath = new Set<string>();
    let node: string | undefined = start;
    while (node !== undefined && !done.has(node) && !inPath.has(node)) {
      path.push(node);
      inPath.add(node);
      node = sources.get(node);
    }
    if (node !== undefined && inPath.has(node))
      for (const n of path.slice(path.indexOf(node))) onCycle.add(n);
    for (const n of path) done.add(n);
  }
  return onCycle;
}

/** A fork source inside a declared project is a declared, forkable repository other than itself. */
export function forkSources(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  // A key per repository only when some repository refuses forks or forks (not at 100,000s
  // of plain repositories).
  const forkable = new Map<string, boolean>();
  const sources = new Map<string, string>();
  const refuses = (r: { enableForking?: boolean }) =>
    (r.enableForking ?? DEFAULTS.repository.enableForking) === false;
  const all = projects(ctx).some((p) => repositories(p).some(refuses));
  for (const p of projects(ctx))
    for (const r of repositories(p)) {
      if (!all && r.forkFrom === undefined) continue;
      const key = repositoryKey(p.name, r.subgroup ?? "", r.name);
      if (all) forkable.set(key, !refuses(r));
      const from = r.forkFrom === undefined ? undefined : ctx.index.resolve(r.forkFrom)?.key;
      if (from !== undefined && from !== key) sources.set(key, from);
    }
  const cycles = forkCycles(sources);
  for (const p of projects(ctx)) {
    repositories(p).forEach((r, i) => {
      if (r.forkFrom === undefined) return;
      const path = ["spec", "git", "repositories", i, "forkFrom"];
      const where = ctx.index.resolve(r.forkFrom);
      if (!where) return;
      const self = repositoryKey(p.name, r.subgroup ?? "", r.name);
      if (where.key === undefined)
        out.push(
          report(
            p,
            path,
            "fork-source",
            `${formatPath(path)} points into project ${where.slug}, which declares no repository ${where.repoPath}`,
            {
              hint: didYouMean(where.repoPath, where.declared),
            },
          ),
        );
      else if (where.key === self)
        out.push(
          report(
            p,
            path,
            "fork-source",
            `${formatPath(path)}: a repository cannot be a fork of itself`,
          ),
        );
      else if (forkable.get(where.key) === false)
        out.push(
          report(
            p,
            path,
            "fork-source",
            `${formatPath(path)}: the source repository ${where.key} has enableForking: false; the API refuses to create this fork (an existing fork is kept)`,
            { severity: "warning" },
          ),
        );
      else if (cycles.has(self))
        out.push(
          report(
            p,
            path,
            "fork-source",
            `${formatPath(path)}: forks form a cycle through ${where.key}`,
          ),
        );
    });
  }
  return out;
}

/** A mirror that pushes into a declared project pushes into a declared repository, not its source. */
export function mirrorDestinations(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of projects(ctx)) {
    (p.value.spec.git?.mirrors ?? []).forEach((m, i) => {
      const path = ["spec", "git", "mirrors", i, "to"];
      const where = ctx.index.resolve(m.to);
      if (where && where.key === undefined)
        out.push(
          report(
            p,
            path,
            "mirror-destination",
            `${formatPath(path)} points into project ${where.slug}, which declares no repository ${where.repoPath}`,
            {
              hint: didYouMean(where.repoPath, where.declared),
            },
          ),
        );
      const a = ctx.index.resolve(m.from);
      if (where?.key !== undefined && a?.key === where.key)
        out.push(
          report(
            p,
            path,
            "mirror-destination",
            `${formatPath(path)}: a mirror cannot push into its own source`,
          ),
        );
    });
  }
  return out;
}

/** A commit blocker needs at least one author or committer domain. */
export function commitBlockerDomains(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of projects(ctx)) {
    repositories(p).forEach((r, i) => {
      const b = r.commitBlocker;
      if (!b || (b.author?.length ?? 0) + (b.committer?.length ?? 0) > 0) return;
      const path = ["spec", "git", "repositories", i, "commitBlocker"];
      out.push(
        report(
          p,
          path,
          "commit-blocker-empty",
          `${formatPath(path)} needs at least one author or committer domain`,
          { which: "key" },
        ),
      );
    });
  }
  return out;
}
