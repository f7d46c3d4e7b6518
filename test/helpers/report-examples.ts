/**
 * The reports of the examples (examples/), made as a user makes them: the reference server
 * holding what the examples declare plus synthetic activity (`activity:` of a seed: last
 * logins, 90 days of pipelines, DORA series), then the built CLI — `phctl report access|
 * delivery examples --format json`, and `phctl report publish` of that file as HTML. For the
 * browser test and the screenshot (bench/report-screenshot.ts). Needs `npm run build`.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiClient } from "../../src/api/client.js";
import { loadManifests } from "../../src/pipeline/load.js";
import type { AccessReport, DeliveryReport } from "../../src/report/types.js";
import { phctl } from "./cli.js";
import { populate } from "./populate.js";
import { startServer } from "./server.js";

const ROOT = join(import.meta.dirname, "../..");
/** A token no report text contains (a short one would be masked inside words). */
const TOKEN = "phctl-examples-report-3f9a1c7e5b";

export interface ExampleReports {
  access: { report: AccessReport; html: string };
  delivery: { report: DeliveryReport; html: string };
}

/** Make both reports of the examples; `seed` picks the synthetic activity. */
export async function exampleReports(seed = 1): Promise<ExampleReports> {
  const t = await startServer({ tokens: [{ secret: TOKEN, role: "system-admin", parentOrganization: "acme" }] }); // prettier-ignore
  const dir = mkdtempSync(join(tmpdir(), "phctl-report-examples-"));
  try {
    const api = new ApiClient({ apiUrl: t.url, token: TOKEN });
    const { state } = await loadManifests([join(ROOT, "examples")]);
    await populate(api, state!);
    await api.close();
    const seeded = await t.call("POST", "/_control/seed", { as: null, headers: { authorization: `Bearer ${TOKEN}` }, body: { activity: { seed } } }); // prettier-ignore
    if (seeded.status !== 200) throw new Error(`seeding activity: ${seeded.status}`);
    const env = { PHCTL_API_URL: t.url, PHCTL_TOKEN: TOKEN, PHCTL_GIT_TOKEN: TOKEN };
    const make = async (kind: "access" | "delivery") => {
      const json = join(dir, `${kind}.json`);
      const html = join(dir, `${kind}.html`);
      for (const args of [
        ["report", kind, join(ROOT, "examples"), "--format", "json", "--out", json],
        ["report", "publish", json, "--format", "html", "--out", html],
      ]) {
        const r = await phctl(args, env);
        if (r.code !== 0) throw new Error(`phctl ${args.join(" ")}: exit ${r.code}\n${r.stderr}`);
      }
      return { report: JSON.parse(readFileSync(json, "utf8")), html: readFileSync(html, "utf8") };
    };
    return { access: await make("access"), delivery: await make("delivery") };
  } finally {
    await t.close();
  }
}
