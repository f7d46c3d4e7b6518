/**
 * `phctl api METHOD PATH`: a raw authenticated call, like `gh api`. Prints the JSON body
 * (pretty) on stdout; on a non-2xx answer prints the error body too and fails with the
 * server's message on one stderr line (exit 1). Paths of the route table get their
 * operation's retry and idempotency rules; other paths are sent as they are. `phctl api
 * routes` and `phctl api openapi` (api-routes.ts) show the routes as phctl calls them.
 */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { ApiError } from "../api/errors.js";
import type { QueryValue } from "../api/request.js";
import { userError } from "../errors.js";
import { redact, redactValue } from "../secrets.js";
import type { GlobalOptions } from "./config.js";
import { outageTimeoutOption } from "./outage-timeout.js";
import { registerApiRoutes } from "./api-routes.js";

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);

interface ApiOptions {
  data?: string;
  paginate?: boolean;
  query: string[];
}

/** `--data` as JSON: inline, `@file`, or `@-` for stdin. */
function readData(data: string): unknown {
  let text = data;
  let from = "--data";
  if (data.startsWith("@")) {
    const file = data.slice(1);
    from = file === "-" ? "stdin" : file;
    try {
      text = readFileSync(file === "-" ? 0 : file, "utf8");
    } catch (e) {
      throw userError(
        "READ_FAILED",
        `--data @${file}: ${(e as NodeJS.ErrnoException).code ?? "cannot read"}`,
      );
    }
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw userError("BAD_DATA", `${from} is not JSON: ${(e as Error).message}`);
  }
}

/** `--query k=v` (repeatable; a repeated key becomes a list). */
function parseQuery(pairs: readonly string[]): Record<string, QueryValue> {
  const q: Record<string, string | string[]> = {};
  for (const p of pairs) {
    const i = p.indexOf("=");
    if (i <= 0) throw userError("BAD_FLAG", `--query ${p}: expected key=value`);
    const k = p.slice(0, i);
    const v = p.slice(i + 1);
    const prev = q[k];
    q[k] = prev === undefined ? v : [...(Array.isArray(prev) ? prev : [prev]), v];
  }
  return q;
}

/** Print an answer, every credential in it masked value by value (the JSON stays JSON). */
function print(body: unknown): void {
  if (body === undefined) return;
  process.stdout.write(
    typeof body === "string"
      ? `${redact(body)}\n`
      : `${JSON.stringify(redactValue(body), null, 2)}\n`,
  );
}

export function registerApi(program: Command): void {
  const api = program.command("api");
  registerApiRoutes(api);
  api
    .description("make an authenticated call to the administration API and print the JSON answer")
    .argument("<method>", "GET, POST, PUT, PATCH or DELETE")
    .argument(
      "<path>",
      "path of the call, e.g. /v1/users or /v1/projects/tf-a/git/repo?status=deleted",
    )
    .option("-d, --data <json>", "request body: JSON, @file, or @- for stdin")
    .option("--paginate", "follow every page of a paged list and print one merged array")
    .addOption(outageTimeoutOption("outageTimeout: in ./phctl.yaml, else 2m"))
    .option(
      "-q, --query <key=value>",
      "query parameter (repeatable)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .addHelpText(
      "after",
      `
Examples:
  phctl api GET /v1/licenses
  phctl api GET /v1/users --paginate --query organization=acme
  phctl api POST /v1/organization --data '{"organization":"acme-partner"}'
  phctl api PUT /v1/projects/tf-a --data @project.json
  phctl api routes                 # every operation's method and path (API profile applied)
  phctl api openapi                # the OpenAPI document as phctl calls the API

Without --api-url / PHCTL_API_URL the call goes to the embedded reference server
(.phctl/embedded.sqlite). The token comes from PHCTL_TOKEN or --token-file. The global
--max-rps (else PHCTL_MAX_RPS, else maxRps: in ./phctl.yaml) spaces the calls (--paginate).`,
    )
    .action(async (method: string, path: string, o: ApiOptions, cmd: Command) => {
      const m = method.toUpperCase();
      if (!METHODS.has(m))
        throw userError("BAD_METHOD", `method ${method} is not one of ${[...METHODS].join(", ")}`);
      if (o.paginate && m !== "GET") throw userError("BAD_FLAG", "--paginate needs GET");
      const body = o.data === undefined ? undefined : readData(o.data);
      const query = parseQuery(o.query);
      const global = cmd.optsWithGlobals<GlobalOptions>();
      const { connect } = await import("./config.js");
      const conn = await connect(global);
      try {
        const opts = {
          ...(Object.keys(query).length ? { query } : {}),
          ...(body === undefined ? {} : { body }),
        };
        print(
          o.paginate
            ? await conn.client.rawAll(path, opts)
            : (await conn.client.raw(m, path, opts)).body,
        );
      } catch (e) {
        if (e instanceof ApiError) print(e.body);
        throw e;
      } finally {
        await conn.close();
      }
    });
}
