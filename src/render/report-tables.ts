/**
 * The report as tables: what the markdown, CSV and (placeholder) HTML renderers show. Each
 * table has a file-safe name (the CSV file is `<name>.csv`), a title, and per column a
 * header and, per row, the raw value (CSV: numbers as numbers, seconds, 0..1 ratios, empty
 * for no data) and the text people read ("no data", `2 h 05 min`, `12.5%`, the band).
 * Pure: a function of the report data.
 */
import type {
  AccessReport,
  AccessRow,
  DeliveryReport,
  DoraMetric,
  Finding,
  Report,
} from "../report/types.js";

/** One cell: the value for machines and the text for people. */
export interface Cell {
  raw: string | number | boolean | null;
  text: string;
}

/** One table of the report. */
export interface ReportTable {
  name: string;
  title: string;
  headers: string[];
  rows: Cell[][];
  /** A narrower form for people (markdown, html), when the full one is too wide to read. */
  compact?: { headers: string[]; rows: string[][] };
  /** A line for people above the rows (markdown): why a finding is unknown, what to do. */
  note?: string;
}

export const NO_DATA = "no data";
/** A value that could not be read (a last login, a finding that needs it): never 0. */
export const UNKNOWN = "unknown";

const t = (s: string | null | undefined): Cell => ({ raw: s ?? null, text: s ?? "" });
const n = (v: number | null): Cell => ({ raw: v, text: v === null ? NO_DATA : String(v) });
const yes = (b: boolean): Cell => ({ raw: b, text: b ? "yes" : "no" });

/** Seconds for people: `45 s`, `12 min`, `3 h 05 min`, `2.5 days`. */
export function humanSeconds(s: number | null): string {
  if (s === null) return NO_DATA;
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  if (s < 86_400) {
    const m = Math.round(s / 60);
    return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
  }
  return `${Math.round((s / 86_400) * 10) / 10} days`;
}

/** A 0..1 ratio for people: `12.5%`. */
export const percent = (r: number | null): string =>
  r === null ? NO_DATA : `${Math.round(r * 1000) / 10}%`;

const sec = (v: number | null): Cell => ({ raw: v, text: humanSeconds(v) });
const pct = (v: number | null): Cell => ({ raw: v, text: percent(v) });

const via = (r: AccessRow) =>
  r.via.kind === "direct"
    ? "direct"
    : `${r.via.kind === "userTeam" ? "user team" : "organization team"} ${r.via.team ?? ""}`;

const unknown: Cell = { raw: UNKNOWN, text: UNKNOWN };

/** A last login: the day, "never", or "unknown" (not read). */
const login = (l: string | null | undefined): Cell =>
  l === undefined
    ? unknown
    : l === null
      ? { raw: "never", text: "never" }
      : { raw: l, text: l.slice(0, 10) };

function accessRowCells(r: AccessRow): Cell[] {
  return [
    t(r.principal),
    t(r.principalKind === "user" ? "user" : "organization team"),
    t(r.organization),
    t(r.project),
    t(r.level),
    t(via(r)),
    yes(r.declared),
    r.principalKind === "user" ? login(r.lastLogin) : t(""),
  ];
}

/** A finding's count for people: the number, or "unknown" (never 0 for it). */
export const findingCount = (f: Finding): string => (f.count === null ? UNKNOWN : String(f.count));

/** Why a finding is unknown, as every format says it: "unknown: the last-login search …". */
export const unknownWords = (f: Finding): string =>
  f.unknown ? `${UNKNOWN}: ${f.unknown.reason}` : f.count === null ? UNKNOWN : "";
const ACCESS_HEADERS = [
  "Principal",
  "Kind",
  "Organization",
  "Project",
  "Level",
  "Held",
  "Declared",
  "Last login",
];

/** What an unknown finding says above its rows: why, and what was found all the same. */
export const unknownNote = (f: Finding): string =>
  `${unknownWords(f)}.${f.rows.length ? ` Found among the users whose last login was read: ${f.rows.length}.` : ""}`;

function findingTable(name: string, title: string, f: Finding): ReportTable {
  return {
    name,
    title,
    headers: ["Principal", "Project", "Level", "Detail"],
    rows: f.rows.map((r) => [t(r.principal), t(r.project), t(r.level), t(r.detail)]),
    ...(f.count === null ? { note: unknownNote(f) } : {}),
  };
}

function accessTables(r: AccessReport): ReportTable[] {
  const out: ReportTable[] = [
    {
      name: "findings",
      title: "Findings",
      // The note: why a count is unknown (CSV has no other place to say it).
      headers: ["Finding", "Count", "Note"],
      rows: r.findings.map((f) => [
        { raw: f.id, text: f.title },
        f.count === null ? unknown : n(f.count),
        t(unknownWords(f)),
      ]),
      compact: {
        headers: ["Finding", "Count"],
        rows: r.findings.map((f) => [f.title, findingCount(f)]),
      },
    },
    ...r.findings.map((f) => findingTable(`finding-${f.id}`, `${f.title} (${findingCount(f)})`, f)),
  ];
  if (r.since) {
    const s = r.since;
    out.push({
      name: "changes",
      title: `Changes since ${s.previousGeneratedAt.slice(0, 10)}`,
      headers: ["Change", ...ACCESS_HEADERS],
      rows: [
        ...s.granted.map((x) => [t("granted"), ...accessRowCells(x)]),
        ...s.revoked.map((x) => [t("revoked"), ...accessRowCells(x)]),
      ],
    });
    out.push({
      name: "finding-changes",
      title: "Findings since the previous review",
      headers: ["Change", "Finding", "Principal", "Project", "Level", "Detail"],
      rows: (
        [
          ["new", s.newFindings],
          ["resolved", s.resolvedFindings],
          ["not checked", s.notChecked ?? []],
        ] as const
      ).flatMap(([change, findings]) =>
        findings.flatMap((f) =>
          f.rows.map((x) => [
            t(change),
            { raw: f.id, text: f.title },
            t(x.principal),
            t(x.project),
            t(x.level),
            t(x.detail),
          ]),
        ),
      ),
    });
  }
  out.push(
    { name: "access", title: "Access", headers: ACCESS_HEADERS, rows: r.rows.map(accessRowCells) },
    {
      name: "users",
      title: "Users",
      headers: [
        "User",
        "Organization",
        "Role",
        "Status",
        "Declared",
        "Service account",
        "Last login",
        "Days since login",
        "Projects",
        "Highest",
      ],
      rows: r.users.map((u) => [
        t(u.username),
        t(u.organization),
        t(u.role),
        t(u.status),
        yes(u.declared),
        yes(u.serviceAccount),
        login(u.lastLogin),
        u.daysSinceLogin === undefined ? unknown : n(u.daysSinceLogin),
        n(u.projects),
        t(u.highest),
      ]),
    },
    {
      name: "projects",
      title: "Projects",
      headers: ["Project", "Organization", "Declared", "Admins", "Principals"],
      rows: r.projects.map((p) => [
        t(p.project),
        t(p.organization),
        yes(p.declared),
        n(p.admins),
        n(p.principals),
      ]),
    },
  );
  return out;
}

/** A DORA metric's value for people. */
export function doraText(m: DoraMetric): string {
  if (m.value === null) return NO_DATA;
  switch (m.unit) {
    case "per-day":
      return `${Math.round(m.value * 100) / 100}/day`;
    case "seconds":
      return humanSeconds(m.value);
    case "ratio":
      return percent(m.value);
  }
}

const METRIC_TITLES = [
  "Deployment frequency",
  "Lead time",
  "Time to restore",
  "Change failure rate",
];

function doraTable(
  name: string,
  title: string,
  scopes: DeliveryReport["dora"]["projects"],
): ReportTable {
  return {
    name,
    title,
    headers: [
      "Name",
      "Organization",
      "Deployments",
      ...METRIC_TITLES.flatMap((m) => [m, `${m} band`, `${m} previous`]),
    ],
    rows: scopes.map((s) => [
      t(s.name),
      t(s.organization),
      n(s.deployments),
      ...s.metrics.flatMap((m) => [
        { raw: m.value, text: doraText(m) },
        t(m.band),
        { raw: m.previous, text: doraText({ ...m, value: m.previous }) },
      ]),
    ]),
    compact: {
      headers: ["Name", "Deployments", ...METRIC_TITLES],
      rows: scopes.map((s) => [
        s.name,
        String(s.deployments),
        ...s.metrics.map(
          (m) =>
            `${doraText(m)}${m.band ? ` (${m.band})` : ""}${m.previous !== null ? `, was ${doraText({ ...m, value: m.previous })}` : ""}`,
        ),
      ]),
    },
  };
}

function ciTable(name: string, title: string, rows: DeliveryReport["ci"]["projects"]): ReportTable {
  return {
    name,
    title,
    headers: [
      "Name",
      "Organization",
      "Pipelines",
      "Per day",
      "Success rate",
      "Median duration",
      "p95 duration",
      "Previous pipelines",
      "Previous success rate",
    ],
    rows: rows.map((c) => [
      t(c.name),
      t(c.organization),
      n(c.pipelines),
      n(c.perDay),
      pct(c.successRate),
      sec(c.medianDuration),
      sec(c.p95Duration),
      n(c.previousPipelines),
      pct(c.previousSuccessRate),
    ]),
  };
}

/** What a change failure rate is, in one line (older reports do not say: nothing then). */
export function failureRateNote(r: DeliveryReport): string | undefined {
  const d = r.dora.definitions?.find((x) => x.metric === "change_failure_rate");
  return d && `Change failure rate: ${d.project}; per organization, ${d.organization}.`;
}

/** How each metric is computed (older reports do not say: no table then). */
function definitionsTable(r: DeliveryReport): ReportTable[] {
  const defs = r.dora.definitions ?? [];
  if (defs.length === 0) return [];
  return [
    {
      name: "dora-definitions",
      title: "How the DORA figures are computed",
      headers: ["Metric", "Project", "Organization"],
      rows: defs.map((d) => [t(d.metric), t(d.project), t(d.organization)]),
    },
  ];
}

function deliveryTables(r: DeliveryReport): ReportTable[] {
  const note = failureRateNote(r);
  return [
    {
      ...doraTable(
        "dora-organizations",
        `DORA metrics per organization (bands: ${r.bands.year})`,
        r.dora.organizations,
      ),
      ...(note ? { note } : {}),
    },
    doraTable(
      "dora-projects",
      `DORA metrics per project (bands: ${r.bands.year})`,
      r.dora.projects,
    ),
    ...definitionsTable(r),
    {
      name: "dora-bands",
      title: `DORA bands (${r.bands.source})`,
      headers: ["Metric", "Elite", "High", "Medium", "Low"],
      rows: r.bands.table.map((b) => [t(b.metric), t(b.elite), t(b.high), t(b.medium), t(b.low)]),
    },
    ciTable("ci-organizations", "CI per organization", r.ci.organizations),
    ciTable("ci-projects", "CI per project", r.ci.projects),
    {
      name: "ci-daily",
      title: "Pipelines per day",
      headers: ["Date", "Pipelines", "Successful", "Failed", "Median duration"],
      rows: r.ci.daily.map((d) => [
        t(d.date),
        n(d.pipelines),
        n(d.successful),
        n(d.failed),
        sec(d.medianDuration),
      ]),
    },
    {
      name: "usage",
      title: "Users per organization and service",
      headers: ["Organization", "Users", "Git", "Artifact service"],
      rows: r.usage.organizations.map((u) => [
        t(u.organization),
        n(u.users),
        n(u.services.git ?? null),
        n(u.services.artifactservice ?? null),
      ]),
    },
  ];
}

/** Every table of the report, in the order people read them. */
export function reportTables(r: Report): ReportTable[] {
  return r.kind === "access" ? accessTables(r) : deliveryTables(r);
}

/**
 * Which section a table belongs to (a failed section is shown instead of its tables). Every
 * access table is the access read's: a user whose last login is unknown says "unknown".
 */
export function sectionOfTable(r: Report, name: string): string {
  if (r.kind === "access") return "access";
  if (name === "dora-bands") return "bands";
  if (name.startsWith("dora")) return "dora";
  if (name.startsWith("ci")) return "ci";
  return "usage";
}

/** The report's title line. */
export function reportTitle(r: Report): string {
  return r.kind === "access"
    ? `Access review of ${r.parentOrganization}`
    : `Delivery metrics of ${r.parentOrganization}, ${r.period.start} to ${r.period.end}`;
}
