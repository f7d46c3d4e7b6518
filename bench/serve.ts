/**
 * What the benchmark scripts share: `phctl serve` started in its own process (so its CPU is
 * not in the measured process) and the server's request log read through /_control.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import type { ApiClient } from "../src/api/client.js";
import type { RequestLogEntry } from "../src/server/app.js";

export const MAIN = join(import.meta.dirname, "../dist/cli/main.js");

export interface ServeOptions {
  token: string;
  latency: number;
  queueDelay?: number;
  seedFile?: string;
}

/** Start the built reference server on a free loopback port; resolves to its URL. */
export async function serve(o: ServeOptions): Promise<{ url: string; child: ChildProcess }> {
  const args = [MAIN, "serve", "--port", "0", "--token", `${o.token}:system-admin:acme`];
  args.push("--latency", String(o.latency));
  if (o.queueDelay !== undefined) args.push("--queue-delay", String(o.queueDelay));
  if (o.seedFile) args.push("--seed", o.seedFile);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr.on("data", (b: Buffer) => (err += b.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (b: Buffer) => {
      out += b.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on("exit", () => reject(new Error(`serve exited: ${out}${err}`)));
  });
  return { url, child };
}

/** The server's request log (GET /_control/requests). */
export async function readLog(api: ApiClient): Promise<RequestLogEntry[]> {
  const r = await api.raw("GET", "/_control/requests");
  return (r.body as { data: RequestLogEntry[] }).data;
}
