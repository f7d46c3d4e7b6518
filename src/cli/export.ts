/**
 * `phctl export --organization ORG [--out DIR]`: write manifests from live state — customer
 * organizations, users, teams and projects of one organization (or only the objects
 * `--only` names), with a phctl.yaml that prunes nothing (and names a copy of the API
 * profile the export read through, if any) — so that
 * adopting phctl is one command and `phctl plan` right after shows no changes.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { userError } from "../errors.js";
import type { GlobalOptions } from "./config.js";
import { outageTimeoutOption } from "./outage-timeout.js";
import { escapeHiddenLines } from "../visible.js";

interface ExportOptions {
  organization: string;
  out?: string;
  projects?: string;
  only?: string[];
  split: string;
  force?: boolean;
  format: string;
  factor?: string | boolean;
}

/** `--factor [percent]`: the share of objects a value must have to go into a layer. */
export function factorShare(v: string | boolean | undefined): number | undefined {
  if (v === undefined || v === false) return undefined;
  if (v === true) return 0.6;
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!(n > 50 && n <= 100))
    throw userError(
      "BAD_FLAG",
      `--factor takes a percentage over 50 and at most 100 (a value goes into a layer when at least that share of objects have it), got ${v}`,
    );
  return n / 100;
}

const FORMATS = ["text", "json"] as const;

export function registerExport(program: Command): void {
  program
    .command("export")
    .description(
      "write manifests from live state: one organization's users, teams and projects, ready for plan",
    )
    .requiredOption(
      "--organization <org>",
      "the organization to export (the token's parent, or one of its organizations)",
    )
    .option("--out <dir>", "directory to write (new or empty; default ./<org>)")
    .option("--projects <glob>", "only projects whose slug matches (e.g. 'tf-*')")
    .option(
      "--only <keys...>",
      "only these objects: keys or globs such as project/tf-a, user/jdoe, team/*, organization/*",
    )
    .option(
      "--split <split>",
      "per-project (projects/<slug>.yaml) or per-kind (projects.yaml)",
      "per-project",
    )
    .option("--force", "write into a non-empty directory, replacing the files export writes")
    .option(
      "--factor [percent]",
      "values at least this share of objects have (default 60) go into Defaults documents in defaults.yaml; each object keeps what differs",
    )
    .option("--format <format>", "text or json (what was written)", "text")
    .option("--concurrency <n>", "reads in flight at once (default 8)")
    .addOption(outageTimeoutOption("outageTimeout: in ./phctl.yaml, else 2m"))
    .addHelpText(
      "after",
      `
Examples:
  phctl export --organization acme --out config/   # then: phctl plan config/ (no changes)
  phctl export --organization acme --projects 'tf-*' --split per-kind --out tf/
  phctl export --organization acme --out config/ --force --format json
  phctl export --organization acme --only project/ci-tools user/jdoe --out adopt/
  phctl export --organization acme --factor --out config/   # shared values in defaults.yaml`,
    )
    .action(async (o: ExportOptions, cmd: Command) => {
      // Loaded when the command runs: `--help` needs none of the engine.
      const { SPLITS, checkTarget, exportOrganization, writeExport } =
        await import("../export/index.js");
      const { connect } = await import("./config.js");
      const split = SPLITS.find((s) => s === o.split);
      if (!split)
        throw userError("BAD_FLAG", `--split must be one of ${SPLITS.join(", ")} (got ${o.split})`);
      if (!(FORMATS as readonly string[]).includes(o.format))
        throw userError(
          "BAD_FLAG",
          `--format must be one of ${FORMATS.join(", ")} (got ${o.format})`,
        );
      const bad = (o.only ?? []).find((k) => !/^(organization|user|team|project)\/./.test(k));
      if (bad !== undefined)
        throw userError(
          "BAD_FLAG",
          `--only takes keys of organizations, users, teams or projects (organization/NAME, user/NAME, team/NAME, project/SLUG; globs allowed), got ${bad}`,
        );
      const factor = factorShare(o.factor);
      const out = o.out ?? o.organization;
      const force = o.force === true;
      checkTarget(out, force); // refuse before reading anything
      const global = cmd.optsWithGlobals<GlobalOptions & { color?: boolean }>();
      const { clientReadProgress } = await import("./read-progress.js");
      const connection = await connect(global, { organization: o.organization });
      let result;
      try {
        // The profile the client reads through (checked by connect) goes into the export:
        // a plan of the directory must read the service as the export did.
        const { apiProfileFile } = await import("./api-profile.js");
        const profileFile = apiProfileFile(global.apiProfile, undefined);
        const apiProfile =
          profileFile !== undefined ? readFileSync(profileFile, "utf8") : undefined;
        const api = connection.client;
        const progress = clientReadProgress({
          command: "export",
          what: `organization ${o.organization}`,
          api,
          json: global.json === true || process.env.CI === "true",
          ...(global.color !== undefined ? { color: global.color } : {}),
        });
        result = await progress.around(() =>
          exportOrganization(api, {
            organization: o.organization,
            split,
            ...(o.projects !== undefined ? { projects: o.projects } : {}),
            ...(o.only !== undefined ? { only: o.only } : {}),
            ...(apiProfile !== undefined ? { apiProfile } : {}),
            ...(factor !== undefined ? { factor } : {}),
          }),
        );
      } finally {
        await connection.close();
      }
      const wrote = writeExport(out, result.files, force, { gitignore: true });
      // The .gitignore for .phctl/ (written, or one there already ignores it).
      const files = [
        ...result.files.map((f) => ({ path: f.path, holds: f.holds, names: f.names })),
        ...(wrote.gitignore ? [{ path: ".gitignore", holds: "gitignore", names: [] }] : []),
      ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
      for (const w of result.warnings)
        process.stderr.write(`phctl: warning: ${escapeHiddenLines(w)}\n`);
      if (o.format === "json") {
        const json = {
          organization: result.organization,
          parentOrganization: result.parent,
          out,
          files,
          counts: result.counts,
          warnings: result.warnings,
          apiCalls: result.apiCalls,
        };
        process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
        return;
      }
      const { organizations, users, teams, projects, defaults } = result.counts;
      const n = (x: number) => x.toLocaleString("en-US");
      const orgs =
        (organizations > 0
          ? `${n(organizations)} organization${organizations === 1 ? "" : "s"}, `
          : "") + (defaults > 0 ? `${n(defaults)} Defaults in defaults.yaml, ` : "");
      process.stdout.write(
        `Exported ${n(users)} users, ${n(teams)} teams and ${n(projects)} projects of ${result.organization} to ${out}/ (${orgs}${n(files.length)} files, ${n(result.apiCalls)} API calls).\n` +
          `Next: phctl validate ${out} && phctl plan ${out}\n`,
      );
    });
}
