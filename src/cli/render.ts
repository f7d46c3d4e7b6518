/**
 * `phctl render [PATH…] --out DIR`: the effective config written flat — the Defaults layers
 * merged into every object (src/layers/render.ts) — all files or none (src/export/write.ts).
 * No network. A config with errors writes nothing.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { resolve, sep } from "node:path";
import type { Command } from "commander";
import { userError } from "../errors.js";
import { writeExport } from "../export/write.js";
import { renderFiles } from "../layers/render.js";
import { defaultConfigDir } from "../manifest/config-root.js";
import { collapseLayered, formatDiagnostic, sortDiagnostics } from "../manifest/diagnostics.js";
import { readInputs } from "../manifest/load.js";
import { loadManifestTexts } from "../pipeline/load.js";

/** `1 file`, `2 files`. */
const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The output may not sit inside a directory it renders: the next render would read it back. */
function checkOut(out: string, paths: readonly string[], force: boolean): void {
  const target = resolve(out);
  for (const p of paths) {
    const dir = resolve(p);
    if (
      statSync(dir, { throwIfNoEntry: false })?.isDirectory() &&
      `${target}${sep}`.startsWith(`${dir}${sep}`)
    )
      throw userError(
        "OUTPUT_INSIDE_CONFIG",
        `--out ${out} is inside ${p}, which render reads: write it outside the config directory`,
      );
  }
  if (!existsSync(target)) return;
  if (!statSync(target).isDirectory())
    throw userError("OUTPUT_EXISTS", `--out ${out} exists and is not a directory`);
  if (!force && readdirSync(target).length > 0)
    throw userError(
      "OUTPUT_NOT_EMPTY",
      `--out ${out} is not empty; render writes only to a new or empty directory (--force replaces the files and directories render writes there)`,
    );
}

export function registerRender(program: Command): void {
  program
    .command("render")
    .description(
      "write the effective manifests, flat: every Defaults layer merged into the objects",
    )
    .argument(
      "[paths...]",
      "manifest files or directories (default: the directory holding phctl.yaml)",
    )
    .requiredOption("--out <dir>", "directory to write (new or empty)")
    .option("--force", "write into a non-empty directory, replacing what render writes there")
    .addHelpText(
      "after",
      `
Examples:
  phctl render examples/ --out /tmp/flat       # one file per source file, same paths
  phctl render --out rendered/ --force

The output holds no Defaults documents, tombstones or inherit keys, and plans the same as the
layered config. phctl.yaml is copied as it is.`,
    )
    .action(async (paths: string[], o: { out: string; force?: boolean }) => {
      if (paths.length === 0) paths = [defaultConfigDir(process.cwd(), "render")];
      const force = o.force === true;
      checkOut(o.out, paths, force);
      const { inputs, diagnostics: extra } = await readInputs(paths, process.cwd());
      const config = inputs.find((i) => i.config);
      const configText =
        config &&
        (typeof config.content === "string"
          ? config.content
          : Buffer.from(config.content).toString("utf8"));
      const loaded = loadManifestTexts(inputs);
      const diagnostics = sortDiagnostics([...extra, ...loaded.diagnostics]);
      for (const d of collapseLayered(diagnostics))
        process.stderr.write(`${formatDiagnostic(d)}\n`);
      const errors = diagnostics.filter((d) => d.severity === "error").length;
      if (errors > 0 || !loaded.layers)
        throw userError(
          "INVALID_CONFIG",
          `${errors} error${errors === 1 ? "" : "s"} in the manifests: nothing rendered`,
        );
      if (inputs.length === 0)
        throw userError("NO_MANIFESTS", `no manifest files (*.yaml, *.yml) in ${paths.join(" ")}`);
      const files = renderFiles(
        loaded.layers.docs,
        config && configText !== undefined ? { file: config.file, text: configText } : undefined,
      );
      writeExport(o.out, files, force);
      // Objects are what the service holds; Defaults are merged away and Policies are rules.
      const docs = loaded.layers.docs;
      const policies = docs.filter((d) => d.kind === "Policy").length;
      const objects = docs.filter((d) => d.kind !== "Policy" && d.kind !== "Defaults").length;
      const layers = loaded.layers.layers.length;
      process.stdout.write(
        `Rendered ${count(objects, "object")}${policies > 0 ? ` and ${count(policies, "policy", "policies")}` : ""} into ${count(files.length, "file")} under ${o.out} (${count(layers, "Defaults layer")} merged in).\n`,
      );
    });
}
