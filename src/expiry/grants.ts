/**
 * The grants written with `expires:` in the effective documents (Defaults merged in): access
 * entries (users and organization teams), team memberships, service accounts and users. One
 * walk of the documents, cheap (only items written as a mapping are looked at closely), whose
 * result the load keeps (DesiredState.expiries) for plan, drift, validate and the report.
 */
import { AccessLevels, UserServices } from "../api/schemas.js";
import type { ValidDoc } from "../manifest/check.js";
import * as K from "../manifest/keys.js";
import { grantee, grantExpires } from "../manifest/schema/expires.js";
import type { FieldPath } from "../manifest/positions.js";
import type { GrantExpiry, Source } from "../manifest/types.js";

/** Every grant with an `expires:`, by key; the first declaration of a key wins. */
export function grantsOf(docs: readonly ValidDoc[]): Map<string, GrantExpiry> {
  const out = new Map<string, GrantExpiry>();
  const note = (
    d: ValidDoc,
    key: string,
    kind: GrantExpiry["kind"],
    expires: string,
    at: FieldPath,
  ) => {
    if (!out.has(key)) out.set(key, lazySource({ key, kind, expires }, () => d.handle.at(at, "value"))); // prettier-ignore
  };
  const items = (
    list: readonly unknown[] | undefined,
    each: (item: unknown, i: number) => void,
  ) => {
    if (!list) return;
    for (let i = 0; i < list.length; i++)
      if (list[i] !== null && typeof list[i] === "object") each(list[i], i);
  };
  for (const d of docs) {
    if (d.kind === "Project") {
      const access = d.value.spec.access;
      if (!access) continue;
      for (const level of AccessLevels) {
        const input = access[level];
        const short = Array.isArray(input);
        const base: FieldPath = ["spec", "access", level];
        items(short ? input : input?.users, (item, i) => {
          const e = grantExpires(item);
          if (e === undefined) return;
          const at = short ? [...base, i] : [...base, "users", i];
          note(d, K.accessUserKey(d.name, level, grantee(item)), "ProjectAccess", e, [
            ...at,
            "expires",
          ]);
        });
        if (short) continue;
        items(input?.organizationTeams, (item, i) => {
          const e = grantExpires(item);
          if (e === undefined) return;
          note(d, K.accessTeamKey(d.name, level, grantee(item)), "ProjectTeamAccess", e, [
            ...base,
            "organizationTeams",
            i,
            "expires",
          ]);
        });
      }
    } else if (d.kind === "Team") {
      items(d.value.spec?.members, (item, i) => {
        const e = grantExpires(item);
        if (e !== undefined)
          note(d, K.teamMemberKey(d.name, grantee(item)), "TeamMember", e, [
            "spec",
            "members",
            i,
            "expires",
          ]);
      });
    } else if (d.kind === "User") {
      const s = d.value.spec;
      if (s.expires !== undefined)
        note(d, K.userKey(d.name), "User", s.expires, ["spec", "expires"]);
      if (!s.services) continue;
      for (const service of UserServices) {
        const e = s.services[service]?.expires;
        if (e !== undefined)
          note(d, K.userServiceKey(d.name, service), "UserService", e, [
            "spec",
            "services",
            service,
            "expires",
          ]);
      }
    }
  }
  return out;
}

/**
 * The grant with its `source` found when first read: finding a line reads the file's text
 * again, and most grants (none due, none ending soon) are never shown with theirs.
 */
function lazySource(g: Omit<GrantExpiry, "source">, find: () => Source): GrantExpiry {
  let found: Source | undefined;
  return Object.defineProperty(g, "source", {
    get: () => (found ??= find()),
    set: (s: Source) => (found = s),
    enumerable: true,
    configurable: true,
  }) as GrantExpiry;
}

/** Who has what, in words: `bob on the admins of project ci-tools`. */
export function grantWords(key: string): string {
  let m = /^project\/([^/]+)\/access\/([^/]+)\/user\/(.+)$/.exec(key);
  if (m) return `${m[3]} on the ${m[2]} of project ${m[1]}`;
  m = /^project\/([^/]+)\/access\/([^/]+)\/team\/(.+)$/.exec(key);
  if (m) return `team ${m[3]} on the ${m[2]} of project ${m[1]}`;
  m = /^team\/([^/]+)\/member\/(.+)$/.exec(key);
  if (m) return `${m[2]} in team ${m[1]}`;
  m = /^user\/([^/]+)\/service\/(.+)$/.exec(key);
  if (m) return `${m[1]}'s ${m[2]} account`;
  m = /^user\/(.+)$/.exec(key);
  if (m) return `user ${m[1]} (all of their access)`;
  return key;
}
