/**
 * Where the live values of a project's git objects and artifact repositories go in its
 * manifest (see places.ts): the git group's fields; subgroup paths (a parent implied by a
 * path that goes stays, written out); repositories, mirrors and artifact repositories as
 * list items found by their identity — removed when gone live, added (as export writes
 * them: src/export/documents.ts) when live has one a pruning config would delete, and their
 * fields set or, at the default, removed.
 */
import type { PlanEntry } from "../engine/plan.js";
import { artifactItem, blockerValue, mirrorItem, repositoryItem } from "../export/items.js";
import type { ArtifactRepoFields } from "../kinds/artifact-repo.js";
import type { MirrorFields } from "../kinds/mirror.js";
import type { Blocker, RepoFields } from "../kinds/repository-fields.js";
import { mirrorKey, repositoryKey, subgroupKey } from "../manifest/keys.js";
import { DEFAULTS } from "../manifest/schema/common.js";
import { getIn, type Op, type Seg } from "./ops.js";
import { absentLive, field, type PlaceContext, type Placed } from "./place-common.js";

const R: Record<string, unknown> = DEFAULTS.repository;
const GIT: Seg[] = ["spec", "git"];
const REPOS: Seg[] = [...GIT, "repositories"];
const MIRRORS: Seg[] = [...GIT, "mirrors"];
const SUBGROUPS: Seg[] = [...GIT, "subgroups"];
const ARTIFACTS: Seg[] = ["spec", "artifacts", "repositories"];

type Item = Record<string, unknown>;
const str = (v: unknown, dflt = "") => (typeof v === "string" ? v : dflt);

/** A live fork whose source this plan could not read: no URL to write. */
const UNKNOWN_FORK = /^a fork of repository \d+$/;

function repositoryOps(e: PlanEntry, slug: string): Placed {
  const match = (x: unknown) =>
    repositoryKey(slug, str((x as Item).subgroup), str((x as Item).name)) === e.key;
  if (absentLive(e)) return [{ op: "drop", path: REPOS, item: match, keep: 2 }];
  if (e.action === "delete") {
    const live = e.before as RepoFields;
    if (live.fork !== null && UNKNOWN_FORK.test(live.fork))
      return { why: `${live.fork} this plan did not read: its forkFrom URL is not known` };
    return [{ op: "add", path: REPOS, value: repositoryItem(live) }];
  }
  const at: Seg[] = [...REPOS, match];
  const ops: Op[] = [];
  for (const c of e.changes) {
    if (c.field === "fork") {
      if (typeof c.before === "string" && UNKNOWN_FORK.test(c.before))
        return { why: `live is ${c.before} this plan did not read: its forkFrom URL is not known` };
      ops.push(field([...at, "forkFrom"], c.before, null, 4));
    } else if (c.field === "commitBlocker")
      ops.push(field([...at, "commitBlocker"], blockerValue(c.before as Blocker | null), null, 4));
    else if (c.field === "bundle")
      ops.push(
        c.before === null
          ? { op: "unset", path: [...at, "bundle"], keep: 4 }
          : { op: "set", path: [...at, "bundle"], value: { frequency: c.before } },
      );
    else if (c.field in R) ops.push(field([...at, c.field], c.before, R[c.field], 4));
    else return { why: `${c.field} has no place in the manifest` };
  }
  return ops;
}

function mirrorOps(e: PlanEntry, slug: string): Placed {
  if (e.key.includes("#"))
    return {
      why: "a second live mirror to the same destination: a manifest declares one per destination",
    };
  const match = (x: unknown) => mirrorKey(slug, str((x as Item).to)) === e.key;
  if (absentLive(e)) return [{ op: "drop", path: MIRRORS, item: match, keep: 2 }];
  if (e.action === "delete")
    return [{ op: "add", path: MIRRORS, value: mirrorItem(e.before as MirrorFields) }];
  const at: Seg[] = [...MIRRORS, match];
  const dflt: Record<string, unknown> = { ...DEFAULTS.mirror, notificationEmails: [] };
  return e.changes.map((c) => {
    const v = Array.isArray(c.before)
      ? c.before.length > 0
        ? [...c.before].sort()
        : null
      : c.before;
    return field([...at, c.field], v, dflt[c.field] ?? null, 4);
  });
}

function subgroupOps(e: PlanEntry, slug: string, ctx: PlaceContext): Placed {
  const path = e.key.slice(subgroupKey(slug, "").length);
  if (!absentLive(e)) return [{ op: "add", path: SUBGROUPS, value: path }];
  const under = (x: unknown) => x === path || str(x).startsWith(`${path}/`);
  const ops: Op[] = [{ op: "drop", path: SUBGROUPS, item: under, keep: 2 }];
  // The parent the dropped path implied stays when live has it: written out.
  const listed = getIn(ctx.value, SUBGROUPS);
  const left = (Array.isArray(listed) ? listed : []).filter((x) => !under(x)).map((x) => str(x));
  const parent = path.split("/").slice(0, -1).join("/");
  if (
    parent !== "" &&
    !ctx.absent.has(subgroupKey(slug, parent)) &&
    !left.some((x) => x === parent || x.startsWith(`${parent}/`))
  )
    ops.push({ op: "add", path: SUBGROUPS, value: parent });
  return ops;
}

function artifactOps(e: PlanEntry, slug: string): Placed {
  const name = e.key.slice(`project/${slug}/artifact/`.length);
  const match = (x: unknown) => str((x as Item).name, slug) === name;
  if (absentLive(e)) return [{ op: "drop", path: ARTIFACTS, item: match, keep: 1 }];
  if (e.action === "delete")
    return [
      {
        op: "add",
        path: ARTIFACTS,
        value: artifactItem(name, (e.before as ArtifactRepoFields).type),
      },
    ];
  const dflt = DEFAULTS.artifactRepository.type;
  return e.changes.map((c) => field([...ARTIFACTS, match, c.field], c.before, dflt, 4));
}

/** The edits of a git group, subgroup, repository, mirror or artifact repository entry. */
export function gitOps(e: PlanEntry, ctx: PlaceContext): Placed {
  const slug = e.key.split("/")[1] ?? "";
  switch (e.kind) {
    case "GitGroup": {
      if (absentLive(e)) return [{ op: "unset", path: GIT, keep: 1 }];
      const dflt: Record<string, unknown> = { ...DEFAULTS.group, path: slug };
      return e.changes.map((c) => field([...GIT, "group", c.field], c.before, dflt[c.field], 2));
    }
    case "Subgroup":
      return subgroupOps(e, slug, ctx);
    case "Repository":
      return repositoryOps(e, slug);
    case "Mirror":
      return mirrorOps(e, slug);
    case "ArtifactRepo":
      return artifactOps(e, slug);
    default:
      return { why: `phctl does not know where a ${e.kind} goes in a manifest` };
  }
}
