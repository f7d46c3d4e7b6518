/**
 * `phctl apply plan.json [PATH…]`: a saved plan is carried out exactly as reviewed, or not
 * at all. Before anything is sent it must be:
 *
 * - unedited: the hash of its entries, recorded by `plan --out`, still matches;
 * - made from these manifests: the paths given, else the recorded config root found again
 *   (`locateManifests`), hold exactly the files — same content — it was made from;
 * - for this service, and current: the objects it touches did not move since (fingerprints),
 *   and a fresh plan of its keys from the same manifests gives the same entries.
 *
 * Every refusal is one line naming what differs and what to do; nothing is written.
 */
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import type { Ajv } from "ajv";
import { userError, type PhctlError } from "../errors.js";
import { staleObjects, type StaleObject } from "../engine/guards.js";
import { Plan, PLAN_FORMAT_VERSION, type PlanEntry } from "../engine/plan.js";
import type { PlanResult } from "../engine/run-plan.js";
import type { DesiredState } from "../manifest/types.js";
import { redactValue } from "../secrets.js";
import {
  compareManifests,
  describeDifference,
  describeManifests,
  entriesDigest,
  locateManifests,
} from "./plan-identity.js";

/** Split the arguments: at most one saved plan (a `.json` file), the rest manifest paths. */
export function splitArgs(paths: readonly string[]): { saved?: string; manifests: string[] } {
  const isFile = (p: string) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  const saved = paths.filter((p) => p.toLowerCase().endsWith(".json") && isFile(p));
  if (saved.length > 1)
    throw userError("BAD_ARGUMENTS", `one saved plan at a time (got ${saved.join(", ")})`);
  const manifests = paths.filter((p) => !saved.includes(p));
  return {
    ...(saved[0] !== undefined ? { saved: saved[0] } : {}),
    manifests,
  };
}

export function readSavedPlan(file: string): Plan {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw userError(
      "BAD_PLAN",
      `${file} is not a saved plan: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  // ajv is loaded here, not at import: apply and comment start without it.
  const mod = createRequire(import.meta.url)("ajv") as { default: new (o: object) => Ajv };
  const validate = new mod.default({ strict: false, allErrors: false }).compile(Plan);
  // Another format (another phctl made it): say so, not which field the schema misses.
  const made = data as { formatVersion?: unknown; phctlVersion?: unknown } | null;
  if (typeof made?.formatVersion === "number" && made.formatVersion !== PLAN_FORMAT_VERSION)
    throw userError(
      "BAD_PLAN",
      `${file} is a plan of format ${made.formatVersion}, made by ${typeof made.phctlVersion === "string" ? `phctl ${made.phctlVersion}` : "another phctl"}; this phctl reads format ${PLAN_FORMAT_VERSION}: make the plan again with this phctl (phctl plan --out)`,
    );
  if (!validate(data)) {
    const first = validate.errors?.[0];
    throw userError(
      "BAD_PLAN",
      `${file} is not a phctl plan (made by \`phctl plan --out\`): ${first ? `${first.instancePath || "/"} ${first.message ?? ""}` : "unexpected shape"}`,
    );
  }
  return data;
}

/** The refusal of a stale saved plan: every changed object, with how it changed. */
export function staleError(file: string, stale: readonly StaleObject[]): PhctlError {
  const lines = stale.map((s) => `${s.key}: ${s.changes.join("; ")}`);
  return userError(
    "STALE_PLAN",
    `the saved plan ${file} is stale: ${stale.length === 1 ? "1 object" : `${stale.length} objects`} changed since it was made — ${lines.join(" | ")}; make a new plan (phctl plan --out ${file})`,
    lines,
  );
}

/** A saved plan being applied: its manifests, and the checks that bind it to them. */
export interface SavedPlanRun {
  file: string;
  plan: Plan;
  /** The manifest paths to load. */
  paths: string[];
  /** Where the manifests were found, when the user did not name them. */
  note?: string;
  /** Refuse unless the loaded manifests are exactly those the plan was made from. */
  checkManifests(paths: readonly string[], files: readonly string[], state: DesiredState): void;
  /**
   * Re-plan the saved keys now; refuse a stale plan or one that no longer matches what
   * these manifests give. Side effects owed by earlier applies (journal) are added to it.
   */
  recheck(
    apiUrl: string,
    fresh: (targets: readonly string[]) => Promise<PlanResult>,
    owed: ReadonlySet<string>,
  ): Promise<{ plan: Plan; live: PlanResult["live"] }>;
}

const remake = (file: string) =>
  `make a new plan from the manifests you mean to apply (phctl plan DIR --out ${file})`;

/**
 * Everything that decides what an entry does: two plans agree when these are equal. Both
 * sides are masked first: the saved plan holds its live (and desired) values masked, the
 * fresh plan the real ones. Not where the manifests say it: file paths are relative to
 * where each plan was made.
 */
const what = (e: PlanEntry) =>
  entriesDigest([
    redactValue([e.action, e.key, e.after, e.changes.map((c) => [c.field, c.before, c.after])]),
  ]);

/** Read a saved plan among the arguments and check its own integrity; undefined without one. */
export function prepareSaved(
  args: readonly string[],
  targets: readonly string[],
): SavedPlanRun | undefined {
  const { saved: file, manifests } = splitArgs(args);
  if (!file) return undefined;
  if (targets.length > 0)
    throw userError("BAD_FLAG", "--target cannot be used with a saved plan (it has its own keys)");
  const plan = readSavedPlan(file);
  const recorded = plan.manifests;
  if (!recorded || plan.entriesDigest === undefined)
    throw userError(
      "UNBOUND_PLAN",
      `${file} does not record the manifests it was made from (made by an older phctl, or by hand): ${remake(file)}`,
    );
  if (entriesDigest(plan.entries) !== plan.entriesDigest)
    throw userError(
      "EDITED_PLAN",
      `${file} was edited after phctl made it (its entries no longer match their recorded hash): a plan is applied exactly as reviewed — ${remake(file)}`,
    );
  let paths = manifests;
  let note: string | undefined;
  if (paths.length === 0) {
    const found = locateManifests(recorded, { planFile: file, cwd: process.cwd() });
    if (found.root === undefined)
      throw userError(
        "MANIFESTS_NOT_FOUND",
        `cannot find the manifests ${file} was made from (looked in ${found.tried.join(", ")}): name them after the plan file (phctl apply ${file} CONFIG_DIR)`,
      );
    paths = found.paths;
    note = `reading the manifests the saved plan was made from in ${found.root} (${found.how}; name them after the plan file to choose)`;
  }
  return {
    file,
    plan,
    paths,
    ...(note ? { note } : {}),
    checkManifests(given, files, state) {
      const now = describeManifests({
        paths: given,
        cwd: process.cwd(),
        files,
        ...(state.config.source ? { config: state.config.source.file } : {}),
      });
      const diff = compareManifests(recorded, now);
      if (diff.changed.length + diff.added.length + diff.removed.length === 0) return;
      throw userError(
        "MANIFESTS_CHANGED",
        `the manifests in ${now.root} are not those ${file} was made from (${describeDifference(diff)}): nothing was applied; ${remake(file)}, or apply it with the manifests it was made from`,
        [
          ...diff.changed.map((f) => `changed ${f}`),
          ...diff.added.map((f) => `added ${f}`),
          ...diff.removed.map((f) => `removed ${f}`),
        ],
      );
    },
    async recheck(apiUrl, fresh, owed) {
      if (plan.apiUrl !== apiUrl)
        throw userError(
          "WRONG_SERVICE",
          `the saved plan ${file} was made against ${plan.apiUrl}, not ${apiUrl}: apply it against the service it was made for (PHCTL_API_URL), or make a new plan`,
        );
      const keys = [...new Set(plan.entries.map((e) => e.key))];
      // An empty plan has nothing to re-check (no targets would mean the whole config).
      const now = keys.length > 0 ? await fresh(keys) : undefined;
      if (now) {
        const stale = staleObjects(plan, now.live, now.plan);
        if (stale.length > 0) throw staleError(file, stale);
        // The same manifests and the same live objects must give the same entries.
        const reviewed = new Set(plan.entries.map(what));
        const fresher = new Set(now.plan.entries.map(what));
        const differ = [
          ...now.plan.entries.filter((e) => !reviewed.has(what(e))),
          ...plan.entries.filter((e) => !fresher.has(what(e))),
        ].map((e) => `${e.action} ${e.key}`);
        if (differ.length > 0)
          throw userError(
            "PLAN_MISMATCH",
            `the saved plan ${file} no longer matches what its manifests and the live state give (${[...new Set(differ)].slice(0, 5).join(", ")}${differ.length > 5 ? ", …" : ""}): nothing was applied; ${remake(file)}`,
          );
      }
      // Side effects earlier applies owe (the journal) go with it: they were due before.
      const planned = new Set(keys);
      const due = [...owed].filter((k) => !planned.has(k));
      const extra =
        due.length > 0
          ? (await fresh(due)).plan.entries.filter((e) => owed.has(e.key) && e.action === "create")
          : [];
      // What is sent is the fresh plan's entries — the same changes as the saved ones (just
      // checked), with the real values: a value the saved plan holds masked is never sent.
      return {
        plan: { ...plan, entries: [...(now?.plan.entries ?? []), ...extra] },
        live: now?.live ?? new Map(),
      };
    },
  };
}
