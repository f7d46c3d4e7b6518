/**
 * One top-level setting of the working directory's phctl.yaml, for commands that read no
 * manifests (api, export, doctor): their `apiProfile:` and `maxRps:` come from there. A
 * phctl.yaml that is not YAML is an error naming the setting; `phctl validate` says more.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { userError } from "../errors.js";
import { CONFIG_NAMES } from "../manifest/discover.js";

/** `{file, value}` of `field` (value undefined when unset), or undefined without a phctl.yaml. */
export function workingSetting(
  cwd: string,
  field: string,
): { file: string; value: unknown } | undefined {
  const file = CONFIG_NAMES.find((n) => existsSync(join(cwd, n)));
  if (!file) return undefined;
  let doc: unknown;
  try {
    doc = parse(readFileSync(join(cwd, file), "utf8"));
  } catch (e) {
    throw userError(
      "BAD_CONFIG",
      `${file}: cannot read its ${field}: (${(e as Error).message.split("\n")[0]}); run phctl validate`,
    );
  }
  return { file, value: (doc as Record<string, unknown> | null)?.[field] ?? undefined };
}
