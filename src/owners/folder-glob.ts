/**
 * A folder of phctl.yaml's `owners.folders` as a matcher of config-relative file paths, with
 * the meaning CODEOWNERS gives the same pattern under the config's directory: `*` within one
 * path step, `**` across steps, a trailing `/` for the folder and everything under it.
 */

/** `projects/tf-*` → a RegExp source (anchored by the caller). */
function globSource(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      out += ".*";
      i++;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return out;
}

/** The folder path as written, without `./` or a leading `/`. */
export const folderPath = (path: string): string =>
  path.replace(/^(\.\/)+/, "").replace(/^\/+/, "");

/** Does the folder `path` hold the config-relative file `file`? */
export function folderMatcher(path: string): (file: string) => boolean {
  const p = folderPath(path);
  const src = p.endsWith("/") ? `^${globSource(p)}.*$` : `^${globSource(p)}(/.*)?$`;
  const re = new RegExp(src);
  return (file) => re.test(file);
}
