/**
 * `phctl render`'s files: the effective config, flat (as `kustomize build` writes one). One
 * output file per source file, at the same path below the config's root, holding that file's
 * objects in their order with every layer merged in: no Defaults documents (a file that held
 * only those is not written), no tombstones, no `inherit` keys. phctl.yaml is copied as it is.
 * A plan of the output equals a plan of the layered config (test/layers/render-round-trip).
 * Pure: documents in, texts out.
 */
import type { ValidDoc } from "../manifest/check.js";
import { renderDocument } from "../export/yaml.js";
import type { ExportDocument } from "../export/documents.js";
import { escapeYamlText } from "../export/yaml-escape.js";

/** A file to write, `path` relative to the output directory (`/`-separated). */
export interface RenderedFile {
  path: string;
  text: string;
}

/** The deepest directory holding every one of `files` (`/`-separated; "" for the current one). */
export function commonRoot(files: readonly string[]): string {
  let root: string[] | undefined;
  for (const f of files) {
    const dir = f.split("/").slice(0, -1);
    if (!root) root = dir;
    else {
      let n = 0;
      while (n < root.length && n < dir.length && root[n] === dir[n]) n++;
      root = root.slice(0, n);
    }
  }
  return (root ?? []).join("/");
}

const below = (root: string, file: string) => (root ? file.slice(root.length + 1) : file);

/**
 * The rendered files of a loaded config: `docs` the effective documents (LayersResult.docs),
 * `config` phctl.yaml's path and text when there is one.
 */
export function renderFiles(
  docs: readonly ValidDoc[],
  config?: { file: string; text: string },
): RenderedFile[] {
  const byFile = new Map<string, ValidDoc[]>();
  for (const d of docs) {
    if (d.kind === "Defaults") continue;
    const list = byFile.get(d.handle.file);
    if (list) list.push(d);
    else byFile.set(d.handle.file, [d]);
  }
  const root = commonRoot([...byFile.keys(), ...(config ? [config.file] : [])]);
  const out: RenderedFile[] = [];
  if (config) out.push({ path: below(root, config.file), text: config.text });
  for (const [file, list] of byFile) {
    const head = `# Rendered by phctl render from ${file}: every value effective, the Defaults layers merged in. Edit the source, not this file.\n`;
    const body = list
      .sort((a, b) => a.handle.start.line - b.handle.start.line)
      .map((d) =>
        renderDocument({
          kind: d.kind as ExportDocument["kind"],
          name: d.name,
          value: d.value,
          comments: [],
        }),
      )
      .join("---\n");
    out.push({ path: below(root, file), text: escapeYamlText(`${head}${body}`) });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
