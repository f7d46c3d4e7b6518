/**
 * `phctl serve`: run the reference server (the whole administration API on SQLite).
 * Prints its URL and, when no token is given, a development token.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { parse as parseYaml } from "yaml";
import { userError } from "../errors.js";
import { writeUnmasked } from "../secrets.js";
import { parseNumberFlag } from "./flags.js";
import { loadApiProfileFor } from "./api-profile.js";
import { parseTokenSpec, parseTokensFile } from "../server/auth.js";
import type { TokenSpec } from "../server/options.js";
import { DEFAULT_REQUEST_LOG_SIZE } from "../server/request-log.js";
import type { SeedDocument } from "../server/seed.js";

export const DEFAULT_PORT = 8470;

interface ServeOptions {
  port: string;
  host: string;
  db: string;
  token: string[];
  tokensFile?: string;
  gitHost: string;
  latency: string;
  faultRate: string;
  faultSeed: string;
  queueDelay: string;
  maxPageSize: string;
  seed?: string;
  /** true with --control, false with --no-control, undefined without either (off). */
  control?: boolean;
  /** true with --request-log alone, its text with a size. */
  requestLog?: boolean | string;
  log?: boolean;
}

/** The size of `--request-log [n]`: the default without a value. */
function logSize(value: boolean | string): number {
  if (value === true) return DEFAULT_REQUEST_LOG_SIZE;
  return parseNumberFlag("--request-log", String(value), {
    min: 1,
    max: 10_000_000,
    integer: true,
    unit: "requests",
  });
}

function readFileOrFail(flag: string, file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw userError(
      "READ_FAILED",
      `${flag} ${file}: ${(e as NodeJS.ErrnoException).code ?? "cannot read"}`,
    );
  }
}

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("run the reference server: the whole administration API on SQLite")
    .option("--port <n>", "port to listen on (0 = any free port)", String(DEFAULT_PORT))
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--db <file>", "SQLite file, or :memory:", ":memory:")
    .option(
      "--token <SECRET:ROLE:PARENT_ORG[:test-admin]>",
      "accept this bearer token (repeatable; :test-admin lets its /_control calls reach every parent organization)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option("--tokens-file <file>", "file with one SECRET:ROLE:PARENT_ORG[:test-admin] per line")
    .option("--git-host <host>", "host name in clone URLs", "git.example.org")
    .option("--latency <ms>", "mean injected latency per request (±25 % jitter)", "0")
    .option(
      "--fault-rate <r>",
      "probability of an injected fault per request (500/503/429/drop)",
      "0",
    )
    .option("--fault-seed <n>", "seed of the fault PRNG (reproducible chaos)", "1")
    .option("--queue-delay <ms>", "time a queued job stays open before it completes", "0")
    .option("--max-page-size <n>", "largest page size accepted (larger limits are clamped)", "100")
    .option("--seed <file>", "seed the database from a JSON or YAML seed document")
    .option(
      "--control",
      "serve the /_control test endpoints (request log, faults, outbox, seeding), each confined to the caller's parent organization",
    )
    .option("--no-control", "no /_control endpoints (the default)")
    .option(
      "--request-log [n]",
      `keep a log of the last N requests, read at /_control/requests (needs --control; N default ${DEFAULT_REQUEST_LOG_SIZE})`,
    )
    .option("--log", "log every request (fastify logger)")
    .addHelpText(
      "after",
      `
Examples:
  phctl serve                                   # in memory, prints a development token
  phctl serve --db ph.sqlite --port 9000 --token s3cret:system-admin:acme
  phctl serve --latency 20 --fault-rate 0.1 --queue-delay 200   # a realistic chaos target
  phctl serve --api-profile profiles/example-api-profile.yaml   # a service shaped differently
  phctl serve --control --request-log 50000 --token t:system-admin:acme   # for tests and benchmarks

--api-profile FILE serves the API as the profile describes it (its paths and methods, list
envelope, pagination and queue id names); clients need the same profile.

--control serves /_control for tests and benchmarks: a system-admin token reads, clears,
arms and seeds only within its own parent organization; a token given as
SECRET:ROLE:PARENT_ORG:test-admin acts on every one. The OpenAPI document of what is
served is at /openapi.json and /openapi.yaml.`,
    )
    .action(async (o: ServeOptions, cmd: Command) => {
      // Loaded here, not at the top: other commands should not pay for fastify and SQLite.
      const { buildServer, developmentToken } = await import("../server/app.js");
      const { seed } = await import("../server/seed.js");
      const tokens: TokenSpec[] = [];
      try {
        for (const t of o.token) tokens.push(parseTokenSpec(t));
        if (o.tokensFile)
          tokens.push(...parseTokensFile(readFileOrFail("--tokens-file", o.tokensFile)));
      } catch (e) {
        throw userError("BAD_TOKEN", (e as Error).message);
      }
      const flag = cmd.optsWithGlobals<{ apiProfile?: string }>().apiProfile;
      // Only a profile asked for: serve never picks up the working directory's phctl.yaml.
      const apiProfile = await loadApiProfileFor(flag, null);
      const requestLogSize = o.requestLog === undefined ? undefined : logSize(o.requestLog);
      if (requestLogSize !== undefined && o.control !== true) {
        throw userError(
          "BAD_FLAG",
          "--request-log needs --control: the log is read at /_control/requests; add --control",
        );
      }
      const dev = tokens.length === 0 ? developmentToken() : undefined;
      if (dev) tokens.push(dev);
      let doc: SeedDocument | undefined;
      if (o.seed) {
        try {
          doc = parseYaml(readFileOrFail("--seed", o.seed)) as SeedDocument;
        } catch (e) {
          throw userError("BAD_SEED", `--seed ${o.seed}: ${(e as Error).message}`);
        }
      }
      let server;
      try {
        server = await buildServer({
          db: o.db,
          tokens,
          gitHost: o.gitHost,
          latencyMs: parseNumberFlag("--latency", o.latency, {
            min: 0,
            max: 600_000,
            unit: "milliseconds",
          }),
          faultRate: parseNumberFlag("--fault-rate", o.faultRate, { min: 0, max: 1 }),
          faultSeed: parseNumberFlag("--fault-seed", o.faultSeed, {
            min: 0,
            max: 4_294_967_295,
            integer: true,
          }),
          queueDelayMs: parseNumberFlag("--queue-delay", o.queueDelay, {
            min: 0,
            max: 3_600_000,
            unit: "milliseconds",
          }),
          maxPageSize: parseNumberFlag("--max-page-size", o.maxPageSize, {
            min: 1,
            max: 10_000,
            integer: true,
          }),
          control: o.control === true,
          ...(requestLogSize !== undefined ? { requestLog: true, requestLogSize } : {}),
          logger: o.log === true,
          ...(apiProfile ? { apiProfile } : {}),
        });
      } catch (e) {
        throw userError("SERVER_START", `cannot start the server: ${(e as Error).message}`);
      }
      if (doc) {
        try {
          const counts = seed(server.ctx, doc);
          process.stderr.write(
            `seeded ${
              Object.entries(counts)
                .map(([k, v]) => `${v} ${k}`)
                .join(", ") || "nothing"
            }\n`,
          );
        } catch (e) {
          await server.close();
          throw userError("BAD_SEED", `--seed ${o.seed}: ${(e as Error).message}`);
        }
      }
      let url: string;
      try {
        url = await server.listen(
          parseNumberFlag("--port", o.port, { min: 0, max: 65535, integer: true }),
          o.host,
        );
      } catch (e) {
        await server.close();
        throw userError(
          "LISTEN_FAILED",
          `cannot listen on ${o.host}:${o.port}: ${(e as Error).message}`,
        );
      }
      process.stdout.write(`phctl reference server listening on ${url}\n`);
      if (o.control === true) {
        process.stdout.write(
          `test endpoints on at ${url}/_control${requestLogSize !== undefined ? ` (request log: the last ${requestLogSize} requests)` : ""}\n`,
        );
      }
      if (apiProfile?.file)
        process.stdout.write(`serving the API as the API profile ${apiProfile.file} shapes it\n`);
      if (dev) {
        process.stdout.write(
          `development token (system-admin, parent organization ${dev.parentOrganization}):\n` +
            `  export PHCTL_API_URL=${url}\n`,
        );
        // The token is the point of this line: past the guard, which masks its shape.
        writeUnmasked(process.stdout, `  export PHCTL_TOKEN=${dev.secret}\n`);
      }
      const stop = () => {
        void server.close().then(() => process.exit(0));
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}
