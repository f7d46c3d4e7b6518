/**
 * Who owns what in a config. A project's owners are its own `metadata.owners` plus those of
 * every Project layer that selects it and gives `spec.owners`; a project nobody names owners
 * for is owned by its admins (after Defaults). A file's owners are the owners of the projects
 * it declares plus those of the last `owners.folders` entry of phctl.yaml that holds it; a
 * file with neither — and phctl.yaml and every file that declares a Defaults or Policy
 * document, which can change objects anywhere — is owned by `owners.platform`. Users, teams
 * and organizations have no owners of their own: their file's owners are theirs.
 *
 * Paths are relative to the config's root (the directory of phctl.yaml), `/`-separated, so
 * a base and a head checkout of one config name the same file the same way.
 */
import { relative, sep } from "node:path";
import { topKeyOf } from "../manifest/keys.js";
import type { DesiredState, OwnerList, Source } from "../manifest/types.js";
import { folderMatcher } from "./folder-glob.js";
import { namedOwners, type NamedOwners } from "./handles.js";

/** Where a project's owners come from. */
export type OwnersFrom = "metadata" | "admins";

const NONE: OwnerList = { users: [], teams: [] };

/** The union of owner lists, sorted, without repeats. */
export function unionOwners(lists: readonly OwnerList[]): OwnerList {
  const users = new Set<string>();
  const teams = new Set<string>();
  for (const l of lists) {
    for (const u of l.users) users.add(u);
    for (const t of l.teams) teams.add(t);
  }
  return { users: [...users].sort(), teams: [...teams].sort() };
}

export const isEmptyOwners = (l: OwnerList): boolean => l.users.length + l.teams.length === 0;

/** What the index is built from: a loaded config and where its root is. */
export interface OwnerInput {
  state: DesiredState;
  /** Every file of the config (as the load names them: relative to the working directory). */
  files: readonly string[];
  /** The config's root directory, relative to the working directory as the files are. */
  root: string;
  /** Where the config's Policy documents are (the load's compiled policies). */
  policies?: readonly { source: Source }[];
}

/** The owners of one file and why. */
export interface FileOwners extends OwnerList {
  /** The file relative to the config root. */
  path: string;
  /** default: no project and no folder owns it, or it declares layers or policies (or is phctl.yaml). */
  from: "objects" | "default";
}

/**
 * The owner index of a config: `ownersOf(key)` and `ownersOfFile(path)` for every
 * later use (CODEOWNERS, the pull-request plan, reviewers of proposed changes).
 */
export class OwnerIndex {
  readonly state: DesiredState;
  readonly root: string;
  readonly default: OwnerList;
  private readonly folders: { path: string; owners: OwnerList; holds: (f: string) => boolean }[];
  private readonly projects = new Map<string, { owners: OwnerList; from: OwnersFrom }>();
  /** Config-relative file → keys of the top-level objects it declares. */
  private readonly declares = new Map<string, string[]>();
  /** Config-relative files that declare a Defaults or Policy document, and phctl.yaml. */
  private readonly platform = new Set<string>();
  private readonly files: string[];
  /** Top-level key → config-relative file of its declaration. */
  private readonly fileOfKey = new Map<string, string>();

  constructor(input: OwnerInput) {
    const { state } = input;
    this.state = state;
    this.root = input.root;
    const settings = state.config.owners;
    this.default = settings?.default ?? NONE;
    this.folders = (settings?.folders ?? []).map((f) => ({
      path: f.path,
      owners: { users: f.users, teams: f.teams },
      holds: folderMatcher(f.path),
    }));
    const fromLayers = new Map<string, OwnerList[]>();
    for (const l of state.layers ?? [])
      if (l.owners && l.select.kind === "Project")
        for (const k of l.selected) {
          const got = fromLayers.get(k);
          if (got) got.push(l.owners);
          else fromLayers.set(k, [l.owners]);
        }
    for (const p of state.projects) {
      const named = unionOwners([p.owners ?? NONE, ...(fromLayers.get(p.key) ?? [])]);
      this.projects.set(
        p.key,
        isEmptyOwners(named)
          ? { owners: { users: [...p.access.admins.users], teams: [] }, from: "admins" }
          : { owners: named, from: "metadata" },
      );
    }
    const declared = [...state.organizations, ...state.users, ...state.teams, ...state.projects];
    for (const o of declared) {
      const file = this.path(o.source.file);
      this.fileOfKey.set(o.key, file);
      const got = this.declares.get(file);
      if (got) got.push(o.key);
      else this.declares.set(file, [o.key]);
    }
    for (const l of state.layers ?? []) this.platform.add(this.path(l.source.file));
    for (const p of input.policies ?? []) this.platform.add(this.path(p.source.file));
    if (state.config.source) this.platform.add(this.path(state.config.source.file));
    this.files = [...new Set(input.files.map((f) => this.path(f)))].sort();
  }

  /** A path as the load names it (relative to the working directory) → relative to the root. */
  path(file: string): string {
    const rel = relative(this.root, file).split(sep).join("/");
    return rel === "" ? "." : rel;
  }

  /** Every file of the config, relative to the root, sorted. */
  allFiles(): readonly string[] {
    return this.files;
  }

  /** A project's owners (`project/SLUG`), and whether they are named or its admins. */
  projectOwners(key: string): { owners: OwnerList; from: OwnersFrom } | undefined {
    return this.projects.get(key);
  }

  /**
   * The owners of an object by its key (any key: `project/x/repo/y` is project x's): a
   * project's owners, else the owners of the file that declares it (folder or default).
   */
  ownersOf(key: string): OwnerList {
    const top = topKeyOf(key);
    const p = this.projects.get(top);
    if (p && !isEmptyOwners(p.owners)) return p.owners;
    const file = this.fileOfKey.get(top);
    if (file === undefined) return this.default;
    const { users, teams } = this.ownersOfFile(file);
    return { users, teams };
  }

  /** The file that declares a top-level object, relative to the root. */
  fileOf(key: string): string | undefined {
    return this.fileOfKey.get(topKeyOf(key));
  }

  /** The owners of the last folder entry that holds a config-relative path, if any. */
  folderOwners(path: string): OwnerList | undefined {
    let found: OwnerList | undefined;
    for (const f of this.folders) if (f.holds(path)) found = f.owners;
    return found;
  }

  /** The owners of a file (relative to the root; it need not exist: a new file's folder's). */
  ownersOfFile(path: string): FileOwners {
    if (this.platform.has(path)) return { path, ...this.default, from: "default" };
    const objects = (this.declares.get(path) ?? []).flatMap((k) => {
      const p = this.projects.get(k);
      return p ? [p.owners] : [];
    });
    const folder = this.folderOwners(path);
    const owners = unionOwners([...objects, ...(folder ? [folder] : [])]);
    return isEmptyOwners(owners)
      ? { path, ...this.default, from: "default" }
      : { path, ...owners, from: "objects" };
  }

  /** Owners with their platform handles (phctl.yaml's `owners.handles`). */
  named(list: OwnerList): NamedOwners {
    return namedOwners(list, this.state.config);
  }

  /** The folders of phctl.yaml's `owners.folders`, in order. */
  folderRules(): readonly { path: string; owners: OwnerList }[] {
    return this.folders;
  }
}
