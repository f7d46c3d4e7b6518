/**
 * Shared by the `phctl drift --report / --notify / --metrics-file` end-to-end tests: a
 * reference server converged on a copy of the examples, live-state edits that make drift
 * (and undo it), and a webhook receiver on 127.0.0.1 that keeps every message and can be
 * told to fail.
 */
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../../src/api/client.js";
import { loadManifests } from "../../src/pipeline/load.js";
import { populate } from "../helpers/populate.js";
import type { ServerOptions } from "../../src/server/options.js";
import { startServer, TOKENS, type TestServer } from "../helpers/server.js";
import { copyExamples } from "../helpers/examples.js";

export interface Converged {
  t: TestServer;
  /** The work directory: `examples/` inside. */
  dir: string;
  /** The service's URL and token, as the CLI reads them. */
  env: { PHCTL_API_URL: string; PHCTL_TOKEN: string };
  /** A project's live description (drift on Project, field description). */
  describe(slug: string, text: string): Promise<void>;
  close(): Promise<void>;
}

/** `options`: the server's (e.g. more tokens: the helper's TOKENS stay accepted). */
export async function converged(options: ServerOptions = {}): Promise<Converged> {
  const t = await startServer(options);
  const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  const dir = mkdtempSync(join(tmpdir(), "phctl-drift-"));
  copyExamples(join(dir, "examples"));
  const { state } = await loadManifests([join(dir, "examples")]);
  await populate(api, state!);
  await api.close();
  return {
    t,
    dir,
    env: { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret },
    async describe(slug, text) {
      const r = await t.call("PATCH", `/v1/projects/${slug}`, { body: { description: text } });
      if (r.status !== 200) throw new Error(`PATCH ${slug}: ${r.status} ${JSON.stringify(r.body)}`);
    },
    close: () => t.close(),
  };
}

/** The manifests' description of the example projects (what undoes `describe`). */
export const DESCRIPTIONS = {
  "ci-tools": "Shared continuous-integration tooling",
  "mbed-tls": "Portable TLS and cryptography library",
} as const;

export interface Webhook {
  /** The URL to pass to --notify; its path stands for the secret a real webhook URL holds. */
  url: string;
  /** The secret part of the URL. */
  secret: string;
  /** Every JSON body received, oldest first (also those answered with a failure). */
  messages: any[];
  /** Raw bodies, to search for secrets. */
  raw: string[];
  /** Answer the next `n` requests with `status`. */
  fail(n: number, status: number): void;
  close(): Promise<void>;
}

export async function startWebhook(): Promise<Webhook> {
  const secret = "T000B000XsEcReTpAtH";
  const messages: any[] = [];
  const raw: string[] = [];
  const failures: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      raw.push(text);
      messages.push(JSON.parse(text));
      const ok = req.method === "POST" && req.url === `/hooks/${secret}` && req.headers["content-type"] === "application/json"; // prettier-ignore
      const status = failures.shift() ?? (ok ? 200 : 400);
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "no_service"); // prettier-ignore
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/${secret}`,
    secret,
    messages,
    raw,
    fail(n, status) {
      for (let i = 0; i < n; i++) failures.push(status);
    },
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
