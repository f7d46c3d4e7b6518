/**
 * Which file each document goes to, and the files' texts. `per-project` (default):
 * organizations.yaml, users.yaml, teams.yaml and projects/<slug>.yaml; `per-kind`:
 * organizations.yaml, users.yaml, teams.yaml, projects.yaml (each only when not empty); with
 * `--factor`, defaults.yaml holds the Defaults documents. Both
 * add phctl.yaml and the JSON Schemas under schemas/, so the directory is a complete config
 * repository and editors find the schemas by the relative `$schema` line of each file; and
 * the API profile the export read through, as api-profile.yaml named by phctl.yaml (a plan
 * of the directory must read the service as the export did).
 */
import { renderSchema } from "../manifest/schema/index.js";
import type { ExportDocument, ExportDocuments } from "./documents.js";
import { configFile, manifestFile } from "./yaml.js";

export const SPLITS = ["per-project", "per-kind"] as const;
export type Split = (typeof SPLITS)[number];

/** One file to write: path relative to the output directory (`/`-separated). */
export interface ExportFile {
  path: string;
  /** What it holds: `config`, `schema`, `api-profile`, or the manifest kind. */
  holds:
    "config" | "schema" | "api-profile" | "Organization" | "User" | "Team" | "Project" | "Defaults";
  /** Names of the documents in it (empty for config and schemas). */
  names: string[];
  text: string;
}

const MANIFEST_SCHEMA = "schemas/manifest.schema.json";
const CONFIG_SCHEMA = "schemas/config.schema.json";
/** Where the API profile goes, beside phctl.yaml. */
export const API_PROFILE_FILE = "api-profile.yaml";

/** `../` once per directory level of `path`, then `target`. */
export function relativeTo(path: string, target: string): string {
  const depth = path.split("/").length - 1;
  return `${"../".repeat(depth)}${target}`;
}

function manifest(
  path: string,
  holds: ExportFile["holds"],
  header: string[],
  docs: readonly ExportDocument[],
): ExportFile {
  return {
    path,
    holds,
    names: docs.map((d) => d.name),
    text: manifestFile(relativeTo(path, MANIFEST_SCHEMA), header, docs),
  };
}

/** Every file of the export, sorted by path. */
export function layout(
  docs: ExportDocuments,
  o: {
    organization: string;
    parent: string;
    split: Split;
    /** The text of the API profile the export read through, if any. */
    apiProfile?: string;
  },
): ExportFile[] {
  const files: ExportFile[] = [
    {
      path: "phctl.yaml",
      holds: "config",
      names: [],
      text: configFile(
        CONFIG_SCHEMA,
        o.parent,
        o.apiProfile !== undefined ? API_PROFILE_FILE : undefined,
      ),
    },
    ...(o.apiProfile !== undefined
      ? [{ path: API_PROFILE_FILE, holds: "api-profile" as const, names: [], text: o.apiProfile }]
      : []),
    {
      path: MANIFEST_SCHEMA,
      holds: "schema",
      names: [],
      text: renderSchema("manifest"),
    },
    {
      path: CONFIG_SCHEMA,
      holds: "schema",
      names: [],
      text: renderSchema("config"),
    },
  ];
  const from = `Exported from organization ${o.organization} by phctl export.`;
  if (docs.organizations.length > 0)
    files.push(
      manifest(
        "organizations.yaml",
        "Organization",
        [from, `Organizations under ${o.parent} (the parent organization, which exists already).`],
        docs.organizations,
      ),
    );
  if (docs.defaults && docs.defaults.length > 0)
    files.push(
      manifest(
        "defaults.yaml",
        "Defaults",
        [
          from,
          "Values most objects share (--factor): each object below says only what differs, with",
          "$remove for an entry it lacks; one written whole says inherit: false.",
        ],
        docs.defaults,
      ),
    );
  if (docs.users.length > 0)
    files.push(
      manifest("users.yaml", "User", [from, "Users and their service accounts."], docs.users),
    );
  if (docs.teams.length > 0)
    files.push(manifest("teams.yaml", "Team", [from, "User teams and their members."], docs.teams));
  if (o.split === "per-kind") {
    if (docs.projects.length > 0)
      files.push(manifest("projects.yaml", "Project", [from], docs.projects));
  } else {
    for (const p of docs.projects)
      files.push(manifest(`projects/${p.name}.yaml`, "Project", [from], [p]));
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
