/**
 * The report: plain, versioned, JSON-serialisable data that `phctl report access|delivery`
 * builds from live reads (src/report/) and every renderer consumes (src/render/report-*.ts:
 * html, markdown, csv, json). `schemas/report.schema.json` (`phctl schema report`) is
 * generated from the TypeBox definitions here, like the plan's.
 *
 * Conventions the renderers rely on:
 * - `null` in a number means "no data" (a project without pipelines or deployments): show
 *   "no data", never 0 and never a ratio of zero by zero.
 * - Dates are ISO 8601: days as `yyyy-MM-dd`, instants with time and zone.
 * - A section that could not be read is listed in `sections` with `status: "failed"`, what
 *   failed and what to set or do; its data is then empty (never guessed).
 * - A finding that could not be checked (the last logins of an organization unread) has
 *   `count: null` and says why in `unknown`: unknown is never 0.
 * - New fields are added, never renamed; `formatVersion` changes when a field's meaning does.
 */
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { StringEnum } from "../api/schemas.js";

export const REPORT_FORMAT_VERSION = 1;

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Day = Type.String({ description: "a day, yyyy-MM-dd" });
const obj = <P extends Record<string, TSchema>>(props: P, description?: string) =>
  Type.Object(props, { additionalProperties: false, ...(description ? { description } : {}) });

// ---------------------------------------------------------------- sections (partial failures)

export const SECTION_STATUSES = ["ok", "failed"] as const;

export const SectionStatus = obj(
  {
    name: Type.String({
      description:
        "access: access, lastLogin; delivery: dora, ci, usage (the renderers show a failed section where its table would be)",
    }),
    title: Type.String({ description: "the section's name for people" }),
    status: StringEnum(SECTION_STATUSES),
    error: Type.Optional(
      Type.String({ description: "what failed, one line (never a token)", minLength: 1 }),
    ),
    set: Type.Optional(
      Type.Array(Type.String(), {
        description: "what to set to fix it, e.g. PHCTL_GIT_TOKEN, --git-api-url",
      }),
    ),
    next: Type.Optional(
      Type.String({ description: "what to do about it, for people (e.g. run it again)" }),
    ),
  },
  "how one section of the report was read",
);
export type SectionStatus = Static<typeof SectionStatus>;

/** What every report carries. */
const base = {
  formatVersion: Type.Literal(REPORT_FORMAT_VERSION),
  generatedAt: Type.String({ description: "when the report was made (ISO instant)" }),
  phctlVersion: Type.String(),
  apiUrl: Type.String({ description: 'the service read: its URL, or "embedded"' }),
  parentOrganization: Type.String({ description: "the token's parent organization" }),
  sections: Type.Array(SectionStatus),
  partial: Type.Boolean({ description: "some section failed (see sections)" }),
  stats: obj({
    objectsRead: Type.Integer(),
    apiCalls: Type.Integer({ description: "calls to both APIs, retries included" }),
    durationMs: Type.Integer(),
  }),
};

// ---------------------------------------------------------------- access review

export const GRADES = ["admin", "write", "read"] as const;
/** What a level lets its holder do, for the findings: admin > write > read. */
export type Grade = (typeof GRADES)[number];

export const VIA_KINDS = ["direct", "userTeam", "organizationTeam"] as const;

export const HeldVia = obj(
  {
    kind: StringEnum(VIA_KINDS, {
      description:
        "direct: on the project's own list; userTeam: as a member of a user team the project lists; organizationTeam: the organization team is on the project's list",
    }),
    team: Type.Optional(Type.String({ description: "the team's name (user team) or path" })),
  },
  "how the access is held",
);
export type HeldVia = Static<typeof HeldVia>;

export const SINCE_BASES = ["first-seen"] as const;

/**
 * What a row's `since` rests on. The API gives no date of a grant (project roles, team
 * memberships and organization teams are lists of names, docs/api.md), so every `since` is
 * "first-seen": the day of the first review that saw the access — this report's, or carried
 * from an earlier one by `--since`. The access may be older than that day, never newer.
 */
export const SinceBasis = StringEnum(SINCE_BASES, {
  description:
    "first-seen: the day of the first review that saw this access (this one's, or carried by --since from an earlier one); the access may be older. The API gives no grant date",
});
export type SinceBasis = (typeof SINCE_BASES)[number];

export const AccessRow = obj(
  {
    principal: Type.String({ description: "username, or an organization team's path" }),
    principalKind: StringEnum(["user", "organizationTeam"] as const),
    organization: Nullable(
      Type.String({ description: "the user's (or organization team's) organization" }),
    ),
    project: Type.String({ description: "project slug" }),
    projectOrganization: Type.String(),
    level: Type.String({
      description:
        "admins, controllers, editors, maintainers, developers, reporters; member for a user team's projects (the API names no level)",
    }),
    grade: StringEnum(GRADES),
    via: HeldVia,
    declared: Type.Boolean({ description: "the manifests declare this access" }),
    lastLogin: Type.Optional(
      Nullable(
        Type.String({
          description: "the user's last login (ISO); null: never; absent: unknown or a team",
        }),
      ),
    ),
    name: Type.Optional(
      Type.String({ description: "the user's display name (absent: a team, or not given)" }),
    ),
    email: Type.Optional(
      Type.String({ description: "the user's main e-mail (absent: a team, or not given)" }),
    ),
    since: Type.Optional(
      Type.String({
        description:
          "a day, yyyy-MM-dd: since when the access is held as far as the reviews know (see sinceBasis); absent in reports made before it existed",
      }),
    ),
    sinceBasis: Type.Optional(SinceBasis),
    expires: Type.Optional(
      Type.String({
        description:
          "a day, yyyy-MM-dd: the last day the manifests grant this access (`expires:` on the grant, the team membership or the user, the earliest); absent: no end",
      }),
    ),
  },
  "one principal × project with its level and how it is held",
);
export type AccessRow = Static<typeof AccessRow>;

export const AccessUser = obj(
  {
    username: Type.String(),
    organization: Type.String(),
    role: Type.String(),
    status: Type.String(),
    declared: Type.Boolean(),
    serviceAccount: Type.Boolean({ description: "matches a --service-account pattern" }),
    lastLogin: Type.Optional(Nullable(Type.String())),
    daysSinceLogin: Type.Optional(
      Nullable(Type.Integer({ description: "null: never logged in; absent: unknown" })),
    ),
    projects: Type.Integer({ description: "projects the user reaches" }),
    highest: Nullable(StringEnum(GRADES, { description: "the user's highest grade anywhere" })),
    name: Type.Optional(Type.String({ description: "display name" })),
    email: Type.Optional(Type.String({ description: "main e-mail" })),
    deactivated: Type.Optional(
      Type.Boolean({ description: "the account is deactivated (status inactive, active false)" }),
    ),
    accessSince: Type.Optional(
      Type.String({
        description:
          "a day, yyyy-MM-dd: the earliest `since` of the user's rows (absent: no access); its basis is sinceBasis",
      }),
    ),
    sinceBasis: Type.Optional(SinceBasis),
  },
  "one user of the parent organization (or of its customer organizations)",
);
export type AccessUser = Static<typeof AccessUser>;

export const AccessProject = obj({
  project: Type.String(),
  organization: Type.String(),
  declared: Type.Boolean(),
  admins: Type.Integer({ description: "users who hold admins, directly" }),
  principals: Type.Integer({ description: "distinct users and organization teams with access" }),
});
export type AccessProject = Static<typeof AccessProject>;

/** Every finding, most severe first (the order every format lists them in). */
export const FINDING_IDS = [
  "deactivated-with-access",
  "inactive-with-write",
  "customer-write-on-parent",
  "service-account-admin",
  "customer-write-without-expiry",
  "never-logged-in",
  "live-only-access",
  "dormant-with-read",
  "projects-under-two-admins",
] as const;
export type FindingId = (typeof FINDING_IDS)[number];

export const SEVERITIES = ["high", "medium", "low"] as const;
/** How urgent a finding is: high first. */
export type Severity = (typeof SEVERITIES)[number];

export const FindingRow = obj(
  {
    principal: Type.Optional(Type.String()),
    project: Type.Optional(Type.String()),
    level: Type.Optional(Type.String()),
    detail: Type.String({ description: "why this row is here, for people" }),
  },
  "one row of a finding; `key` of a row is principal|project|level",
);
export type FindingRow = Static<typeof FindingRow>;

export const FindingUnknown = obj(
  {
    organizations: Type.Array(Type.String(), {
      description: "the organizations whose last-login search failed",
    }),
    reason: Type.String({
      description: 'for people: "the last-login search of organization X failed (…)"',
    }),
  },
  "why a finding could not be checked: its rows are those found among the users whose last login was read",
);
export type FindingUnknown = Static<typeof FindingUnknown>;

export const Finding = obj({
  id: StringEnum(FINDING_IDS),
  title: Type.String(),
  severity: Type.Optional(
    StringEnum(SEVERITIES, { description: "high, medium, low (absent in older reports)" }),
  ),
  count: Nullable(
    Type.Integer({ description: "its rows; null: unknown (see `unknown`), never 0 for it" }),
  ),
  unknown: Type.Optional(FindingUnknown),
  rows: Type.Array(FindingRow),
});
export type Finding = Static<typeof Finding>;

export const AccessChanges = obj(
  {
    previousGeneratedAt: Type.String(),
    granted: Type.Array(AccessRow),
    revoked: Type.Array(AccessRow),
    newFindings: Type.Array(Finding, { description: "per finding, the rows that are new" }),
    resolvedFindings: Type.Array(Finding, { description: "per finding, the rows that are gone" }),
    notChecked: Type.Optional(
      Type.Array(Finding, {
        description:
          "per finding, rows one of the two reviews could not check (a last login unknown): neither new nor resolved; each row's detail says why",
      }),
    ),
  },
  "what changed since the report given with --since",
);
export type AccessChanges = Static<typeof AccessChanges>;

export const AccessReport = obj({
  ...base,
  kind: Type.Literal("access"),
  inactiveDays: Type.Integer({ description: "--inactive, in days" }),
  serviceAccountPatterns: Type.Array(Type.String(), {
    description: "the username globs that mark a service account (--service-account)",
  }),
  rows: Type.Array(AccessRow),
  users: Type.Array(AccessUser),
  projects: Type.Array(AccessProject),
  findings: Type.Array(Finding, { description: "every finding, also those with no rows" }),
  since: Type.Optional(AccessChanges),
});
export type AccessReport = Static<typeof AccessReport>;

// ---------------------------------------------------------------- delivery metrics

export const BANDS = ["elite", "high", "medium", "low"] as const;
export type Band = (typeof BANDS)[number];

export const DORA_METRICS = [
  "deployment_frequency",
  "lead_time_for_changes",
  "time_to_restore_service",
  "change_failure_rate",
] as const;
export type DoraMetricName = (typeof DORA_METRICS)[number];

export const Period = obj({ start: Day, end: Day, days: Type.Integer() });
export type Period = Static<typeof Period>;

export const SeriesPoint = obj({
  date: Day,
  value: Nullable(Type.Number()),
  weight: Type.Optional(
    Type.Number({
      description:
        "an organization's change failure rate: the day's deployments as the rate counts them (successful + failed); the mean of the points weighted by it is the period's value",
    }),
  ),
});
export type SeriesPoint = Static<typeof SeriesPoint>;

export const DoraMetric = obj(
  {
    metric: StringEnum(DORA_METRICS),
    unit: StringEnum(["per-day", "seconds", "ratio"] as const, {
      description:
        "deployment_frequency: deployments per day; lead time and time to restore: median seconds; change_failure_rate: 0..1",
    }),
    value: Nullable(Type.Number()),
    band: Nullable(StringEnum(BANDS)),
    previous: Nullable(Type.Number({ description: "the same metric over the previous period" })),
    change: Nullable(Type.Number({ description: "value − previous" })),
    series: Type.Array(SeriesPoint, { description: "daily values over the period" }),
  },
  "one DORA metric over the period (null: no data)",
);
export type DoraMetric = Static<typeof DoraMetric>;

export const DoraScope = obj({
  name: Type.String({ description: "project slug or organization name" }),
  organization: Type.String(),
  deployments: Type.Integer({ description: "deployments in the period" }),
  metrics: Type.Array(DoraMetric, { description: "the four metrics, in DORA_METRICS order" }),
});
export type DoraScope = Static<typeof DoraScope>;

export const DoraDefinition = obj(
  {
    metric: StringEnum(DORA_METRICS),
    project: Type.String({ description: "how a project's value is computed" }),
    organization: Type.String({
      description: "how an organization's value and its daily chart are computed",
    }),
  },
  "how one DORA metric is computed, as the report says under its tables",
);
export type DoraDefinition = Static<typeof DoraDefinition>;

export const CiStats = obj({
  name: Type.String({ description: "project slug or organization name" }),
  organization: Type.String(),
  pipelines: Type.Integer(),
  successful: Type.Integer(),
  failed: Type.Integer(),
  perDay: Nullable(Type.Number()),
  successRate: Nullable(Type.Number({ description: "successful / (successful + failed)" })),
  medianDuration: Nullable(Type.Number({ description: "seconds" })),
  p95Duration: Nullable(Type.Number({ description: "seconds" })),
  previousPipelines: Type.Integer(),
  previousSuccessRate: Nullable(Type.Number()),
});
export type CiStats = Static<typeof CiStats>;

export const CiDay = obj({
  date: Day,
  pipelines: Type.Integer(),
  successful: Type.Integer(),
  failed: Type.Integer(),
  medianDuration: Nullable(Type.Number()),
});
export type CiDay = Static<typeof CiDay>;

export const UsageRow = obj({
  organization: Type.String(),
  users: Nullable(Type.Integer()),
  services: Type.Record(Type.String(), Nullable(Type.Integer()), {
    description: "users with an account per service (git, artifactservice)",
  }),
});
export type UsageRow = Static<typeof UsageRow>;

export const BandTableRow = obj({
  metric: StringEnum(DORA_METRICS),
  elite: Type.String(),
  high: Type.String(),
  medium: Type.String(),
  low: Type.String(),
});

export const DeliveryReport = obj({
  ...base,
  kind: Type.Literal("delivery"),
  period: Period,
  previousPeriod: Period,
  bands: obj(
    {
      year: Type.Integer({ description: "the DORA report year whose bands rate the metrics" }),
      source: Type.String(),
      table: Type.Array(BandTableRow),
    },
    "the band table used",
  ),
  dora: obj({
    projects: Type.Array(DoraScope),
    organizations: Type.Array(DoraScope),
    definitions: Type.Optional(
      Type.Array(DoraDefinition, {
        description: "how each metric is computed, one per metric (absent in older reports)",
      }),
    ),
  }),
  ci: obj({
    projects: Type.Array(CiStats),
    organizations: Type.Array(CiStats),
    daily: Type.Array(CiDay, { description: "all projects, per day of the period" }),
    slowest: Type.Array(Type.String(), {
      description: "projects by median duration, slowest first",
    }),
    leastReliable: Type.Array(Type.String(), {
      description: "projects by success rate, least first",
    }),
  }),
  usage: obj({ organizations: Type.Array(UsageRow) }),
});
export type DeliveryReport = Static<typeof DeliveryReport>;

// ---------------------------------------------------------------- either

export const Report = Type.Union([AccessReport, DeliveryReport], {
  title: "phctl report",
  description: "`phctl report access|delivery --format json`",
});
export type Report = Static<typeof Report>;
