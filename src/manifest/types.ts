/**
 * What the manifest loader produces: diagnostics (validation problems are values, never
 * exceptions) and the normalised desired state the planner consumes. The input shapes (what
 * a user may write) are the TypeBox schemas in ./schema; these are their normalised form:
 * defaults filled, set-like lists sorted and de-duplicated, identities (keys) computed.
 */
import type { Static } from "@sinclair/typebox";
import type {
  AccessLevel,
  ActiveInactive,
  ArtifactRepoTypes,
  MirrorFrequency,
  ProjectStatus,
  RepoStatus,
  Tristate,
  UserRole,
  UserService,
  Visibility,
} from "../api/schemas.js";
import type { Selector } from "./schema/selector.js";
import type { BundleFrequencies, MailPlans } from "./schema/common.js";

/** Where something is declared: file relative to the current directory (`/`-separated), 1-based line and column. */
export interface Source {
  file: string;
  line: number;
  column: number;
}

/** A line in a Defaults layer, and which layer it is (its metadata.name). */
export interface LayerSource extends Source {
  layer: string;
}

export type Severity = "error" | "warning";

/**
 * One validation problem, for people (formatDiagnostic) and CI (JSON). `path` is the field
 * path inside the document (`spec.git.repositories[1].issueTracking`); `hint` is a short
 * suggestion such as `did you mean issueTracking?`. Every diagnostic names a file and a line.
 */
export interface Diagnostic {
  severity: Severity;
  /** Stable identifier of the problem class, e.g. `unknown-field`, `duplicate-identity`. */
  code: string;
  file: string;
  line: number;
  column: number;
  /** The document's kind (`Project`) when known; absent for phctl.yaml and unparsable text. */
  kind?: string;
  /** The document's metadata.name when known. */
  name?: string;
  path?: string;
  message: string;
  hint?: string;
  /** Lines shown under the message: an expression and a caret under the problem. */
  excerpt?: string;
  /**
   * The Defaults document whose value has the problem, when the object got it from a layer:
   * the same problem in every object the layer selects is then one line for people
   * (`collapseLayered`), one entry per object for machines.
   */
  layer?: string;
}

/** Settings of the config repository (`phctl.yaml`), with defaults filled. */
export interface ManifestConfig {
  /** The token's parent organization; the default organization of users and projects. */
  organization?: string;
  /** API base URL; `--api-url` / PHCTL_API_URL win over it. */
  apiUrl?: string;
  concurrency: number;
  /** Client-side throttle, requests per second (`maxRps:`); --max-rps and PHCTL_MAX_RPS win. */
  maxRps?: number;
  /** How long to wait for a queued job, in milliseconds (phctl.yaml writes `10m`). */
  queueTimeout: number;
  /** How long apply waits out a service that stopped answering, ms (phctl.yaml writes `2m`). */
  outageTimeout: number;
  /** The apply journal as written in phctl.yaml (relative to phctl.yaml's directory). */
  journal?: string;
  /** Extra CA certificates (PEM) as written in phctl.yaml (relative to its directory). */
  caFile?: string;
  /** The API profile as written in phctl.yaml (relative to its directory). */
  apiProfile?: string;
  /** Mass-removal guard as a fraction (0.25 = 25 %). */
  maxRemovals: number;
  /** Whether data-bearing objects that no manifest declares are planned for deletion. */
  prune: PruneSettings;
  /** Keys or globs of live objects to leave alone, sorted. */
  ignore: string[];
  /** phctl.yaml's `owners:` (src/owners reads it), when written. */
  owners?: OwnersSettings;
  /** Access that expires: validate warns `warnDays` days before a grant's last day. */
  expiry?: { warnDays: number };
  /** phctl.yaml, when one was read. */
  source?: Source;
}

/** Users and teams who own something; both sorted, without repeats. */
export interface OwnerList {
  users: string[];
  teams: string[];
}

/** A folder of the config and its owners (phctl.yaml `owners.folders`). */
export interface FolderOwners extends OwnerList {
  /** As written: relative to phctl.yaml's directory, `*` and `**` globs, ending in `/`. */
  path: string;
}

/** phctl.yaml's `owners:`, normalised. */
export interface OwnersSettings {
  /** `owners.platform`: owners of phctl.yaml, layers, policies and every file nobody else owns. */
  default: OwnerList;
  folders: FolderOwners[];
  /** The committed CODEOWNERS file as written (relative to phctl.yaml's directory). */
  file?: string;
  format: "github" | "gitlab";
  handles: {
    /** GitHub organization or GitLab group path of the teams. */
    group?: string;
    users: Record<string, string>;
    teams: Record<string, string>;
  };
}

export interface PruneSettings {
  groups: boolean;
  subgroups: boolean;
  repositories: boolean;
  mirrors: boolean;
  artifactRepositories: boolean;
}

/** Fields every declared object carries. `protect` comes from `phctl/protect: "true"`. */
interface Declared {
  key: string;
  protect: boolean;
  source: Source;
  /** metadata.labels, when the document has any (policy selectors match them). */
  labels?: Readonly<Record<string, string>>;
}

export interface OrganizationState extends Declared {
  name: string;
}

export interface UserState extends Declared {
  username: string;
  firstName: string;
  lastName: string;
  /** Absent: not managed (the identity provider's value stays). */
  displayName?: string;
  externalEmail: string;
  /** Absent when neither the manifest nor phctl.yaml names one: the token's parent organization. */
  organization?: string;
  role: Static<typeof UserRole>;
  status: Static<typeof ActiveInactive>;
  sendWelcome: boolean;
  /** The accounts the user should have; a service not listed is not managed. */
  services: Partial<Record<UserService, ServiceAccountState>>;
}

export interface ServiceAccountState {
  key: string;
  service: UserService;
  status: Static<typeof ActiveInactive>;
  /** email, irc and wiki accounts are deprecated by the service. */
  deprecated: boolean;
  /** git only. */
  personalProjectLimit?: number;
  /** email only. */
  mailplan?: (typeof MailPlans)[number];
  source: Source;
}

export interface TeamState extends Declared {
  name: string;
  services: { gitservice: boolean; artifactservice: boolean; wiki: boolean };
  /** Usernames, sorted; authoritative. */
  members: string[];
}

/** Who has one access level on a project; both lists sorted and authoritative. */
export interface AccessList {
  users: string[];
  /** Organization team paths; only ever non-empty on maintainers, developers, reporters. */
  organizationTeams: string[];
}

export type ProjectAccess = Record<AccessLevel, AccessList>;

export interface ProjectState extends Declared {
  slug: string;
  /** The API's `name`. */
  title: string;
  description: string;
  organization?: string;
  visibility: Static<typeof Visibility>;
  status: Static<typeof ProjectStatus>;
  externalContribution: boolean;
  /** Absent: not managed. */
  restrictionLevel?: string;
  /** Absent: not managed. */
  eccn?: string;
  /** SPDX ids, sorted; existence is checked at plan time. */
  licenses: string[];
  access: ProjectAccess;
  /** metadata.owners, when written (src/owners adds the layers' and defaults to the admins). */
  owners?: OwnerList;
  /** Absent when the manifest has no `git` section: the project's git group is not managed. */
  git?: GitState;
  artifacts: { repositories: ArtifactRepoState[] };
}

export interface GitState {
  group: GitGroupState;
  /** Subgroup paths with every parent added (`tools/ci` brings `tools`), sorted. */
  subgroups: string[];
  repositories: RepositoryState[];
  mirrors: MirrorState[];
}

export interface GitGroupState {
  key: string;
  path: string;
  requestAccessEnabled: boolean;
  enableCi: boolean;
  source: Source;
}

export interface RepositoryState {
  key: string;
  name: string;
  /** Subgroup path; "" is the project group. */
  subgroup: string;
  issueTracking: Static<typeof Tristate>;
  mergeRequests: Static<typeof Tristate>;
  requiresDCO: boolean;
  enableLFS: boolean;
  enableForking: boolean;
  status: Static<typeof RepoStatus>;
  /** Clone URL of the fork source: the repository is created as a fork. */
  forkFrom?: string;
  /** Key of the source repository when it is declared in these manifests (a dependency). */
  forkFromKey?: string;
  commitBlocker?: CommitBlockerState;
  persistentStorage: boolean;
  bundle?: { frequency: (typeof BundleFrequencies)[number] };
  source: Source;
}

export interface CommitBlockerState {
  /** Allowed e-mail domains, lower-case, sorted. */
  author: string[];
  committer: string[];
  /** ISO 8601 date or date-time from which commits are checked; null = all time. */
  since: string | null;
}

export interface MirrorState {
  key: string;
  from: string;
  to: string;
  /** Key of the destination repository when it is declared in these manifests. */
  toKey?: string;
  refSpaceFrom: string;
  refSpaceTo: string;
  frequency: Static<typeof MirrorFrequency>;
  excludeTags: boolean;
  enabled: boolean;
  notificationEmails: string[];
  source: Source;
}

export interface ArtifactRepoState {
  key: string;
  /** The name as declared; the live name is `<org>-<projectId>-<name>`. */
  name: string;
  type: (typeof ArtifactRepoTypes)[number];
  source: Source;
}

/** Something referenced but not declared: the plan checks it exists live. */
export interface Reference {
  name: string;
  /** Every place that references it, sorted. */
  sources: Source[];
}

/**
 * The validated, normalised manifests: what the planner diffs against live state. Every
 * list is sorted by key, so two loads of the same manifests in any file or document order
 * are equal apart from sources.
 */
export interface DesiredState {
  config: ManifestConfig;
  organizations: OrganizationState[];
  users: UserState[];
  teams: TeamState[];
  projects: ProjectState[];
  /** Usernames referenced (access, team members) but not declared as User documents. */
  referencedUsers: Reference[];
  /** Organizations referenced (users, projects) but neither declared nor phctl.yaml's. */
  referencedOrganizations: Reference[];
  /** The source of every key: objects and children alike (access entries, members, licenses, …). */
  sources: SourceLookup;
  /**
   * Where a changed field's desired value came from when a Defaults layer gave it (src/layers):
   * the line in the layer, and the layer's name.
   */
  layerSources?: (kind: string, key: string, field: string) => LayerSource | undefined;
  /** The Defaults layers of the config and what each selects (a plan's blast radius, the rails). */
  layers?: readonly LayerSummary[];
  /**
   * Every grant written with `expires:`, by the key of what it grants (an access entry, a team
   * membership, a service account, a user). The lists above hold them all until src/expiry,
   * knowing today, takes out the expired ones and marks them.
   */
  expiries?: Map<string, GrantExpiry>;
}

/** The kinds of what can expire (the plan's kinds of those keys). */
export type GrantKind =
  "ProjectAccess" | "ProjectTeamAccess" | "TeamMember" | "UserService" | "User";

/** A grant with a last day: `expires: YYYY-MM-DD` (UTC) where it is written. */
export interface GrantExpiry {
  key: string;
  kind: GrantKind;
  /** The last day it counts. */
  expires: string;
  /** The line of the grant (the list item, the account, the user's `expires`). */
  source: Source;
  /** Set by src/expiry: today is after `expires`, so the grant counts as absent. */
  expired?: boolean;
  /** Set by src/expiry: days from today to `expires` (0: its last day; negative: ended). */
  daysLeft?: number;
  /** A grant that ends with its user's `expires` (the user key): that date, that line. */
  viaUser?: string;
}

/** Where each key was declared (collect.ts DeclaredSources; a Map will do in tests). */
export interface SourceLookup {
  get(key: string): Source | undefined;
  /** Every key and its source. */
  [Symbol.iterator](): Iterator<[string, Source]>;
}

/**
 * What a Defaults layer selected, counted (a changed layer's blast radius). Plain data the
 * state carries (`DesiredState.layers`); src/layers makes it.
 */
export interface LayerSummary {
  name: string;
  source: Source;
  priority: number;
  select: Selector;
  description?: string;
  /** Its values (a change to a layer is a change to them, its selector or its priority). */
  values: Record<string, unknown>;
  /** A Project layer's `spec.owners`: added to the owners of the projects it selects. */
  owners?: OwnerList;
  /** Keys of the objects it selected: projects, users or teams; for a Repository layer, repositories. */
  selected: string[];
  /** A Repository layer: the projects of the repositories it selected. */
  projects?: number;
}
