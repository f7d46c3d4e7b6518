/**
 * The merge rules by place, the same for every object and every layer: which lists are keyed
 * (and by what), which are plain. Maps merge key by key and scalars override wherever they
 * are; a keyed list merges entry by entry (by its key) and a plain list is replaced whole.
 * README's "Defaults and layers" table says the same in words (test/layers holds them equal).
 */
import { grantee } from "../manifest/schema/expires.js";
import { REMOVE } from "../manifest/schema/layering.js";

/** How a list merges: entries keyed by `key(item)`, or replaced whole. */
export type ListRule =
  | { merge: "set"; what: string }
  | { merge: "keyed"; what: string; key: (item: Record<string, unknown>, slug: string) => string }
  | { merge: "replace" };

const ACCESS_LEVEL = /^spec\.access\.[a-z]+\.(users|organizationTeams)$/;

/** Key of a repository entry: `subgroup/name`, or `name` in the project group. */
export const repositoryEntryKey = (r: Record<string, unknown>): string => {
  const sub = typeof r.subgroup === "string" ? r.subgroup : "";
  return sub ? `${sub}/${String(r.name)}` : String(r.name);
};

const RULES: Record<string, Record<string, ListRule>> = {
  Project: {
    "spec.licenses": { merge: "set", what: "license" },
    "spec.git.subgroups": { merge: "set", what: "subgroup" },
    "spec.git.repositories": { merge: "keyed", what: "repository", key: repositoryEntryKey },
    "spec.git.mirrors": { merge: "keyed", what: "mirror", key: (m) => String(m.to) },
    "spec.artifacts.repositories": {
      merge: "keyed",
      what: "artifact repository",
      key: (a, slug) => (typeof a.name === "string" ? a.name : slug),
    },
  },
  Team: { "spec.members": { merge: "set", what: "member" } },
  User: {},
};

/** The rule of the list at `at` (a dotted path without list indices) of a kind's document. */
export function listRule(kind: string, at: string): ListRule {
  const rule = RULES[kind]?.[at];
  if (rule) return rule;
  if (kind === "Project" && ACCESS_LEVEL.test(at))
    return { merge: "set", what: at.endsWith("users") ? "user" : "organization team" };
  return { merge: "replace" };
}

/**
 * The key of a set list's item: the item, or the name its mapping grants to (`{ user: bob,
 * expires: … }` is bob's entry, as `{ $remove: bob }` names bob).
 */
export const setKey = (item: unknown): string => grantee(item);

/** A set list's entry in the merged list: the name, or the winner's mapping (with its `expires`). */
export const setItem = (key: string, winner: unknown): unknown =>
  winner !== null && typeof winner === "object" ? { ...winner } : key;

/** A tombstone: `{ $remove: KEY }`. */
export function tombstoneKey(item: unknown): string | undefined {
  if (item === null || typeof item !== "object" || Array.isArray(item)) return undefined;
  const k = (item as Record<string, unknown>)[REMOVE];
  return typeof k === "string" ? k : undefined;
}

/**
 * An access level as a mapping: `admins: [a, b]` is `admins: { users: [a, b] }`. Layers and
 * objects may write either form; they merge in this one.
 */
export function accessLevelForm(at: string, kind: string, v: unknown): unknown {
  return kind === "Project" && Array.isArray(v) && /^spec\.access\.[a-z]+$/.test(at)
    ? { users: v }
    : v;
}

/** Whether a document uses a word of layering (`$remove`, `inherit`) anywhere. */
export function usesLayerWords(v: unknown): boolean {
  if (v === null || typeof v !== "object") return false;
  if (Array.isArray(v)) return v.some(usesLayerWords);
  for (const k in v as Record<string, unknown>) {
    if (k === REMOVE || k === "inherit") return true;
    if (usesLayerWords((v as Record<string, unknown>)[k])) return true;
  }
  return false;
}
