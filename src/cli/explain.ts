/**
 * `phctl explain KEY [FIELD] [PATH…]`: where each value of one object came from — its own
 * manifest or which Defaults layer, winner first — and what tombstones removed. No network.
 * The work is src/layers/explain*.ts; the text src/render/explain.ts.
 */
import { existsSync } from "node:fs";
import type { Command } from "commander";
import { userError } from "../errors.js";
import { explain, fieldsOf, parseKey, valueAt } from "../layers/explain.js";
import { explainKeys, loadForExplain } from "../layers/explain-load.js";
import { defaultConfigDir } from "../manifest/config-root.js";
import { collapseLayered, formatDiagnostic, sortDiagnostics } from "../manifest/diagnostics.js";
import { didYouMean } from "../manifest/hints.js";
import { readInputs } from "../manifest/load.js";
import { renderExplanation } from "../render/explain.js";
import { visibleText } from "../visible.js";

const FORMATS = ["text", "json"] as const;

const KEY_FORMS =
  "project/SLUG, project/SLUG/repo/[SUBGROUP/]NAME, project/SLUG/group, project/SLUG/mirror/TO, project/SLUG/artifact/NAME, user/NAME, user/NAME/service/SERVICE or team/NAME";

/** A second argument is a path when it looks like one or names a file or directory. */
const isPath = (a: string) => /[/\\]/.test(a) || /\.ya?ml$/.test(a) || existsSync(a);

export function registerExplain(program: Command): void {
  program
    .command("explain")
    .description(
      "show where each value of an object came from: its manifest or which Defaults layer",
    )
    .argument("<key>", `what to explain, as plans name it: ${KEY_FORMS}`)
    .argument(
      "[field-and-paths...]",
      "a field of it (enableForking, spec.access.reporters), then manifest files or directories (default: the directory holding phctl.yaml)",
    )
    .option("--format <format>", `output: ${FORMATS.join(", ")}`, "text")
    .addHelpText(
      "after",
      `
Examples:
  phctl explain project/trusted-firmware-a examples/
  phctl explain project/trusted-firmware-a/repo/docs/user-guide enableForking examples/
  phctl explain project/ci-tools spec.access.reporters --format json

A second argument is a FIELD unless it holds a '/', ends in .yaml/.yml or names an existing
file or directory. Only phctl.yaml, the Defaults documents and the object's own document
are read: phctl validate checks the whole config.`,
    )
    .action(async (key: string, rest: string[], o: { format: string }) => {
      if (!(FORMATS as readonly string[]).includes(o.format))
        throw userError(
          "BAD_FLAG",
          `--format must be one of ${FORMATS.join(", ")} (got ${o.format})`,
        );
      const field = rest.length > 0 && !isPath(rest[0]) ? rest[0] : undefined;
      let paths = field === undefined ? rest : rest.slice(1);
      // `explain KEY PATH FIELD`: the field after a path reads as a missing file — say where it goes.
      const late = paths.find((a, i) => (field !== undefined || i > 0) && !isPath(a));
      if (late !== undefined)
        throw userError(
          "BAD_ARGUMENT",
          `${visibleText(late)}: no such file or directory; a FIELD comes right after the key: phctl explain ${visibleText(key)} ${visibleText(late)} ${paths.filter((a) => a !== late).join(" ") || "PATH…"}`,
        );
      if (paths.length === 0) paths = [defaultConfigDir(process.cwd(), "explain")];
      const { inputs, diagnostics: extra } = await readInputs(paths, process.cwd());
      const target = parseKey(key);
      const unknown = (hint?: string) =>
        userError(
          "UNKNOWN_KEY",
          `no ${visibleText(key)} in ${paths.join(" ")}${hint ? ` (${hint})` : ""}`,
        );
      if (!target) {
        const hint = didYouMean(key, explainKeys(inputs));
        throw userError(
          "UNKNOWN_KEY",
          `explain takes ${KEY_FORMS}; got ${visibleText(key)}${hint ? ` (${hint})` : ""}`,
        );
      }
      const loaded = loadForExplain(inputs, target);
      const diagnostics = sortDiagnostics([...extra, ...loaded.diagnostics]);
      for (const d of collapseLayered(diagnostics))
        process.stderr.write(`${formatDiagnostic(d)}\n`);
      const errors = diagnostics.filter((d) => d.severity === "error").length;
      if (errors > 0)
        throw userError(
          "INVALID_CONFIG",
          `${errors} error${errors === 1 ? "" : "s"} in the manifests: nothing explained (fix ${errors === 1 ? "it" : "them"} first)`,
        );
      if (!loaded.doc) throw unknown(didYouMean(key, explainKeys(inputs)));
      const input = {
        target,
        doc: loaded.doc,
        layers: loaded.layers,
        ...(loaded.layered ? { layered: loaded.layered } : {}),
      };
      const fields = fieldsOf(input);
      const doc = loaded.doc.value as Record<string, unknown>;
      if (
        target.base !== "spec" &&
        valueAt(doc, target.kind, target.name, target.base) === undefined &&
        !explain(input).values.some((v) => v.removed)
      ) {
        const siblings = explainKeys(inputs).filter((k) => k.startsWith(`project/${target.name}/`));
        throw unknown(didYouMean(key, siblings));
      }
      const e = explain({ ...input, ...(field !== undefined ? { field } : {}) });
      if (o.format === "json") {
        process.stdout.write(`${JSON.stringify(e, null, 2)}\n`);
        return;
      }
      let text = renderExplanation(e);
      if (field !== undefined && e.values.length === 0) {
        const hint = didYouMean(e.field ?? field, fields);
        if (hint) text = `${text.trimEnd()} (${hint})\n`;
      }
      process.stdout.write(text);
    });
}
