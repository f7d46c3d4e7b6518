/**
 * Paths inside an artifact repository. Files are stored by their relative path (no leading
 * slash); folders are never stored, they are implied by the paths of the files under them,
 * as "folders are created to match the path" says.
 */
import type { Static } from "@sinclair/typebox";
import type { ArtifactFileItem } from "../../../api/schemas.js";
import { ruleViolated } from "../../errors.js";
import { shownSize, type FileStatus } from "./artifact-records.js";

/** `a//b/` → `a/b`; undefined for an empty path or one with `.` or `..` segments. */
export function cleanPath(raw: string): string | undefined {
  const segs = raw.split("/").filter((s) => s !== "");
  if (segs.length === 0 || segs.some((s) => s === "." || s === "..")) return undefined;
  return segs.join("/");
}

/**
 * The stored path of an upload. A destination that ends with a slash names a folder: the
 * file keeps the name of its source, as `cp file dir/` would.
 */
export function destinationPath(destination: string, source: string): string {
  const base =
    source
      .split("/")
      .filter((s) => s !== "")
      .pop() ?? "";
  const p = cleanPath(destination.endsWith("/") ? `${destination}${base}` : destination);
  if (p === undefined) {
    throw ruleViolated(
      `destinationFilePath ${JSON.stringify(destination)} is not a file path inside the repository (empty, or with . or .. segments)`,
      "destinationFilePath",
    );
  }
  return p;
}

/** The folders a path implies: `a/b/c.txt` → `a`, `a/b`. */
export function parentFolders(path: string): string[] {
  const segs = path.split("/");
  return segs.slice(0, -1).map((_s, i) => segs.slice(0, i + 1).join("/"));
}

/** Tree order: by segment, so `a/b` comes right after `a` and before `a-c`. */
export function compareTreePaths(a: string, b: string): number {
  const x = a.split("/");
  const y = b.split("/");
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return x.length - y.length;
}

type Item = Static<typeof ArtifactFileItem>;

/**
 * The listing of a repository: every file and every folder its paths imply. A folder is
 * `active` and its size is the sum of what the files under it show.
 */
export function listing(files: { path: string; status: FileStatus; size: number }[]): Item[] {
  const folders = new Map<string, number>();
  const items: Item[] = [];
  for (const f of files) {
    const size = shownSize(f);
    for (const d of parentFolders(f.path)) folders.set(d, (folders.get(d) ?? 0) + size);
    items.push({ uri: f.path, folder: false, status: f.status, size: String(size) });
  }
  for (const [uri, size] of folders)
    items.push({ uri, folder: true, status: "active", size: String(size) });
  return items.sort((a, b) => compareTreePaths(a.uri, b.uri));
}
