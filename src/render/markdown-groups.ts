/**
 * How the pull-request comment groups a plan: one group per project, one for everything
 * outside projects (labelled by what it holds: organization, users, teams), groups sorted
 * by name and entries by key; and the words for counts ("3 to create", "12 repositories").
 */
import type { PlanEntry } from "../engine/plan.js";
import { projectOf } from "../engine/plan.js";
import { htmlText, keySpan, mdText, plural } from "./markdown-escape.js";
import { visibleText } from "../visible.js";

export interface Group {
  /** The project slug; undefined for the group of users, teams and organizations. */
  slug: string | undefined;
  /** Plain text the groups are sorted by. */
  name: string;
  entries: PlanEntry[];
}

const collator = new Intl.Collator("en", { numeric: true });
/** People's order: `r2` before `r10`; code-unit order breaks ties. */
export const byName = (a: string, b: string) =>
  collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);

const byKey = (a: PlanEntry, b: PlanEntry) =>
  byName(a.key, b.key) || (a.action < b.action ? -1 : a.action > b.action ? 1 : 0);

export function sortEntries(entries: readonly PlanEntry[]): PlanEntry[] {
  return [...entries].sort(byKey);
}

/** Entries grouped per project (and one group for the rest), sorted by name, then by key. */
export function groupEntries(entries: readonly PlanEntry[]): Group[] {
  const projects = new Map<string, PlanEntry[]>();
  const rest: PlanEntry[] = [];
  for (const e of entries) {
    const slug = projectOf(e.key);
    if (slug === undefined) rest.push(e);
    else {
      const list = projects.get(slug);
      if (list) list.push(e);
      else projects.set(slug, [e]);
    }
  }
  const groups: Group[] = [...projects].map(([slug, es]) => ({
    slug,
    name: `project ${slug}`,
    entries: sortEntries(es),
  }));
  if (rest.length > 0)
    groups.push({ slug: undefined, name: restLabel(rest), entries: sortEntries(rest) });
  return groups.sort((a, b) => byName(a.name, b.name));
}

/** "organization, users and teams": what the group outside projects holds. */
function restLabel(entries: readonly PlanEntry[]): string {
  const words: string[] = [];
  const has = (prefix: string) => entries.some((e) => e.key.startsWith(prefix));
  const orgs = new Set(entries.filter((e) => e.key.startsWith("organization/")).map((e) => e.key));
  if (orgs.size > 0) words.push(orgs.size === 1 ? "organization" : "organizations");
  if (has("user/")) words.push("users");
  if (has("team/")) words.push("teams");
  if (entries.some((e) => !/^(organization|user|team)\//.test(e.key))) words.push("other objects");
  return words.length === 1 ? words[0] : `${words.slice(0, -1).join(", ")} and ${words.at(-1)!}`;
}

/** The group's name in markdown (`project \`x\``). */
export function groupLabel(g: Group): string {
  return g.slug === undefined ? g.name : `project ${keySpan(g.slug)}`;
}

/** The group's name inside HTML (`project <code>x</code>`). */
export function groupLabelHtml(g: Group): string {
  return g.slug === undefined
    ? htmlText(g.name)
    : `project <code>${htmlText(visibleText(g.slug))}</code>`;
}

/** At most this many groups are named in the summary and shown first in the details. */
const FEATURED = 8;
/** …and at most this many rows of the summary table (one per group and kind) name them. */
const FEATURED_ROWS = 16;

const kindCountOf = (g: Group) => new Set(g.entries.map((e) => e.kind)).size;

/**
 * The groups a big plan names one by one (the largest, in name order), and the rest, which
 * the summary counts together and the details fold away. Small plans: every group.
 */
export function featuredGroups(groups: readonly Group[]): { shown: Group[]; rest: Group[] } {
  const rows = groups.reduce((a, g) => a + kindCountOf(g), 0);
  if (groups.length <= FEATURED && rows <= FEATURED_ROWS) return { shown: [...groups], rest: [] };
  const bySize = [...groups].sort(
    (a, b) => b.entries.length - a.entries.length || byName(a.name, b.name),
  );
  const picked = new Set<Group>();
  let used = 0;
  for (const g of bySize) {
    if (picked.size >= FEATURED) break;
    if (picked.size > 0 && used + kindCountOf(g) > FEATURED_ROWS) continue;
    picked.add(g);
    used += kindCountOf(g);
  }
  return {
    shown: groups.filter((g) => picked.has(g)),
    rest: groups.filter((g) => !picked.has(g)),
  };
}

/** "12 other projects", or "12 other groups" when users or teams are among them. */
export function otherGroups(rest: readonly Group[]): string {
  const projects = rest.every((g) => g.slug !== undefined);
  return plural(rest.length, projects ? "other project" : "other group");
}

/** "5 changes: 3 to create, 2 to update": how many, then what they are. */
export function changeCounts(entries: readonly PlanEntry[]): string {
  return `${plural(entries.length, "change")}: ${actionCounts(entries)}`;
}

/** "3 to create, 1 to update, 2 tickets": the non-zero counts per action. */
export function actionCounts(entries: readonly PlanEntry[]): string {
  const n = { create: 0, update: 0, delete: 0, ticket: 0, blocked: 0 };
  for (const e of entries) n[e.action]++;
  const parts: string[] = [];
  if (n.create) parts.push(`${n.create.toLocaleString("en-US")} to create`);
  if (n.update) parts.push(`${n.update.toLocaleString("en-US")} to update`);
  if (n.delete) parts.push(`${n.delete.toLocaleString("en-US")} to delete`);
  if (n.ticket) parts.push(plural(n.ticket, "ticket"));
  if (n.blocked) parts.push(`${n.blocked.toLocaleString("en-US")} blocked`);
  return parts.join(", ");
}

const NOUNS: Record<string, [string, string]> = {
  ArtifactRepo: ["artifact repository", "artifact repositories"],
  GitGroup: ["git group", "git groups"],
  Mirror: ["mirror", "mirrors"],
  Organization: ["organization", "organizations"],
  Project: ["project", "projects"],
  ProjectAccess: ["user access", "user accesses"],
  ProjectLicense: ["license", "licenses"],
  ProjectTeamAccess: ["team access", "team accesses"],
  Repository: ["repository", "repositories"],
  Subgroup: ["subgroup", "subgroups"],
  Team: ["team", "teams"],
  TeamMember: ["team membership", "team memberships"],
  User: ["user", "users"],
  UserService: ["user service account", "user service accounts"],
  WelcomeMail: ["welcome mail", "welcome mails"],
};

/**
 * `340 repositories`, `1 user access`; unknown kinds as `3 × Kind` (the kind through `text`:
 * markdown by default).
 */
export function kindCount(kind: string, n: number, text: (s: string) => string = mdText): string {
  const noun = NOUNS[kind];
  if (noun) return plural(n, noun[0], noun[1]);
  return `${n.toLocaleString("en-US")} × ${text(kind)}`;
}
