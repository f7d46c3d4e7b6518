/**
 * The plan: plain, versioned, JSON-serialisable data (as Terraform's plans/changes). One
 * entry per change with its action, key, before/after, changed fields, a reason for people
 * and the manifest source that caused it. Renderers are pure functions of it; the executor
 * consumes it; `schemas/plan.schema.json` is generated from the TypeBox definitions here.
 * The engine builds plans; it never prints them.
 */
import { Type, type Static } from "@sinclair/typebox";
import { StringEnum } from "../api/schemas.js";
import { SELECT_KINDS } from "../manifest/schema/selector.js";
import { ACTIONS, PlanGroups } from "./plan-groups.js";

/**
 * 2: a changed field carries its own manifest line (`changes[].source`).
 * 3: the organization's policies: `violations`, and with `plan --base` `policyExceptions`.
 *    and and the Defaults layer that gave its value (`changes[].layer`); the plan lists the
 * layers it involves with what each selects (`layers`, the blast radius).
 */
export const PLAN_FORMAT_VERSION = 3;

export { ACTIONS, type Action } from "./plan-groups.js";

export const SourceRef = Type.Object(
  {
    file: Type.String(),
    line: Type.Integer({ minimum: 1 }),
    column: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false, description: "where in the manifests a change comes from" },
);
export type SourceRef = Static<typeof SourceRef>;

export const FieldChange = Type.Object(
  {
    field: Type.String(),
    before: Type.Unknown(),
    after: Type.Unknown(),
    source: Type.Optional(
      Type.Object(SourceRef.properties, {
        additionalProperties: false,
        description:
          "the field's own line in the manifests (absent when the manifest leaves the field to its default); a Defaults layer's line when the layer gives the value",
      }),
    ),
    layer: Type.Optional(
      Type.String({
        description:
          "the Defaults document (metadata.name) whose value the field takes; absent when the object's own manifest (or no one) decides it",
      }),
    ),
  },
  { additionalProperties: false },
);
export type FieldChange = Static<typeof FieldChange>;

export const PlanEntry = Type.Object(
  {
    key: Type.String({ description: 'stable identity, e.g. "project/tf-a/repo/tf-a-tests"' }),
    kind: Type.String({ description: 'resource kind, e.g. "Repository"' }),
    action: StringEnum(ACTIONS),
    before: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    after: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    changes: Type.Array(FieldChange, { description: "changed fields (update, ticket, blocked)" }),
    reason: Type.String({ description: "for people; apply never decides on it" }),
    source: Type.Union([SourceRef, Type.Null()], {
      description:
        "the object's declaration; for an entry that changes fields, the first changed field's own line",
    }),
    layer: Type.Optional(
      Type.String({
        description:
          "the Defaults document (metadata.name) `source` is in: the layer whose values give the entry, or (plan --base) whose edit causes it — a removal by a layer removed from the config is at the base's line",
      }),
    ),
    dependsOn: Type.Array(Type.String(), { description: "keys that must be applied first" }),
    destructive: Type.Boolean({ description: "removes data or access" }),
    ticket: Type.Optional(
      Type.Object(
        { subject: Type.String(), body: Type.String() },
        { additionalProperties: false, description: "ready-to-send support-ticket text" },
      ),
    ),
    blocked: Type.Optional(
      Type.Object({ field: Type.String(), reason: Type.String() }, { additionalProperties: false }),
    ),
    warnings: Type.Optional(Type.Array(Type.String())),
    driftFields: Type.Optional(
      Type.Array(Type.String(), {
        description:
          "with plan --base: fields of this entry the base config plans the same way (drift already present; with --applied: the applied config too); the other fields are this change",
      }),
    ),
    unappliedFields: Type.Optional(
      Type.Array(Type.String(), {
        description:
          "with plan --base --applied: fields of this entry the base config plans the same way and the config of the last applied commit does not (merged but not applied)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type PlanEntry = Static<typeof PlanEntry>;

export const LAYER_CHANGES = ["added", "changed", "removed"] as const;

/** A Defaults layer the plan involves, and the objects it selects: its blast radius. */
export const LayerImpact = Type.Object(
  {
    name: Type.String({ description: "the Defaults document's metadata.name" }),
    source: Type.Object(SourceRef.properties, {
      additionalProperties: false,
      description: "the Defaults document's first line",
    }),
    kind: StringEnum(SELECT_KINDS, {
      description: "the kind of objects it selects (select.kind)",
    }),
    objects: Type.Integer({
      minimum: 0,
      description:
        "how many objects it selects (with plan --base: by its base or its head selector)",
    }),
    projects: Type.Optional(
      Type.Integer({ minimum: 0, description: "a Repository layer: the projects of those" }),
    ),
    change: Type.Optional(
      StringEnum(LAYER_CHANGES, {
        description: "with plan --base: how the change alters the document",
      }),
    ),
  },
  { additionalProperties: false },
);
export type LayerImpact = Static<typeof LayerImpact>;

/** A grant written with `expires:` that has ended or ends soon (README "Access that expires"). */
export const ExpiringGrant = Type.Object(
  {
    key: Type.String({
      description: "the key of what it grants (an access entry, a membership, …)",
    }),
    kind: StringEnum([
      "ProjectAccess",
      "ProjectTeamAccess",
      "TeamMember",
      "UserService",
      "User",
    ] as const),
    what: Type.String({ description: "who has what, in words" }),
    expires: Type.String({ description: "YYYY-MM-DD: the last day it counts (UTC)" }),
    status: StringEnum(["expired", "expiring"] as const, {
      description:
        "expired: it counts as absent and the plan removes it (due for removal until applied); expiring: it ends within phctl.yaml's expiry.warnDays",
    }),
    daysLeft: Type.Integer({ description: "days from today to the last day; negative: ended" }),
    source: Type.Object(SourceRef.properties, {
      additionalProperties: false,
      description: "the line of its expires",
    }),
    viaUser: Type.Optional(
      Type.String({ description: "it ends with this user's own expires (the user's key)" }),
    ),
    due: Type.Optional(
      Type.Boolean({
        description:
          "expired: true while it is still live (this plan removes or deactivates it), false once gone (only the manifest entry is left)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ExpiringGrantEntry = Static<typeof ExpiringGrant>;

/** With `plan --base`: a Policy document the change adds, removes or alters, and its reach. */
export const PolicyImpact = Type.Object(
  {
    name: Type.String({ description: "the Policy document's metadata.name" }),
    source: Type.Object(SourceRef.properties, {
      additionalProperties: false,
      description: "the Policy document's first line (the base's when it was removed)",
    }),
    change: StringEnum(LAYER_CHANGES, { description: "how the change alters the document" }),
    scope: Type.String({ description: "object, change or live: what its rules judge" }),
    objects: Type.Integer({
      minimum: 0,
      description:
        "how many top-level objects its base or head selector chooses: all of them are planned, so its rules are judged on them",
    }),
  },
  { additionalProperties: false },
);
export type PolicyImpact = Static<typeof PolicyImpact>;

export const UnmanagedEntry = Type.Object(
  { key: Type.String(), kind: Type.String(), note: Type.String() },
  { additionalProperties: false, description: "a live object no manifest declares; never touched" },
);
export type UnmanagedEntry = Static<typeof UnmanagedEntry>;

export const PlanWarning = Type.Object(
  { message: Type.String(), source: Type.Optional(SourceRef), key: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
export type PlanWarning = Static<typeof PlanWarning>;

export const Summary = Type.Object(
  {
    create: Type.Integer(),
    update: Type.Integer(),
    delete: Type.Integer(),
    ticket: Type.Integer(),
    blocked: Type.Integer(),
    unmanaged: Type.Integer(),
  },
  { additionalProperties: false },
);
export type Summary = Static<typeof Summary>;

export const ENFORCEMENTS = ["deny", "ratchet", "warn"] as const;
/**
 * What a broken rule does: `deny` stops plan (exit 1) and apply; `warn` is only shown;
 * `ratchet` stops them only when the violation is new or worse (`ratchet` says which), the
 * ones already there being debt.
 */
export type Enforcement = (typeof ENFORCEMENTS)[number];

/** Who granted an exception, why, and until when (a policy's `exceptions`). */
export const PolicyExceptionRef = Type.Object(
  {
    policy: Type.String(),
    key: Type.String({ description: "the key or key glob the exception covers" }),
    rules: Type.Optional(
      Type.Array(Type.String(), { description: "only these rules (absent: every rule)" }),
    ),
    reason: Type.String(),
    expires: Type.String({ description: "YYYY-MM-DD: the last day the exception counts (UTC)" }),
    approvedBy: Type.String(),
    source: Type.Optional(SourceRef),
  },
  { additionalProperties: false },
);
export type PolicyExceptionRef = Static<typeof PolicyExceptionRef>;

export const PolicyViolation = Type.Object(
  {
    policy: Type.String(),
    rule: Type.String(),
    enforcement: StringEnum(ENFORCEMENTS),
    scope: StringEnum(["object", "change", "live"] as const, {
      description:
        "what the rule saw: the declared object (after Defaults), a plan entry, or a live object (drift)",
    }),
    key: Type.String({ description: "the object's key (of the plan entry, for a change rule)" }),
    kind: Type.String(),
    action: Type.Optional(StringEnum(ACTIONS, { description: "a change rule's entry" })),
    managed: Type.Optional(
      Type.Boolean({ description: "a live rule's object: false when no manifest declares it" }),
    ),
    source: Type.Union([SourceRef, Type.Null()], {
      description: "the object's declaration in the manifests (null: not declared)",
    }),
    ruleSource: Type.Optional(
      Type.Object(SourceRef.properties, {
        additionalProperties: false,
        description: "the rule's expression in the policy file",
      }),
    ),
    message: Type.String(),
    ratchet: Type.Optional(
      StringEnum(["new", "worsened", "existing"] as const, {
        description:
          "enforcement ratchet: new and worsened deny; existing is debt (the same violation was there: live for a full plan, the base config for plan --base) and never blocks",
      }),
    ),
    was: Type.Optional(
      Type.String({ description: "a worsened ratchet violation: the message it had before" }),
    ),
    evaluationError: Type.Optional(
      Type.String({
        description: "the rule could not be evaluated on the object (fail closed: a violation)",
      }),
    ),
    exception: Type.Optional(
      Type.Object(
        {
          ...PolicyExceptionRef.properties,
          status: StringEnum(["active", "expiring"] as const, {
            description: "expiring: it ends within 14 days",
          }),
        },
        {
          additionalProperties: false,
          description:
            "the exception that covers this violation: it is shown (excepted) and counts for nothing",
        },
      ),
    ),
  },
  { additionalProperties: false, description: "a rule of the organization's policies broken" },
);
export type PolicyViolation = Static<typeof PolicyViolation>;

/** `plan --base`: the policy exceptions this change adds, or whose end it moves later. */
export const PolicyExceptionChanges = Type.Object(
  {
    added: Type.Array(PolicyExceptionRef),
    extended: Type.Array(
      Type.Object(
        { ...PolicyExceptionRef.properties, previousExpires: Type.String() },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type PolicyExceptionChanges = Static<typeof PolicyExceptionChanges>;

/**
 * The manifests a plan was made from, so that `apply plan.json` carries it out only with
 * exactly those (src/cli/plan-identity.ts finds them again and compares).
 */
export const PlanManifests = Type.Object(
  {
    root: Type.String({ description: "absolute path of the config root when the plan was made" }),
    checkoutPath: Type.Optional(
      Type.String({
        description: "the root relative to the top of its git checkout ('.' when equal)",
      }),
    ),
    planPath: Type.Optional(
      Type.String({ description: "the root relative to the directory of the plan file" }),
    ),
    paths: Type.Array(Type.String(), {
      description: "the paths given to phctl plan, relative to the root",
    }),
    files: Type.Record(Type.String(), Type.String(), {
      description: "sha256 of every manifest file and phctl.yaml, by path relative to the root",
    }),
  },
  { additionalProperties: false },
);
export type PlanManifests = Static<typeof PlanManifests>;

/**
 * With `plan --base`: an object the change touches and whose approval it needs — the owners
 * of the files its changes are written in, by the base config (the target branch's
 * CODEOWNERS). src/owners makes them.
 */
export const OwnerApproval = Type.Object(
  {
    key: Type.String({
      description: "the top-level object: project/SLUG, user/NAME, team/NAME, organization/NAME",
    }),
    files: Type.Array(Type.String(), {
      description: "the files its changes are written in (the entries' sources)",
    }),
    users: Type.Array(Type.String(), { description: "usernames of the owners" }),
    teams: Type.Array(Type.String(), { description: "teams of the owners" }),
    handles: Type.Array(Type.String(), {
      description: "the owners' handles on the code-review platform (phctl.yaml owners.handles)",
    }),
  },
  { additionalProperties: false },
);
export type OwnerApproval = Static<typeof OwnerApproval>;

/** `plan --base`: the last commit an apply carried out, as far as the plan knows it. */
export const AppliedInfo = Type.Object(
  {
    known: Type.Boolean({
      description:
        "false: no config of the last applied commit was given (--applied), so changes merged earlier and never applied to objects this change does not touch are not shown",
    }),
    commit: Type.Optional(Type.String({ description: "the commit (from the applied record)" })),
    at: Type.Optional(Type.String({ description: "when its apply ended" })),
    note: Type.Optional(Type.String({ description: "why it is not known" })),
  },
  { additionalProperties: false },
);
export type AppliedInfo = Static<typeof AppliedInfo>;

export const Plan = Type.Object(
  {
    formatVersion: Type.Literal(PLAN_FORMAT_VERSION),
    createdAt: Type.String(),
    apiUrl: Type.String(),
    organization: Type.String(),
    entries: Type.Array(PlanEntry),
    unmanaged: Type.Array(UnmanagedEntry),
    warnings: Type.Array(PlanWarning),
    /** Rules of the organization's policies the plan breaks (deny first, by key). */
    violations: Type.Array(PolicyViolation),
    /** With `plan --base`: exceptions the change adds or extends (reviewers must see them). */
    policyExceptions: Type.Optional(PolicyExceptionChanges),
    summary: Summary,
    /** Identical changes and violations counted together (written with the plan's JSON). */
    groups: Type.Optional(PlanGroups),
    stats: Type.Object(
      { objectsRead: Type.Integer(), apiCalls: Type.Integer(), durationMs: Type.Integer() },
      { additionalProperties: false },
    ),
    /** Hash of the live state each touched object was planned from (stale-plan check). */
    fingerprints: Type.Record(Type.String(), Type.String()),
    targets: Type.Optional(Type.Array(Type.String())),
    /**
     * With `plan --base`: keys whose whole change is already present on the base config
     * (drift; with `--applied`, drift made live: the applied config plans it too).
     */
    drift: Type.Optional(Type.Array(Type.String())),
    /**
     * With `plan --base --applied`: keys whose whole change the base config holds and the
     * last applied commit's does not: merged earlier, never applied (apply carries it).
     */
    unapplied: Type.Optional(Type.Array(Type.String())),
    /**
     * The Defaults layers the plan involves, with the objects each selects: with `plan
     * --base`, the documents the change adds, alters or removes; without, those whose values
     * decide a changed field.
     */
    layers: Type.Optional(Type.Array(LayerImpact)),
    /**
     * With `plan --base`: the Policy documents the change adds, removes or alters. The objects
     * they select are in the plan's scope, so the violations show what the policy change does.
     */
    policyChanges: Type.Optional(Type.Array(PolicyImpact)),
    /** With `plan --base`: what is known of the last commit an apply carried out. */
    applied: Type.Optional(AppliedInfo),
    /** With `plan --base`: the owners whose approval each touched object needs. */
    owners: Type.Optional(Type.Array(OwnerApproval)),
    /**
     * Grants written with `expires:` that have ended (the plan removes them) or end within
     * phctl.yaml's `expiry.warnDays` (default 14), by date; of a scoped plan, those in scope.
     */
    expiring: Type.Optional(Type.Array(ExpiringGrant)),
    /**
     * A scoped plan (`--base` without `--full`, or `--target`): the keys of the top-level
     * objects (users, teams, organizations, projects) read and diffed; nothing else was.
     */
    scope: Type.Optional(Type.Array(Type.String())),
    /** The phctl version that made the plan. */
    phctlVersion: Type.Optional(Type.String()),
    /** The manifests the plan was made from (plan --out; apply refuses other manifests). */
    manifests: Type.Optional(PlanManifests),
    /** sha256 of the entries (canonical JSON): apply refuses an edited plan. */
    entriesDigest: Type.Optional(Type.String()),
  },
  {
    $id: "https://phctl.dev/schemas/plan.schema.json",
    additionalProperties: false,
    description: "a phctl plan (plan --out / --format json)",
  },
);
export type Plan = Static<typeof Plan>;

/**
 * Deny and warn counts of a plan's violations; those an exception covers count apart, and so
 * does the debt (ratchet violations already there). A ratchet violation not judged denies.
 */
export function policyCounts(vs: readonly PolicyViolation[]): {
  deny: number;
  warn: number;
  excepted: number;
  debt: number;
} {
  const c = { deny: 0, warn: 0, excepted: 0, debt: 0 };
  for (const v of vs)
    c[
      v.exception
        ? "excepted"
        : v.enforcement !== "ratchet"
          ? v.enforcement
          : v.ratchet === "existing"
            ? "debt"
            : "deny"
    ]++;
  return c;
}

/** Counts per action. */
export function summarize(entries: readonly PlanEntry[], unmanaged: number): Summary {
  const s: Summary = { create: 0, update: 0, delete: 0, ticket: 0, blocked: 0, unmanaged };
  for (const e of entries) s[e.action]++;
  return s;
}

/** Does the plan change anything (ticket and blocked count: something still differs)? */
export function hasChanges(plan: Pick<Plan, "entries">): boolean {
  return plan.entries.length > 0;
}

/** The project slug an entry belongs to ("project/<slug>/…"), if any: used to group renderings. */
export function projectOf(key: string): string | undefined {
  const m = /^project\/([^/]+)/.exec(key);
  return m?.[1];
}
