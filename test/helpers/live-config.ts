/**
 * A reference server that holds what a config declares: started, brought to the config under
 * `base` (populate.ts, without the apply command), with the environment the CLI needs to
 * reach it as an admin. The e2e tests of owners, restrictions and pull-request plans start
 * from one; `close` stops it.
 */
import { expect } from "vitest";
import { ApiClient } from "../../src/api/client.js";
import { loadManifests } from "../../src/pipeline/load.js";
import type { ServerOptions } from "../../src/server/options.js";
import { populate } from "./populate.js";
import { startServer, TOKENS, type TestServer } from "./server.js";

export interface LiveConfig {
  t: TestServer;
  /** PHCTL_API_URL and an admin's PHCTL_TOKEN. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function serverHolding(
  base: string,
  options: ServerOptions = {},
): Promise<LiveConfig> {
  const t = await startServer(options);
  const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  try {
    const loaded = await loadManifests([base]);
    expect(loaded.diagnostics).toEqual([]);
    await populate(api, loaded.state!);
  } finally {
    await api.close();
  }
  return {
    t,
    env: { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKENS.admin.secret },
    close: () => t.close(),
  };
}
