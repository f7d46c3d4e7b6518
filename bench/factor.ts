/**
 * How many lines `phctl export --factor` saves (issue 28 item 8; README "Exporting an
 * organization"): the organization of one size (M unless told) seeded into an in-process
 * reference server, exported plain and factored (default share), lines of the written
 * manifests counted (phctl.yaml and the manifests; schemas/ left out), and the factored
 * files checked to load to the same desired state as the plain ones. Writes the "factor"
 * block of bench/results.md.
 *
 *   node -e "import('vite').then((v) => v.runnerImport('./bench/factor.ts'))" -- [--size M] [--no-write]
 */
import { parseArgs } from "node:util";
import equal from "fast-deep-equal";
import { ApiClient } from "../src/api/client.js";
import { desiredOf } from "../src/engine/scope.js";
import { exportOrganization, type ExportResult } from "../src/export/index.js";
import { loadManifestTexts } from "../src/pipeline/load.js";
import { seed } from "../src/server/seed.js";
import { startServer, TOKENS } from "../test/helpers/server.js";
import { loadAverage, writeBlock } from "./block.js";
import { generate, ORG, SIZES, type Size } from "./generate.js";
import { machine } from "./report.js";

const args = parseArgs({
  args: process.argv.slice(1).filter((a) => a !== "--"),
  options: { size: { type: "string", default: "M" }, "no-write": { type: "boolean" } },
});
const size = args.values.size as Size;

const manifests = (r: ExportResult) =>
  r.files.filter((f) => f.holds !== "schema" && f.holds !== "api-profile");
const lines = (r: ExportResult) =>
  manifests(r).reduce((n, f) => n + f.text.split("\n").length - 1, 0);
function state(r: ExportResult) {
  const { state } = loadManifestTexts(
    manifests(r).map((f) => ({ file: f.path, content: f.text, config: f.holds === "config" })),
  );
  if (!state) throw new Error("an export did not load");
  const out: Record<string, unknown> = {};
  for (const [kind, list] of desiredOf(state))
    for (const d of list) out[`${kind} ${d.key}`] = d.fields;
  return out;
}

const t = await startServer({ checkResponses: false });
try {
  seed(t.server.ctx, generate(SIZES[size]).seed);
  const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret, concurrency: 16 });
  const plain = await exportOrganization(api, { organization: ORG });
  const factored = await exportOrganization(api, { organization: ORG, factor: 0.6 });
  await api.close();
  if (!equal(state(plain), state(factored)))
    throw new Error("the factored export loads to another state");
  const row = {
    size,
    plain: lines(plain),
    factored: lines(factored),
    defaults: factored.counts.defaults,
    when: `${new Date().toISOString().slice(0, 16)}Z`,
    machine: machine(),
    load: loadAverage(),
  };
  const saved = row.plain - row.factored;
  const n = (x: number) => x.toLocaleString("en-US");
  const pct = ((100 * saved) / row.plain).toFixed(0);
  console.log(
    `size ${size}: plain ${n(row.plain)} lines, factored ${n(row.factored)} (${row.defaults} Defaults): ${n(saved)} fewer (${pct} %)`,
  );
  if (!args.values["no-write"])
    writeBlock("factor", { [size]: row }, [
      "## Export --factor",
      "",
      `bench/factor.ts: the size-${size} organization exported plain and with \`--factor\` (share 60 %), lines of phctl.yaml and the manifests (schemas/ left out); the factored files load to the same desired state. Run ${row.when} on ${row.machine}.`,
      "",
      "| size | plain | --factor | Defaults | fewer lines |",
      "| --- | ---: | ---: | ---: | ---: |",
      `| ${size} | ${n(row.plain)} | ${n(row.factored)} | ${row.defaults} | ${n(saved)} (${pct} %) |`,
    ]);
} finally {
  await t.close();
}
