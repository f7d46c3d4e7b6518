/**
 * Which API profile a command uses: `--api-profile FILE` (relative to the working
 * directory) wins; else `apiProfile:` of the phctl.yaml the command read (plan, apply and
 * drift pass it, relative to that file); else — for commands that read no manifests (api,
 * export, doctor) — `apiProfile:` of a phctl.yaml in the working directory. No profile: the
 * route table as it is.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { ApiProfile } from "../api/profile.js";
import { userError } from "../errors.js";
import { CONFIG_NAMES } from "../manifest/discover.js";

/** `apiProfile:` of the working directory's phctl.yaml, as a path from there (or undefined). */
function fromWorkingDirectory(cwd: string): string | undefined {
  const name = CONFIG_NAMES.find((n) => existsSync(join(cwd, n)));
  if (!name) return undefined;
  let doc: unknown;
  try {
    doc = parse(readFileSync(join(cwd, name), "utf8"));
  } catch (e) {
    throw userError(
      "BAD_CONFIG",
      `${name}: cannot read its apiProfile: (${(e as Error).message.split("\n")[0]}); run phctl validate`,
    );
  }
  const p = (doc as { apiProfile?: unknown } | null)?.apiProfile;
  return typeof p === "string" && p !== "" ? p : undefined;
}

/**
 * The profile file a command uses, or undefined. `configured`: the phctl.yaml the command
 * read says this file (a path from the working directory), or null: it read one that names
 * none; undefined: it read none.
 */
export function apiProfileFile(
  flag: string | undefined,
  configured: string | null | undefined,
  cwd: string = process.cwd(),
): string | undefined {
  if (flag) return flag;
  if (configured !== undefined) return configured ?? undefined;
  return fromWorkingDirectory(cwd);
}

/** Load the profile a command uses (see `apiProfileFile`), or undefined for none. */
export async function loadApiProfileFor(
  flag: string | undefined,
  configured: string | null | undefined,
  cwd: string = process.cwd(),
): Promise<ApiProfile | undefined> {
  const file = apiProfileFile(flag, configured, cwd);
  if (file === undefined) return undefined;
  // Loaded only when a profile is in use: ajv and the profile schema cost startup time.
  const { loadApiProfile } = await import("../api/profile-load.js");
  return loadApiProfile(file, cwd);
}
