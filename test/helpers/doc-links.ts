/**
 * What the documents of the repository may point at: only files inside it that exist. A
 * user reads the README on GitHub, on the npm registry or in an adopting repository's copy,
 * and src/server/SPEC.md beside the code; a link to a file the repository does not hold is
 * dead in every one of them. The rules, per line of a markdown file:
 *
 * 1. anywhere, fenced code included: no mention of `../shared` nor of the design documents
 *    kept outside the repository (`API-SPEC.md`, `DESIGN.md`, `STYLE.md`);
 * 2. outside fenced code: every link target `](target)` and reference definition
 *    `[label]: target` that is not a URL (`https:`, `mailto:` …) nor a bare `#anchor` must
 *    resolve, from the file's directory, to a file or directory inside the repository; a
 *    `#anchor` on a markdown file must name one of its headings (GitHub's slugs);
 * 3. outside fenced code: an inline code span of one word that is a path starting with
 *    `../`, or with a top-level directory or file of the repository (`src/…`,
 *    `schemas/…`), must exist too — except under `dist/` (built, not committed) and
 *    illustrative paths with a placeholder (`<`, `{`, `*`, `…`).
 *
 * Illustrative paths inside fenced code blocks (`config/phctl.yaml`, `../main`) are examples
 * of a user's files, not references, and are left alone.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

/** One broken reference: where, and what is wrong with it. */
export interface LinkProblem {
  /** `file:line`, the file relative to the repository root. */
  readonly at: string;
  readonly message: string;
}

const OUTSIDE_DOCS = /\.\.\/shared\b|\b(API-SPEC|DESIGN|STYLE)\.md\b/;
const FENCE = /^\s*(```|~~~)/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const INLINE_LINK = /\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g;
const REFERENCE_DEF = /^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(\s|$)/;
const CODE_SPAN = /`([^`\s]+)`/g;
const PLACEHOLDER = /[<>{}*…$]/;
/** Built or installed, never committed: a path under them is not expected to exist. */
const NOT_COMMITTED = new Set(["dist", "node_modules", "coverage"]);

/** Every markdown file the repository holds for readers: all but tests, builds and dot-dirs. */
export function shippedMarkdown(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith(".") || NOT_COMMITTED.has(e.name)) continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        // Tests' markdown is fixtures and golden output, not documentation.
        if (relative(root, p) !== "test") walk(p);
      } else if (e.name.endsWith(".md")) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces → `-`. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a markdown file's headings (a repeated heading gets `-1`, `-2` …). */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence = false;
  for (const line of text.split("\n")) {
    if (FENCE.test(line)) fence = !fence;
    const m = !fence && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const slug = slugOf(m[1]);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

const inside = (root: string, p: string) => p === root || p.startsWith(root + sep);

/** Problems of one link target (rule 2), or undefined when it is fine. */
function checkTarget(root: string, file: string, target: string): string | undefined {
  if (SCHEME.test(target) || target.startsWith("#")) return undefined;
  const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
  const path = decodeURIComponent(pathPart.split("?")[0]);
  const abs = path.startsWith("/") ? join(root, path) : resolve(dirname(file), path);
  if (!inside(root, abs)) return `${target} leaves the repository`;
  if (!existsSync(abs)) return `${target} does not exist`;
  if (anchor && abs.endsWith(".md") && statSync(abs).isFile()) {
    if (!anchorsOf(readFileSync(abs, "utf8")).has(anchor))
      return `${target}: ${relative(root, abs)} has no heading #${anchor}`;
  }
  return undefined;
}

/** Problems of one inline code span (rule 3), or undefined when it is no path or fine. */
function checkCodePath(root: string, file: string, span: string, top: Set<string>) {
  if (PLACEHOLDER.test(span) || SCHEME.test(span)) return undefined;
  const path = span.replace(/[:#].*$/, "");
  if (path.startsWith("../")) {
    const abs = resolve(dirname(file), path);
    if (!inside(root, abs)) return `\`${span}\` leaves the repository`;
    return existsSync(abs) ? undefined : `\`${span}\` does not exist`;
  }
  const first = path.split("/")[0];
  if (!path.includes("/") || !top.has(first) || NOT_COMMITTED.has(first)) return undefined;
  return existsSync(join(root, path)) ? undefined : `\`${span}\` does not exist`;
}

/** Every broken reference of one markdown text (rules 1-3). */
export function checkMarkdown(root: string, file: string, text: string): LinkProblem[] {
  const top = new Set(readdirSync(root).filter((n) => !n.startsWith(".")));
  const problems: LinkProblem[] = [];
  const name = relative(root, file);
  let fence = false;
  text.split("\n").forEach((line, i) => {
    const at = `${name}:${i + 1}`;
    const outside = OUTSIDE_DOCS.exec(line);
    if (outside)
      problems.push({ at, message: `mentions ${outside[0]}, which is not in the repository` });
    if (FENCE.test(line)) {
      fence = !fence;
      return;
    }
    if (fence) return;
    const prose = line.replace(/`[^`]*`/g, "``");
    const targets = [...prose.matchAll(INLINE_LINK)].map((m) => m[1]);
    const def = REFERENCE_DEF.exec(prose);
    if (def) targets.push(def[1]);
    for (const t of targets) {
      const message = checkTarget(root, file, t);
      if (message) problems.push({ at, message });
    }
    for (const m of line.matchAll(CODE_SPAN)) {
      const message = checkCodePath(root, file, m[1], top);
      if (message) problems.push({ at, message });
    }
  });
  return problems;
}
