/** phctl.yaml as written → ManifestConfig with defaults filled and units resolved. */
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import { DEFAULTS } from "./schema/common.js";
import type { ConfigDocument } from "./schema/config.js";
import { ownerList } from "./owner-list.js";
import type { ManifestConfig, OwnersSettings, Source } from "./types.js";

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** `1h30m`, `90s`, `250ms` → milliseconds (the schema checked the shape). */
export function parseDuration(s: string): number {
  let total = 0;
  for (const m of s.matchAll(/([0-9]+)(ms|s|m|h)/g))
    total += Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  return total;
}

/** `25%` or 0.25 → 0.25. */
export function parseFraction(v: string | number): number {
  return typeof v === "number" ? v : Number(v.slice(0, -1)) / 100;
}

export function normaliseConfig(doc: ConfigDocument | undefined, source?: Source): ManifestConfig {
  const d = doc ?? {};
  const prune = d.prune ?? {};
  const config: ManifestConfig = {
    concurrency: d.concurrency ?? DEFAULTS.config.concurrency,
    queueTimeout: parseDuration(d.queueTimeout ?? DEFAULTS.config.queueTimeout),
    outageTimeout: parseDuration(d.outageTimeout ?? DEFAULTS.config.outageTimeout),
    maxRemovals: parseFraction(d.maxRemovals ?? DEFAULTS.config.maxRemovals),
    prune: {
      groups: prune.groups ?? DEFAULTS.config.prune,
      subgroups: prune.subgroups ?? DEFAULTS.config.prune,
      repositories: prune.repositories ?? DEFAULTS.config.prune,
      mirrors: prune.mirrors ?? DEFAULTS.config.prune,
      artifactRepositories: prune.artifactRepositories ?? DEFAULTS.config.prune,
    },
    ignore: [...new Set(d.ignore ?? [])].sort(),
    expiry: { warnDays: d.expiry?.warnDays ?? DEFAULTS.config.expiryWarnDays },
  };
  if (d.organization !== undefined) config.organization = d.organization;
  if (d.apiUrl !== undefined) config.apiUrl = d.apiUrl;
  if (d.journal !== undefined) config.journal = d.journal;
  if (d.caFile !== undefined) config.caFile = d.caFile;
  if (d.apiProfile !== undefined) config.apiProfile = d.apiProfile;
  if (d.maxRps !== undefined) config.maxRps = d.maxRps;
  if (d.owners !== undefined) config.owners = ownersSettings(d.owners);
  if (source) config.source = source;
  return config;
}

/** phctl.yaml's `owners:` with defaults filled. */
function ownersSettings(o: NonNullable<ConfigDocument["owners"]>): OwnersSettings {
  const h = o.handles ?? {};
  return {
    default: ownerList(o.platform),
    folders: (o.folders ?? []).map((f) => ({ path: f.path, ...ownerList(f) })),
    ...(o.file !== undefined ? { file: o.file } : {}),
    format: o.format ?? "github",
    handles: {
      ...(h.group !== undefined ? { group: h.group } : {}),
      users: { ...h.users },
      teams: { ...h.teams },
    },
  };
}

/** phctl.yaml's `caFile:` as a path (it is relative to phctl.yaml's directory), if set. */
export function caFileOf(config: ManifestConfig, cwd = process.cwd()): string | undefined {
  if (config.caFile === undefined) return undefined;
  return resolve(cwd, config.source ? dirname(config.source.file) : ".", config.caFile);
}

/**
 * phctl.yaml's `apiProfile:` as a path from the working directory (it is written relative to
 * phctl.yaml's directory), if set.
 */
export function apiProfileOf(config: ManifestConfig): string | undefined {
  if (config.apiProfile === undefined) return undefined;
  if (isAbsolute(config.apiProfile) || !config.source) return config.apiProfile;
  return join(dirname(config.source.file), config.apiProfile).split(sep).join("/");
}

/**
 * The directory of phctl's own files (`.phctl/`: the embedded server's database, the apply
 * journal and its lock, the drift state), absolute: beside phctl.yaml, whatever the working
 * directory — so an apply from the repository root and a plan from inside the config use
 * the same ones; in the working directory when no phctl.yaml was read.
 */
export function stateDirOf(config: ManifestConfig | undefined, cwd = process.cwd()): string {
  return resolve(cwd, config?.source ? dirname(config.source.file) : ".", ".phctl");
}

/**
 * What phctl.yaml says about the service, as every command that read it passes it to
 * `connect()`: the parent organization, the CA file, the API profile, the throttle (null:
 * this phctl.yaml names none, so the working directory's is not asked), how long an outage
 * is waited out (ms; its default when unset), and where `.phctl/` is.
 */
export function serviceOf(config: ManifestConfig): {
  organization?: string;
  caFile?: string;
  apiProfile: string | null;
  maxRps: number | null;
  outageTimeout: number;
  stateDir: string;
} {
  const caFile = caFileOf(config);
  return {
    stateDir: stateDirOf(config),
    ...(config.organization ? { organization: config.organization } : {}),
    ...(caFile !== undefined ? { caFile } : {}),
    apiProfile: apiProfileOf(config) ?? null,
    maxRps: config.maxRps ?? null,
    outageTimeout: config.outageTimeout,
  };
}
