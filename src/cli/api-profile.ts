/**
 * Which API profile a command uses: `--api-profile FILE` (relative to the working
 * directory) wins; else `apiProfile:` of the phctl.yaml the command read (plan, apply and
 * drift pass it, relative to that file); else — for commands that read no manifests (api,
 * export, doctor) — `apiProfile:` of a phctl.yaml in the working directory. No profile: the
 * route table as it is.
 */
import type { ApiProfile } from "../api/profile.js";
import { workingSetting } from "./working-config.js";

/** `apiProfile:` of the working directory's phctl.yaml, as a path from there (or undefined). */
function fromWorkingDirectory(cwd: string): string | undefined {
  const p = workingSetting(cwd, "apiProfile")?.value;
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
