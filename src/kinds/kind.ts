/**
 * The interface every resource kind implements (one file per kind, registered in
 * src/kinds/index.ts), after terraform-provider-github's resources: which fields are
 * managed, which are immutable (a change is `blocked` or a `ticket`), who owns undeclared
 * live objects, how to read the live objects in scope, and how to apply a change.
 * Diffing is pure and lives in src/engine/diff.ts; kinds only describe.
 */
import type { ApiClient } from "../api/client.js";
import type { DesiredState, PruneSettings, Source } from "../manifest/types.js";
import type { PlanEntry } from "../engine/plan.js";
import type { ReadContext } from "../engine/read-context.js";

/** Plain values a kind compares: JSON-like, normalised (sets sorted, defaults filled). */
export type Fields = Record<string, unknown>;

/** One declared object of a kind, as the planner compares it. */
export interface DesiredObject<F extends Fields = Fields> {
  key: string;
  /** The managed fields, normalised exactly like the live side. */
  fields: F;
  source: Source | null;
  /** Keys that must exist before this object (the DAG of apply). */
  dependsOn: string[];
  /** Under `phctl/protect`: never planned for deletion (nor its children). */
  protect?: boolean;
}

/** One live object in the managed scope. */
export interface LiveObject<F extends Fields = Fields> {
  key: string;
  /** The same managed fields, normalised from the API's record; computed fields dropped. */
  fields: F;
  /** Live identifiers apply needs (gitRepoID, mirrorID, artifact repo id, …); never diffed. */
  ids: Record<string, string | number>;
}

/**
 * What happens to a live object that no manifest declares:
 * - `authoritative`: removed when its parent (`parentKey`) is declared (access, membership);
 * - `prune`: deleted only when `prune.<setting>` is on in phctl.yaml (data-bearing objects);
 * - `unmanaged`: listed as "not managed", never touched (users, projects, teams, …);
 * - `ignored`: out of scope, not even listed (a user's undeclared service accounts).
 */
export type Ownership =
  | { mode: "authoritative"; parentKey(key: string): string }
  | {
      mode: "prune";
      setting: keyof PruneSettings;
      parentKey(key: string): string;
      /**
       * Keys of the containers the object lives in besides its owner (a repository's
       * subgroup and that subgroup's parents): its delete must run before theirs, since
       * deleting a container takes its contents with it.
       */
      containers?(key: string): string[];
    }
  | { mode: "unmanaged" }
  | { mode: "ignored" };

/** What a change of an immutable field becomes, and why. */
export interface ImmutableRule {
  action: "blocked" | "ticket";
  reason: string;
}

/** Facts the diff may need beyond the two objects (pure data, read once). */
export interface DiffContext {
  readonly state: DesiredState;
  /** SPDX ids of the license catalogue (GET /v1/licenses). */
  readonly licenses: ReadonlySet<string>;
  /** Paths of the organization teams that exist. */
  readonly orgTeams: ReadonlySet<string>;
  /** Usernames that exist live. */
  readonly liveUsers: ReadonlySet<string>;
  /** Usernames (declared or live) that have an active wiki account. */
  readonly wikiUsers: ReadonlySet<string>;
}

export interface ResourceKind<F extends Fields = Fields> {
  /** Display name, e.g. "Repository". */
  readonly kind: string;
  readonly ownership: Ownership;
  /** Fields whose change is not an API operation. */
  readonly immutable: Readonly<Partial<Record<keyof F & string, ImmutableRule>>>;
  /** Data-bearing or access-granting: deleting it is destructive. */
  readonly destructiveDelete: boolean;
  /**
   * A side effect (the welcome mail) rather than an object: its live side cannot be read,
   * so the journal keeps it owed until it is done, and a later plan carries it again.
   */
  readonly sideEffect?: boolean;
  /**
   * Key prefixes (ending in `/`) whose entries an entry of this kind comes after, whatever
   * they end in: ordering only (the welcome mail after the user's service accounts).
   */
  after?(key: string): string[];
  /** The declared objects of this kind. */
  desired(state: DesiredState): DesiredObject<F>[];
  /** The live objects in scope, with the fewest calls (shared reads go through ctx). */
  read(ctx: ReadContext, state: DesiredState): Promise<LiveObject<F>[]>;
  /**
   * Optional extra checks on a create or update (e.g. an unknown license → ticket, an
   * editor without a wiki account → blocked, a user whose e-mail another user has →
   * blocked). Returns entries replacing the default one; an array replaces them with
   * several (or, empty, with none); undefined keeps the default. `others`: every live
   * object of this kind the plan read, by key (when the planner has them).
   */
  check?(
    desired: DesiredObject<F>,
    live: LiveObject<F> | undefined,
    ctx: DiffContext,
    others?: ReadonlyMap<string, LiveObject<F>>,
  ): PlanEntry | PlanEntry[] | undefined;
  /** Text of the support ticket for a `ticket` entry of this kind. */
  ticketText?(entry: PlanEntry): { subject: string; body: string };
  /** Apply (src/engine/apply.ts): carry out one entry; waits on queued jobs. */
  create?(api: ApiClient, entry: PlanEntry, live: LiveObject<F> | undefined): Promise<void>;
  update?(api: ApiClient, entry: PlanEntry, live: LiveObject<F>): Promise<void>;
  delete?(api: ApiClient, entry: PlanEntry, live: LiveObject<F>): Promise<void>;
}

/** Register a kind in the table: fields are typed inside the kind, plain `Fields` outside. */
export function defineKind<F extends Fields>(kind: ResourceKind<F>): ResourceKind {
  return kind;
}
