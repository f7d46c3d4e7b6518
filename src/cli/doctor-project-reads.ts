/**
 * `phctl doctor`'s reads under a project: the detail, the git group and its lists
 * (subgroups, repositories, bundles), mirrors and artifact repositories, and one record of
 * each list. Of the first few projects, each list is read on the first project where it has
 * two items or more (so that its paging can be checked), else where it has the most; the
 * git reads only on projects whose detail shows a git group (plan reads them only there).
 * The first such group's id is handed on: doctor-git.ts reads its delivery metrics.
 */
import { checkResponse } from "../api/strict.js";
import type { OperationId } from "../api/routes.js";
import { dataOf, type Answer, type Prober, type Refusal } from "./doctor-probe.js";
import { field, itemsOf, mainQuery, type Reads } from "./doctor-read-row.js";

/** Projects looked at, at most. */
const CANDIDATES = 5;

const GROUP_READS: OperationId[] = [
  "git.group.get",
  "git.subgroups.list",
  "git.repos.list",
  "git.repos.get",
  "bundles.list",
];
const ALL_READS: OperationId[] = [
  "projects.get",
  ...GROUP_READS,
  "mirrors.list",
  "mirrors.get",
  "artifacts.repos.list",
  "artifacts.repos.get",
];

/** Read list `op` on the candidates (see the header); its row, and the items it gave. */
async function listRow(
  r: Reads,
  op: OperationId,
  slugs: string[],
): Promise<{ slug: string; items: unknown[] } | undefined> {
  const p: Prober = r.p;
  let best: { slug: string; a: Answer | Refusal; n: number } | undefined;
  for (const slug of slugs) {
    const a = await p.get(op, { projectSlug: slug }, mainQuery(p, op));
    if (!a.ok || checkResponse(op, a.body, p.profile).length > 0) {
      best = { slug, a, n: -1 }; // report the failure
      break;
    }
    const n = itemsOf(p, op, a.body)?.length ?? 0;
    if (!best || n > best.n) best = { slug, a, n };
    if (n >= 2) break;
  }
  if (!best) return undefined;
  const items = await r.record(op, best.a, { projectSlug: best.slug });
  return items ? { slug: best.slug, items } : undefined;
}

/** A list's row, then the row of its first item's record (or why there is none). */
async function listAndRecord(
  r: Reads,
  list: OperationId,
  get: OperationId,
  key: string,
  param: string,
  slugs: string[],
): Promise<void> {
  const found = await listRow(r, list, slugs);
  const id = field(found?.items[0], key);
  if (found && (typeof id === "string" || typeof id === "number"))
    await r.row(get, { projectSlug: found.slug, [param]: id });
  else r.skip(get, found ? `no item in the list of ${found.slug}` : `${list} gave nothing to read`);
}

/** The git group doctor read (its delivery metrics are checked next), or why there is none. */
export type GitGroupFound = { projectSlug: string; id: number | string } | { none: string };

/** The reads under the first few of `all` (see the header); the git group they found. */
export async function probeProjectReads(r: Reads, all: string[]): Promise<GitGroupFound> {
  const slugs = all.slice(0, CANDIDATES);
  if (slugs.length === 0) {
    for (const op of ALL_READS) r.skip(op, "no project to read");
    return { none: "the service has no project to read the git group of" };
  }
  const grouped: string[] = [];
  for (const [i, slug] of slugs.entries()) {
    const a = await r.p.get("projects.get", { projectSlug: slug });
    if (i === 0) await r.record("projects.get", a, { projectSlug: slug });
    const links = a.ok ? field(dataOf(a.body), "links") : undefined;
    if (typeof field(links, "gitGroup") === "string") grouped.push(slug);
  }
  let found: GitGroupFound = { none: `no git group in projects ${slugs.join(", ")}` };
  if (grouped.length > 0) {
    const projectSlug = grouped[0];
    const a = await r.p.get("git.group.get", { projectSlug });
    await r.record("git.group.get", a, { projectSlug });
    const id = a.ok ? field(dataOf(a.body), "id") : undefined;
    found =
      typeof id === "number" || typeof id === "string"
        ? { projectSlug, id }
        : { none: `git.group.get of ${projectSlug} gave no group id` };
    await listRow(r, "git.subgroups.list", grouped);
    await listAndRecord(r, "git.repos.list", "git.repos.get", "gitRepoID", "repoID", grouped);
    await listRow(r, "bundles.list", grouped);
  } else {
    for (const op of GROUP_READS) r.skip(op, `no git group in projects ${slugs.join(", ")}`);
  }
  await listAndRecord(r, "mirrors.list", "mirrors.get", "mirrorID", "mirrorID", slugs);
  await listAndRecord(
    r,
    "artifacts.repos.list",
    "artifacts.repos.get",
    "id",
    "artifactRepoID",
    slugs,
  );
  return found;
}
