/**
 * `phctl serve`: run the reference server (the whole administration API on SQLite).
 * Prints its URL and, when no token is given, a development token.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { parse as parseYaml } from "yaml";
import { userError } from "../errors.js";
import { loadApiProfileFor } from "./api-profile.js";
import { parseTokenSpec, parseTokensFile } from "../server/auth.js";
import type { TokenSpec } from "../server/options.js";
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
  control: boolean;
  log?: boolean;
}

function num(name: string, value: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw userError(
      "BAD_FLAG",
      `--${name} must be a number between ${min} and ${max} (got ${value})`,
    );
  }
  return n;
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
      "--token <SECRET:ROLE:PARENT_ORG>",
      "accept this bearer token (repeatable)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option("--tokens-file <file>", "file with one SECRET:ROLE:PARENT_ORG per line")
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
    .option("--no-control", "do not serve the /_control test endpoints")
    .option("--log", "log every request (fastify logger)")
    .addHelpText(
      "after",
      `
Examples:
  phctl serve                                   # in memory, prints a development token
  phctl serve --db ph.sqlite --port 9000 --token s3cret:system-admin:acme
  phctl serve --latency 20 --fault-rate 0.1 --queue-delay 200   # a realistic chaos target
  phctl serve --api-profile profiles/example-api-profile.yaml   # a service shaped differently

--api-profile FILE serves the API as the profile describes it (its paths and methods, list
envelope, pagination and queue id names); clients need the same profile.`,
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
          latencyMs: num("latency", o.latency, 0),
          faultRate: num("fault-rate", o.faultRate, 0, 1),
          faultSeed: num("fault-seed", o.faultSeed, 0),
          queueDelayMs: num("queue-delay", o.queueDelay, 0),
          maxPageSize: num("max-page-size", o.maxPageSize, 1),
          control: o.control,
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
        url = await server.listen(num("port", o.port, 0, 65535), o.host);
      } catch (e) {
        await server.close();
        throw userError(
          "LISTEN_FAILED",
          `cannot listen on ${o.host}:${o.port}: ${(e as Error).message}`,
        );
      }
      process.stdout.write(`phctl reference server listening on ${url}\n`);
      if (apiProfile?.file)
        process.stdout.write(`serving the API as the API profile ${apiProfile.file} shapes it\n`);
      if (dev) {
        process.stdout.write(
          `development token (system-admin, parent organization ${dev.parentOrganization}):\n` +
            `  export PHCTL_API_URL=${url}\n  export PHCTL_TOKEN=${dev.secret}\n`,
        );
      }
      const stop = () => {
        void server.close().then(() => process.exit(0));
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}
