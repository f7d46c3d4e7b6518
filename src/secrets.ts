/**
 * The one redactor: every output and every file phctl writes goes through it. It masks
 *
 * - the credentials phctl knows (registered): PHCTL_TOKEN, PHCTL_GIT_TOKEN, GITHUB_TOKEN,
 *   PHCTL_GITLAB_TOKEN, GITLAB_TOKEN, the `--token-file`'s token, the embedded server's
 *   token, webhook URLs — each replaced by `***`;
 * - the well-known token shapes, wherever they come from (a token pasted into a live value):
 *   GitHub `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_` + 36 or more base62 characters and
 *   `github_pat_` + 22 or more, GitLab `glpat-` + 20 or more — the prefix kept (`ghp_***`),
 *   so a reader sees what was there;
 * - the value of an `Authorization: Bearer …` or `PRIVATE-TOKEN: …` header.
 *
 * A masked value is always visibly masked, never dropped. Text (`redact`) is for streams
 * and text files; structured data (`redactValue`) is masked value by value before it is
 * serialised, so that JSON and YAML stay well-formed and a long value cut by a renderer
 * (`ghp_abc…`) cannot show part of a token. `guardOutput` makes every write to stdout and
 * stderr go through `redact`, whichever code writes.
 *
 * Masking is for outputs only: the engine plans and applies the real values (a desired
 * value comes from the manifests, never from a masked plan).
 */

const secrets = new Set<string>();
/** The registered secrets as one pattern (longest first), rebuilt when one is added. */
let known: RegExp | undefined;

/** Where the token shapes may start: not inside a longer word. */
const EDGE = "(?<![A-Za-z0-9_])";
const GITHUB = new RegExp(`${EDGE}(gh[pousr]_)[A-Za-z0-9]{36,}`, "g");
const GITHUB_PAT = new RegExp(`${EDGE}github_pat_[A-Za-z0-9_]{22,}`, "g");
const GITLAB = new RegExp(`${EDGE}glpat-([A-Za-z0-9_-]{20,})`, "g");
const BEARER = /(authorization["']?\s*[:=]\s*["']?bearer\s+)[^\s"',}]+/gi;
const PRIVATE_TOKEN = /(private-token["']?\s*[:=]\s*["']?)[^\s"',}]+/gi;

/** The mask of a registered secret. */
export const MASK = "***";

/**
 * A GitLab token's body is random: one that reads like a slug (lower-case words joined by
 * '-': `glpat-migration-tools-2024`) is a name, not a token, and is left alone.
 */
const slugLike = (body: string) => /^[a-z0-9]+(-[a-z0-9]+)+$/.test(body);

/** Register a secret so it is masked wherever it would be printed or written. */
export function registerSecret(s: string | undefined): void {
  const v = s?.trim();
  if (!v || v.length < 4 || secrets.has(v)) return;
  secrets.add(v);
  known = undefined;
}

/** The environment variables that hold credentials phctl reads. */
export const TOKEN_VARIABLES = [
  "PHCTL_TOKEN",
  "PHCTL_GIT_TOKEN",
  "GITHUB_TOKEN",
  "PHCTL_GITLAB_TOKEN",
  "GITLAB_TOKEN",
] as const;

/** Register every credential the environment holds (at start-up, for every command). */
export function registerEnvironmentSecrets(env: NodeJS.ProcessEnv = process.env): void {
  for (const v of TOKEN_VARIABLES) registerSecret(env[v]);
}

function knownPattern(): RegExp | undefined {
  if (secrets.size === 0) return undefined;
  known ??= new RegExp(
    [...secrets]
      .sort((a, b) => b.length - a.length)
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("|"),
    "g",
  );
  return known;
}

/** What each shape and header starts with: text without any of them skips their patterns. */
const HINT = /gh[pousr]_|github_pat_|glpat-|authorization|private-token/i;

/** `text` with every known credential, token shape and auth header value masked. */
export function redact(text: string): string {
  if (text.length < 4) return text;
  const mine = knownPattern();
  const out = mine ? text.replace(mine, MASK) : text;
  if (!HINT.test(out)) return out;
  return out
    .replace(GITHUB, `$1${MASK}`)
    .replace(GITHUB_PAT, `github_pat_${MASK}`)
    .replace(GITLAB, (all, body: string) => (slugLike(body) ? all : `glpat-${MASK}`))
    .replace(BEARER, `$1${MASK}`)
    .replace(PRIVATE_TOKEN, `$1${MASK}`);
}

/** Does `text` hold anything `redact` masks? */
export const holdsSecret = (text: string): boolean => redact(text) !== text;

/**
 * `value` with every string in it (object keys included) redacted: plain JSON-like data
 * (objects, arrays, scalars); other objects are kept as they are. What holds nothing to
 * mask is returned as it is (the same object), never changed in place.
 */
export function redactValue<T>(value: T): T {
  return mask(value) as T;
}

function mask(v: unknown): unknown {
  if (typeof v === "string") return redact(v);
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const m = mask(v[i]);
      if (m !== v[i]) (out ??= [...v])[i] = m;
    }
    return out ?? v;
  }
  if (v === null || typeof v !== "object" || Object.getPrototypeOf(v) !== Object.prototype)
    return v;
  const entries = Object.entries(v);
  let changed = false;
  const masked = entries.map(([k, x]): [string, unknown] => {
    const mk = redact(k);
    const mx = mask(x);
    if (mk !== k || mx !== x) changed = true;
    return [mk, mx];
  });
  return changed ? Object.fromEntries(masked) : v;
}

/** Does any string in `value` hold something `redact` masks? */
export function valueHoldsSecret(value: unknown): boolean {
  if (typeof value === "string") return holdsSecret(value);
  if (Array.isArray(value)) return value.some(valueHoldsSecret);
  if (value === null || typeof value !== "object") return false;
  return Object.entries(value).some(([k, x]) => holdsSecret(k) || valueHoldsSecret(x));
}

/**
 * What kind of credential `text` holds, for a warning that names it without showing it
 * ("a GitHub token (ghp_…)"); undefined when it holds none.
 */
export function credentialIn(text: string): string | undefined {
  const github = new RegExp(GITHUB.source).exec(text);
  if (github) return `a GitHub token (${github[1]}…)`;
  if (new RegExp(GITHUB_PAT.source).test(text)) return "a GitHub token (github_pat_…)";
  for (const m of text.matchAll(GITLAB)) if (!slugLike(m[1])) return "a GitLab token (glpat-…)";
  const mine = knownPattern();
  if (mine && new RegExp(mine.source).test(text)) return "a token phctl is using";
  return undefined;
}

/** Bytes written as text: redacted when they hold a secret, else left as they are. */
function redactBytes(chunk: unknown): unknown {
  if (!(chunk instanceof Uint8Array)) return chunk;
  const text = Buffer.from(chunk).toString("utf8");
  const out = redact(text);
  return out === text ? chunk : out;
}

const guarded = new WeakSet<NodeJS.WriteStream>();

/**
 * Make every string (or UTF-8 buffer) written to `stream` go through `redact`: a token can
 * reach no terminal or CI log, whichever code prints it. A token split across two writes is
 * not seen; phctl writes whole lines.
 */
export function guardOutput(stream: NodeJS.WriteStream): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  stream.write = (chunk: unknown, ...rest: unknown[]) =>
    write(typeof chunk === "string" ? redact(chunk) : redactBytes(chunk), ...rest);
}
