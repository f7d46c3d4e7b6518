/** Rules about identities: nothing is declared twice, unique fields stay unique. */
import type { ValidDoc } from "../check.js";
import { formatPath, formatSource } from "../diagnostics.js";
import type { FieldPath } from "../positions.js";
import { DEFAULTS } from "../schema/common.js";
import type { Diagnostic } from "../types.js";
import { projects, report, repositories, type RuleContext } from "./context.js";
import { eachDuplicate } from "./duplicates.js";

const REPOS = ["spec", "git", "repositories"];
const MIRRORS = ["spec", "git", "mirrors"];
const ARTIFACTS = ["spec", "artifacts", "repositories"];

/** No two documents declare the same object; inside a project, no two children either. */
export function duplicateIdentities(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const first = new Map<string, ValidDoc>();
  for (const d of ctx.docs) {
    const id = `${d.kind}/${d.name}`;
    const prior = first.get(id);
    if (!prior) first.set(id, d);
    else
      out.push(
        report(
          d,
          ["metadata", "name"],
          "duplicate-identity",
          `duplicate ${d.kind} ${d.name}, first declared at ${formatSource(prior.handle.at(["metadata", "name"]))}`,
        ),
      );
  }
  for (const p of projects(ctx)) {
    // Where each child identity is first declared (its index in its list), by list: no
    // string or path made per child (100,000s of repositories).
    const report1 = (list: FieldPath, i: number, first: number, what: string, id: string) => {
      const path = [...list, i];
      out.push(
        report(
          p,
          path,
          "duplicate-identity",
          `${formatPath(path)} duplicates ${what} ${id}, first declared at ${formatSource(p.handle.at([...list, first]))}`,
        ),
      );
    };
    const repos = repositories(p);
    const subgroupOf = (i: number) => repos[i].subgroup ?? "";
    eachDuplicate(
      repos.length,
      subgroupOf,
      (i) => repos[i].name,
      (i, first) => {
        const subgroup = subgroupOf(i);
        report1(REPOS, i, first, "repository", `${subgroup ? `${subgroup}/` : ""}${repos[i].name}`);
      },
    );
    const mirrors = new Map<string, number>();
    (p.value.spec.git?.mirrors ?? []).forEach((m, i) => {
      const first = mirrors.get(m.to);
      if (first === undefined) mirrors.set(m.to, i);
      else report1(MIRRORS, i, first, "mirror to", m.to);
    });
    const artifacts = new Map<string, number>();
    (p.value.spec.artifacts?.repositories ?? []).forEach((a, i) => {
      const name = a.name ?? p.name;
      const first = artifacts.get(name);
      if (first === undefined) artifacts.set(name, i);
      else report1(ARTIFACTS, i, first, "artifact repository", name);
    });
  }
  return out;
}

/** User e-mail addresses are unique in the identity provider. */
export function uniqueEmails(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const first = new Map<string, ValidDoc<"User">>();
  for (const d of ctx.docs) {
    if (d.kind !== "User") continue;
    const email = d.value.spec.externalEmail.toLowerCase();
    const prior = first.get(email);
    if (!prior) first.set(email, d);
    else if (prior.name !== d.name)
      out.push(
        report(
          d,
          ["spec", "externalEmail"],
          "duplicate-email",
          `spec.externalEmail ${d.value.spec.externalEmail} is also the e-mail of user ${prior.name} (${formatSource(prior.handle.at(["spec", "externalEmail"]))}); e-mails are unique`,
        ),
      );
  }
  return out;
}

/** Two projects of one organization cannot share a git group path. */
export function uniqueGroupPaths(ctx: RuleContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const first = new Map<string, ValidDoc<"Project">>();
  for (const p of projects(ctx)) {
    const git = p.value.spec.git;
    if (!git) continue;
    const org = p.value.spec.organization ?? ctx.config.organization ?? "";
    const visibility = p.value.spec.visibility ?? DEFAULTS.project.visibility;
    const path = git.group?.path ?? p.name;
    const ns = `${org}/${visibility === "private" ? "private/" : ""}${path}`.toLowerCase();
    const prior = first.get(ns);
    if (!prior) first.set(ns, p);
    else if (prior.name !== p.name)
      out.push(
        report(
          p,
          git.group?.path ? ["spec", "git", "group", "path"] : ["spec", "git"],
          "duplicate-group-path",
          `git group path ${path} is also used by project ${prior.name} (${formatSource(prior.handle.start)})`,
          { which: git.group?.path ? "value" : "key" },
        ),
      );
  }
  return out;
}
