/**
 * Access that expires at size M (issue 38, "at most 10 % to validate"): the benchmark
 * organization as generated, and the same with an `expires:` on one developer and one
 * reporter of every project and one member of every team (1,050 grants, none due), each
 * validated by the built CLI in its own process. Prints the least CPU of `--runs` runs each
 * (user + system: steadier than the wall on a shared machine) and the ratio to the plain
 * config. `--main PATH` measures another build (the code before expiry, to compare).
 *
 *   npm run build
 *   node -e "import('vite').then((v) => v.runnerImport('./bench/expiry.ts'))" -- [--size M] [--runs 5] [--main dist/cli/main.js]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { generate, SIZES, withExpiries, writeOrganization, type Size } from "./generate.js";
import { MAIN, runNode, writeExitHook } from "./serve.js";

async function main(): Promise<void> {
  const args = parseArgs({
    args: process.argv.slice(1).filter((a) => a !== "--"),
    options: {
      size: { type: "string", default: "M" },
      runs: { type: "string", default: "5" },
      main: { type: "string", default: MAIN },
    },
  });
  const size = args.values.size.toUpperCase() as Size;
  const runs = Number(args.values.runs);
  const main = resolve(args.values.main);
  const root = mkdtempSync(join(tmpdir(), "phctl-expiry-bench-"));
  try {
    const org = generate(SIZES[size]);
    const plain = writeOrganization(org, join(root, "plain")).dir;
    const dated = writeOrganization(
      { ...org, files: org.files.map((f) => ({ ...f, content: withExpiries(f.content) })) },
      join(root, "dated"),
    ).dir;
    const grants = (readFileSync(join(dated, "teams.yaml"), "utf8").match(/expires:/g) ?? [])
      .length;
    const hook = writeExitHook(root);
    const cpu = async (dir: string) => {
      const r = await runNode([main, "validate", dir], { env: {}, hook, cwd: root });
      if (r.code !== 0) throw new Error(`validate ${dir}: ${r.stdout}${r.stderr}`);
      return r.cpuMs;
    };
    const least = { plain: Infinity, dated: Infinity };
    for (let i = 0; i < runs; i++) {
      least.plain = Math.min(least.plain, await cpu(plain));
      // A build before expiry rejects the dated config: only the plain one is measured then.
      least.dated = Math.min(least.dated, await cpu(dated).catch(() => NaN));
    }
    writeFileSync(join(root, "done"), "");
    const load = loadavg()
      .map((x) => x.toFixed(2))
      .join(" ");
    process.stdout.write(
      `size ${size}, ${main}: validate CPU (least of ${runs}) plain ${least.plain.toFixed(0)} ms, with expiries ${least.dated.toFixed(0)} ms (×${(least.dated / least.plain).toFixed(3)}; ${grants} team grants among them); load average ${load}\n`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
