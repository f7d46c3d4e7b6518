/**
 * `phctl unlock LOCK_ID [DIR] [--journal FILE]` (also `force-unlock`, as Terraform names it):
 * remove the apply lock of a journal whose holder a person knows to be gone — a CI job
 * killed on another runner, a machine that went away. The ID (printed by the apply that was
 * refused) makes sure the lock removed is the one seen, never one an apply took since; a
 * holder still running on this host is never unlocked. Says whose lock it was.
 *
 * The journal is found as apply finds it: `--journal` (relative to the working directory),
 * else `journal:` in DIR's phctl.yaml, else `.phctl/journal.jsonl` beside it.
 */
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { userError } from "../errors.js";
import { commandLabel, describeHolder } from "../engine/lock-holder.js";
import { forceUnlock } from "../engine/lock.js";
import { defaultConfigDir } from "../manifest/config-root.js";
import type { GlobalOptions } from "./config.js";
import { workingSetting } from "./working-config.js";

/** The journal `phctl apply DIR [--journal FILE]` would use, without loading the manifests. */
function journalOf(dir: string | undefined, flag: string | undefined, cwd: string): string {
  if (flag) return resolve(cwd, flag);
  const configDir = resolve(cwd, dir ?? defaultConfigDir(cwd, "unlock LOCK_ID"));
  const journal = workingSetting(configDir, "journal")?.value;
  if (journal === undefined) return join(configDir, ".phctl", "journal.jsonl");
  if (typeof journal !== "string" || journal === "")
    throw userError(
      "BAD_CONFIG",
      `${join(configDir, "phctl.yaml")}: journal: must be a file name; run phctl validate`,
    );
  return resolve(configDir, journal);
}

export function registerUnlock(program: Command): void {
  program
    .command("unlock")
    .alias("force-unlock")
    .description(
      "remove the apply lock of a journal whose holder is gone, by the lock ID the refused apply printed",
    )
    .argument("<lock-id>", "the lock's ID, as the refused apply named it")
    .argument(
      "[dir]",
      "the config directory (the one holding phctl.yaml); default: found as apply finds it",
    )
    .option("--journal <file>", "the apply journal whose lock to remove (as given to apply)")
    .addHelpText(
      "after",
      `
An apply refused because of a lock names its holder (host, pid, start time, CI job) and this
command. Run it only when that holder is gone: a lock whose holder is provably gone (same
host and no such process, an earlier boot, a copy restored from a CI cache) is taken over by
the next apply without it.

Examples:
  phctl unlock 6f1c0e9a-2b7d-4c1e-9a55-0d3f1b2c4e77 --journal .phctl/default/journal.jsonl
  phctl force-unlock 6f1c0e9a-2b7d-4c1e-9a55-0d3f1b2c4e77 config/   # phctl.yaml in config/`,
    )
    .action((id: string, dir: string | undefined, o: { journal?: string }, cmd: Command) => {
      const global = cmd.optsWithGlobals<GlobalOptions>();
      const removed = forceUnlock(journalOf(dir, o.journal, process.cwd()), id);
      if (global.json) {
        process.stdout.write(`${JSON.stringify(removed)}\n`);
        return;
      }
      const h = removed.holder;
      const whose = h
        ? `: it was held by ${commandLabel(h)} (${describeHolder(h)})`
        : " (it named no holder)";
      process.stdout.write(`Removed the lock ${removed.file} (lock ID ${removed.id})${whose}.\n`);
    });
}
