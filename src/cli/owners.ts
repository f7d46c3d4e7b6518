/**
 * `phctl owners [PATH…]`: the CODEOWNERS file of the config (GitHub or GitLab syntax) from
 * its owners — projects' `metadata.owners` (default: their admins), Project layers'
 * `spec.owners`, phctl.yaml's `owners.folders` and `owners.platform` (src/owners). Printed,
 * written whole (`--out FILE`), or compared with a committed file (`--check FILE`: exit 1,
 * one line naming the file and the command that rewrites it, when it is stale). No network.
 */
import type { Command } from "commander";
import { userError } from "../errors.js";
import { writeAtomically } from "../fs/write-atomically.js";
import { defaultConfigDir } from "../manifest/config-root.js";
import { formatDiagnostic } from "../manifest/diagnostics.js";
import { CODEOWNERS_FORMATS, type CodeownersFormat } from "../owners/index.js";
import { loadManifests } from "../pipeline/load.js";
import { codeownersDiagnostic, codeownersText, ownerIndexOf } from "./owners-file.js";

interface OwnersOptions {
  format?: string;
  out?: string;
  check?: string;
}

export function registerOwners(program: Command): void {
  program
    .command("owners")
    .description(
      "write the CODEOWNERS file (GitHub or GitLab) from the config's owners, or check a committed one",
    )
    .argument("[paths...]", "the config directory (default: the one holding phctl.yaml)")
    .option(
      "--format <format>",
      "github or gitlab (default: phctl.yaml's owners.format, else github)",
    )
    .option("--out <file>", "write the file (whole, or not at all)")
    .option("--check <file>", "exit 1 when the committed FILE is not what the config gives")
    .addHelpText(
      "after",
      `
Examples:
  phctl owners                                   # print it
  phctl owners config --out .github/CODEOWNERS   # write it (paths from the top of the checkout)
  phctl owners --format gitlab --out CODEOWNERS  # GitLab: one [phctl] section
  phctl owners --check .github/CODEOWNERS        # CI: exit 1 when it is stale

Owners: a project's metadata.owners (users, or {users, teams}; default: its admins), a Project
layer's spec.owners, phctl.yaml's owners.folders and owners.platform (the platform team).`,
    )
    .action(async (paths: string[], o: OwnersOptions) => {
      if (o.format !== undefined && !(CODEOWNERS_FORMATS as readonly string[]).includes(o.format))
        throw userError("BAD_FLAG", `--format must be github or gitlab (got ${o.format})`);
      if (o.out !== undefined && o.check !== undefined)
        throw userError("BAD_FLAG", "--out writes the file and --check compares it: give one");
      if (paths.length === 0) paths = [defaultConfigDir(process.cwd(), "owners")];
      const loaded = await loadManifests(paths);
      const errors = loaded.diagnostics.filter((d) => d.severity === "error");
      if (!loaded.state) {
        for (const d of errors.slice(0, 5)) process.stderr.write(`${formatDiagnostic(d)}\n`);
        throw userError(
          "INVALID_CONFIG",
          `${errors.length} error${errors.length === 1 ? "" : "s"} in the config: run phctl validate ${paths.join(" ")}, fix them, then phctl owners`,
        );
      }
      const state = loaded.state;
      const format = (o.format ?? state.config.owners?.format ?? "github") as CodeownersFormat;
      const index = ownerIndexOf(loaded, state, paths);
      if (o.check !== undefined) {
        const stale = codeownersDiagnostic(index, format, o.check);
        if (stale) throw userError("CODEOWNERS_STALE", stale.message);
        process.stderr.write(`phctl: ${o.check} is up to date\n`);
        return;
      }
      const text = codeownersText(index, format);
      if (o.out === undefined) {
        process.stdout.write(text);
        return;
      }
      writeAtomically(o.out, text);
      const lines = text.split("\n").length - 1;
      process.stderr.write(
        `phctl: wrote ${o.out} (${format}, ${lines} lines, ${index.allFiles().length} files of the config)\n`,
      );
    });
}
