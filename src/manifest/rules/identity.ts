/** Rules about identities: nothing is declared twice, unique fields stay unique. */
import type { ValidDoc } from "../check.js";
import { formatPath, formatSource } from "../diagnostics.js";
import type { FieldPath } from "../positions.js";
import { DEFAULTS } from "../schema/common.js";
import type { Diagnostic } from "../types.js";
import { projects, report, repositories, type RuleContext } from "./context.js";

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
    const children: [FieldPath, string, string][] = [
      ...repositories(p).map((r, i): [FieldPath, string, string] => [
        ["spec", "git", "repositories", i],
        "repository",
        `${r.subgroup ? `${r.subgroup}/` : ""}${r.name}`,
      ]),
      ...(p.value.spec.git?.mirrors ?? []).map((m, i): [FieldPath, string, string] => [
        ["spec", "git", "mirrors", i],
        "mirror to",
        m.to,
      ]),
      ...(p.value.spec.artifacts?.repositories ?? []).map((a, i): [FieldPath, string, string] => [
        ["spec", "artifacts", "repositories", i],
        "artifact repository",
        a.name ?? p.name,
      ]),
    ];
    const seen = new Map<string, FieldPath>();
    for (const [path, what, id] of children) {
      const prior = seen.get(`${what} ${id}`);
      if (!prior) seen.set(`${what} ${id}`, path);
      else
        out.push(
          report(
            p,
            path,
            "duplicate-identity",
            `${formatPath(path)} duplicates ${what} ${id}, first declared at ${formatSource(p.handle.at(prior))}`,
          ),
        );
    }
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
