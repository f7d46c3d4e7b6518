/**
 * `phctl doctor [DIR]`: a read-only probe of a live service — URL, TLS, proxy and CA in use,
 * token, parent organization, clock skew, every read operation plan and export use (answers?
 * fits? pages?), rate-limit headers, and with PHCTL_GIT_TOKEN the git host's delivery-metrics
 * API (one DORA read) — as a table or `--format json`. Exit 0 when phctl can
 * work with the service, 1 otherwise, with the API-profile lines that would fix what does
 * not fit. It sends only GETs. DIR (default: the working directory) may hold phctl.yaml,
 * whose apiUrl, organization and caFile it uses.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { Command } from "commander";
import { userError } from "../errors.js";
import type { GlobalOptions } from "./config.js";
import { outageTimeoutOption } from "./outage-timeout.js";
import type { ManifestConfig } from "../manifest/types.js";

interface DoctorOptions {
  format: string;
}

const FORMATS = ["text", "json"] as const;

/** phctl.yaml of DIR (or the file itself), if there is one; a user error if it is invalid. */
async function readSettings(path: string | undefined): Promise<ManifestConfig | undefined> {
  const at = path ?? ".";
  if (!existsSync(at)) throw userError("NOT_FOUND", `${at} does not exist`);
  const file = statSync(at).isDirectory()
    ? ["phctl.yaml", "phctl.yml"].map((n) => join(at, n)).find((f) => existsSync(f))
    : at;
  if (!file) return undefined;
  const { collectDocuments } = await import("../manifest/load.js");
  const { formatDiagnostic } = await import("../manifest/diagnostics.js");
  const shown = relative(process.cwd(), file) || file;
  const { config, diagnostics } = collectDocuments([
    { file: shown, content: readFileSync(file), config: true },
  ]);
  const errors = diagnostics.filter((d) => d.severity === "error");
  for (const d of diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  if (errors.length > 0) throw userError("INVALID_CONFIG", `${shown} is not valid; fix it first`);
  return config;
}

export function registerDoctor(program: Command): void {
  program
    .command("doctor")
    .description(
      "probe a live service, read-only: reachability, TLS, proxy and CA, token, clock, and whether every read phctl relies on answers in a shape it understands",
    )
    .argument("[dir]", "config repository whose phctl.yaml to use (default: the working directory)")
    .option("--format <format>", "text or json", "text")
    .addOption(outageTimeoutOption("15s: a probe reports trouble instead of waiting it out"))
    .addHelpText(
      "after",
      `
Examples:
  PHCTL_API_URL=https://hosting.example.org/api PHCTL_TOKEN=… phctl doctor
  phctl doctor config/ --format json        # apiUrl, organization, caFile from config/phctl.yaml
  HTTPS_PROXY=http://proxy:3128 NODE_EXTRA_CA_CERTS=corp-ca.pem phctl doctor
  PHCTL_GIT_TOKEN=… phctl doctor --git-api-url https://git.example.org/api/v4   # + delivery metrics

Exit codes: 0 phctl can work with the service, 1 it cannot as it is (the report says why).`,
    )
    .action(async (dir: string | undefined, o: DoctorOptions, cmd: Command) => {
      if (!(FORMATS as readonly string[]).includes(o.format))
        throw userError(
          "BAD_FLAG",
          `--format must be one of ${FORMATS.join(", ")} (got ${o.format})`,
        );
      const config = await readSettings(dir);
      const global = cmd.optsWithGlobals<GlobalOptions & { color?: boolean }>();
      const apiUrl = global.apiUrl || process.env.PHCTL_API_URL || config?.apiUrl;
      if (!apiUrl)
        throw userError(
          "NO_API_URL",
          "doctor probes a live service: set --api-url or PHCTL_API_URL (or apiUrl: in phctl.yaml)",
        );
      const [{ connect, resolveConfig }, { serviceOf }, { runDoctor }, render, style] =
        await Promise.all([
          import("./config.js"),
          import("../manifest/settings.js"),
          import("./doctor-run.js"),
          import("./doctor-render.js"),
          import("../render/style.js"),
        ]);
      const { caFile, apiProfile, maxRps } = config
        ? serviceOf(config)
        : { apiProfile: null, maxRps: undefined };
      const connection = await connect(
        { ...global, apiUrl, concurrency: 1 },
        {
          ...(caFile !== undefined ? { caFile } : {}),
          // --api-profile wins; else DIR's phctl.yaml's apiProfile:, if any.
          apiProfile,
          ...(maxRps !== undefined ? { maxRps } : {}),
          // A probe reports trouble instead of waiting it out (--outage-timeout wins).
          outageTimeout: 15_000,
          client: { retry: { maxRetries: 1, deadlineMs: 10_000 } },
        },
      );
      let report;
      try {
        // What is set for the delivery-metrics API, from the same settings connect() read.
        const cfg = resolveConfig({ ...global, apiUrl });
        report = await runDoctor({
          client: connection.client,
          apiUrl: connection.apiUrl,
          network: connection.network,
          profile: connection.client.profile,
          ...(config?.organization !== undefined ? { organization: config.organization } : {}),
          git: { token: cfg.gitToken !== undefined, url: cfg.gitApiUrl !== undefined },
        });
      } finally {
        await connection.close();
      }
      // Probes show live values (a project's description, cut to fit): masked before they are
      // rendered, so that no part of a token is shown.
      const { redact, redactValue } = await import("../secrets.js");
      const shown = redactValue(report);
      const text =
        o.format === "json"
          ? render.renderDoctorJson(shown)
          : render.renderDoctorText(
              shown,
              style.useColor(process.stdout, global.color) ? style.COLOR : style.PLAIN,
            );
      process.stdout.write(redact(text));
      if (!report.ok) process.exitCode = 1;
    });
}
