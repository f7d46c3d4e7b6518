/**
 * `phctl api routes` and `phctl api openapi`: the route table as phctl calls it — every
 * operation with its effective method and path (the API profile's where it overrides
 * one), marked `assumed` (the spec does not show it) and `overridden` (by the profile) —
 * and the OpenAPI document as the profile makes it. Neither connects to the service.
 */
import type { Command } from "commander";
import { userError } from "../errors.js";
import type { GlobalOptions } from "./config.js";

const FORMATS = ["text", "json"] as const;

function checkFormat(format: string): (typeof FORMATS)[number] {
  const f = FORMATS.find((x) => x === format);
  if (!f)
    throw userError("BAD_FLAG", `--format must be one of ${FORMATS.join(", ")} (got ${format})`);
  return f;
}

/** One operation as `api routes` lists it. */
export interface RouteRow {
  operation: string;
  method: string;
  path: string;
  section: string;
  assumed: boolean;
  overridden: boolean;
  /** The route table's method and path, when the profile overrides them. */
  table?: { method: string; path: string };
}

/** Every operation of the effective route table, in table order. */
export async function routeRows(profileFlag: string | undefined): Promise<{
  profile: string | undefined;
  rows: RouteRow[];
}> {
  const { loadApiProfileFor } = await import("./api-profile.js");
  const { DEFAULT_PROFILE, effectiveRoutes, overridden } = await import("../api/profile.js");
  const { operations } = await import("../api/routes.js");
  const profile = (await loadApiProfileFor(profileFlag, undefined)) ?? DEFAULT_PROFILE;
  const table = effectiveRoutes(profile);
  const rows = operations.map(([op, def]): RouteRow => {
    const eff = table[op];
    const changed = overridden(profile, op);
    return {
      operation: op,
      method: eff.method,
      path: eff.path,
      section: def.section,
      assumed: def.assumed === true,
      overridden: changed,
      ...(changed ? { table: { method: def.method, path: def.path } } : {}),
    };
  });
  return { profile: profile.file, rows };
}

/** The text table: operation, method, path, notes; then the counts. */
export function renderRoutes(rows: readonly RouteRow[], profile: string | undefined): string {
  const w = (f: (r: RouteRow) => string, head: string) =>
    Math.max(head.length, ...rows.map((r) => f(r).length));
  const wo = w((r) => r.operation, "OPERATION");
  const wm = w((r) => r.method, "METHOD");
  const wp = w((r) => r.path, "PATH");
  const line = (a: string, b: string, c: string, d: string) =>
    `${a.padEnd(wo)}  ${b.padEnd(wm)}  ${c.padEnd(wp)}  ${d}`.trimEnd();
  const out = [line("OPERATION", "METHOD", "PATH", "NOTES")];
  for (const r of rows) {
    const notes = [
      ...(r.overridden ? [`overridden (table: ${r.table!.method} ${r.table!.path})`] : []),
      ...(r.assumed ? ["assumed"] : []),
    ];
    out.push(line(r.operation, r.method, r.path, notes.join(", ")));
  }
  const assumed = rows.filter((r) => r.assumed).length;
  const changed = rows.filter((r) => r.overridden).length;
  out.push(
    "",
    `${rows.length} operations: ${assumed} assumed (the spec does not show their method and path), ${changed} overridden by ${profile ? `the API profile ${profile}` : "no API profile"}.`,
  );
  return `${out.join("\n")}\n`;
}

export function registerApiRoutes(api: Command): void {
  api
    .command("routes")
    .exitOverride()
    .description("list every operation with the method and path phctl calls (no network)")
    .argument("[filter]", "only operations whose id or path contains this text")
    .option("--format <format>", "text or json", "text")
    .addHelpText(
      "after",
      `
Examples:
  phctl api routes                       # every operation; assumed and overridden marked
  phctl api routes users --format json
  phctl --api-profile profiles/example-api-profile.yaml api routes`,
    )
    .action(async (filter: string | undefined, o: { format: string }, cmd: Command) => {
      const format = checkFormat(o.format);
      const global = cmd.optsWithGlobals<GlobalOptions>();
      const { profile, rows } = await routeRows(global.apiProfile);
      const shown = filter
        ? rows.filter((r) => r.operation.includes(filter) || r.path.includes(filter))
        : rows;
      process.stdout.write(
        format === "json"
          ? `${JSON.stringify({ profile: profile ?? null, operations: shown }, null, 2)}\n`
          : renderRoutes(shown, profile),
      );
    });
  api
    .command("openapi")
    .exitOverride()
    .description("print the OpenAPI document of the API as phctl calls it (no network)")
    .option("--format <format>", "yaml or json", "yaml")
    .addHelpText(
      "after",
      `
Examples:
  phctl api openapi > openapi.yaml
  phctl --api-profile profiles/example-api-profile.yaml api openapi --format json`,
    )
    .action(async (o: { format: string }, cmd: Command) => {
      if (o.format !== "yaml" && o.format !== "json")
        throw userError("BAD_FLAG", `--format must be one of yaml, json (got ${o.format})`);
      const global = cmd.optsWithGlobals<GlobalOptions>();
      const { loadApiProfileFor } = await import("./api-profile.js");
      const { buildOpenApi, renderOpenApi } = await import("../api/openapi.js");
      const profile = await loadApiProfileFor(global.apiProfile, undefined);
      process.stdout.write(
        o.format === "json"
          ? `${JSON.stringify(buildOpenApi(profile), null, 2)}\n`
          : renderOpenApi(profile),
      );
    });
}
