/**
 * The one redactor: every output and every file phctl writes goes through it. It masks
 *
 * - the credentials phctl knows (registered): PHCTL_TOKEN, PHCTL_GIT_TOKEN, GITHUB_TOKEN,
 *   PHCTL_GITLAB_TOKEN, GITLAB_TOKEN, the `--token-file`'s token, the embedded server's
 *   token, webhook URLs — each replaced by `***`, as they are and in the forms they take
 *   inside a URL (percent-encoded) or a JSON string (escaped);
 * - the well-known token shapes, wherever they come from (a token pasted into a live value):
 *   GitHub `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_` + 36 or more base62 characters and
 *   `github_pat_` + 22 or more, GitLab `glpat-` + 20 or more, the reference server's
 *   development token `phdev_` + 36 hex digits — the prefix kept (`ghp_***`), so a reader
 *   sees what was there;
 * - the value of an `Authorization: Bearer …` or `PRIVATE-TOKEN: …` header.
 *
 * A token is found by its own shape wherever it starts: glued to a word (`TOKEN_ghp_…`),
 * after a URL-encoded `=` (`token%3Dghp_…`), or after a newline that JSON text writes as
 * `\n`. The prefixes are distinctive enough that no boundary is needed before them, and each
 * pattern is a literal then one character class repeated (nothing to backtrack into):
 * linear in the text (bench/redact.ts).
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

// No boundary before a shape: what comes before a token (a letter, `%3D`, the `n` of an
// escaped newline) does not make it less of a token. A GitHub body stops before the prefix
// of a token glued after it (a real body cannot hold one: each prefix has a `_` or `-` that
// the body's characters exclude), so that the next token is masked too rather than its body
// shown; a PAT body takes `_`, so it stops only before `glpat-`. A GitLab body takes every
// character of a token after it: both are masked as one (`glpat-******`).
// A body is written `C{n}C*`, not `C{n,}`: V8 runs `C*` as a loop that keeps no backtrack
// entry per character, where `{n,}` overflows its stack on a run of a few million.
const GITHUB_BODY = "(?:(?!gh[pousr]_|github_pat_|glpat-|phdev_)[A-Za-z0-9])";
const GITHUB = new RegExp(`(gh[pousr]_)${GITHUB_BODY}{36}${GITHUB_BODY}*`, "g");
const PAT_BODY = "(?:(?!glpat-)[A-Za-z0-9_])";
const GITHUB_PAT = new RegExp(`github_pat_${PAT_BODY}{22}${PAT_BODY}*`, "g");
const GITLAB = /glpat-([A-Za-z0-9_-]{20}[A-Za-z0-9_-]*)/g;
/** The reference server's development token (`phctl serve` prints one). */
const SERVICE = /phdev_[0-9a-f]{36}[0-9a-f]*/g;
const BEARER = /(authorization["']?\s*[:=]\s*["']?bearer\s+)[^\s"',}]+/gi;
const PRIVATE_TOKEN = /(private-token["']?\s*[:=]\s*["']?)[^\s"',}]+/gi;

/** The mask of a registered secret. */
export const MASK = "***";

/**
 * A GitLab token's body is random: one that reads like a slug (lower-case words joined by
 * '-': `glpat-migration-tools-2024`) is a name, not a token, and is left alone. A scan, not
 * a regular expression: a body can be megabytes long, and a backtracking match over it once
 * overflowed V8's regexp stack in a long-lived process (the test suite's), where a mask must
 * never throw.
 */
function slugLike(body: string): boolean {
  let dashes = 0;
  let previous = 45; // '-': a slug neither starts nor ends with one, nor holds two in a row
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c === 45) {
      if (previous === 45) return false;
      dashes++;
    } else if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) return false;
    previous = c;
  }
  return dashes > 0 && previous !== 45;
}

/**
 * Register a secret so it is masked wherever it would be printed or written: as it is and
 * as a URL or a JSON string writes it.
 */
export function registerSecret(s: string | undefined): void {
  const v = s?.trim();
  if (!v || v.length < 4 || secrets.has(v)) return;
  for (const f of forms(v)) secrets.add(f);
  known = undefined;
}

/**
 * `secret` as it is and as text that carries it writes it: percent-encoded (upper- and
 * lower-case hex, and as a form value), JSON-escaped (with `/` escaped too, as some writers
 * do).
 */
function forms(secret: string): string[] {
  const url = encodeURIComponent(secret);
  const json = JSON.stringify(secret).slice(1, -1);
  return [
    secret,
    url,
    url.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    new URLSearchParams({ s: secret }).toString().slice(2),
    json,
    json.replaceAll("/", "\\/"),
  ];
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
const HINT = /gh[pousr]_|github_pat_|glpat-|phdev_|authorization|private-token/i;

/** `text` with every known credential, token shape and auth header value masked. */
export function redact(text: string): string {
  if (text.length < 4) return text;
  const mine = knownPattern();
  const out = mine ? text.replace(mine, MASK) : text;
  if (!HINT.test(out)) return out;
  return out
    .replace(GITHUB_PAT, `github_pat_${MASK}`) // before GITHUB: a PAT's body may hold `ghs_…`
    .replace(GITHUB, `$1${MASK}`)
    .replace(GITLAB, (all, body: string) => (slugLike(body) ? all : `glpat-${MASK}`))
    .replace(SERVICE, `phdev_${MASK}`)
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

/** The first match of each shape (`GITHUB` etc. are global: stateful with `exec`). */
const FIRST = {
  github: new RegExp(GITHUB.source),
  pat: new RegExp(GITHUB_PAT.source),
  service: new RegExp(SERVICE.source),
};
/** A shape's mask (what an output shows): a value holding one was a token once. */
const MASKED = /(gh[pousr]_|github_pat_|glpat-|phdev_)\*\*\*/;
const maskedName = (prefix: string) =>
  prefix === "glpat-"
    ? "a masked GitLab token"
    : prefix === "phdev_"
      ? "a masked token of the service"
      : "a masked GitHub token";

/**
 * What kind of credential `text` holds, for a warning that names it without showing it
 * ("a GitHub token (ghp_…)"); undefined when it holds none. It looks for what `redact`
 * masks — the shapes wherever they start, the registered credentials in any form — and for
 * a shape's mask (`ghp_***`): a value that holds one must not be copied into a manifest
 * either (applied, the mask would replace what it stands for).
 */
export function credentialIn(text: string): string | undefined {
  if (HINT.test(text)) {
    const github = FIRST.github.exec(text);
    if (github) return `a GitHub token (${github[1]}…)`;
    if (FIRST.pat.test(text)) return "a GitHub token (github_pat_…)";
    for (const m of text.matchAll(GITLAB)) if (!slugLike(m[1])) return "a GitLab token (glpat-…)";
    if (FIRST.service.test(text)) return "a token of the service (phdev_…)";
    const masked = MASKED.exec(text);
    if (masked) return `${maskedName(masked[1])} (${masked[1]}${MASK})`;
  }
  const mine = knownPattern();
  if (mine && text.search(mine) >= 0) return "a token phctl is using";
  return undefined;
}

/**
 * Can `text` hold anything `credentialIn` finds? False means certainly not: no shape's
 * prefix, no shape's mask, no registered credential. One test of a whole document's JSON text
 * (`credentialIn` finds in a string what this finds in the JSON text that holds it: shapes
 * and masks are letters, digits, `_`, `-` and `*`, which JSON writes as they are, and a
 * registered credential is also known as JSON writes it) instead of one per string: what a
 * manifest rule runs over every document of every load (the credential rule).
 */
export function mayHoldCredential(text: string): boolean {
  if (HINT.test(text)) return true;
  const mine = knownPattern();
  return mine !== undefined && text.search(mine) >= 0;
}

/** Bytes written as text: redacted when they hold a secret, else left as they are. */
function redactBytes(chunk: unknown): unknown {
  if (!(chunk instanceof Uint8Array)) return chunk;
  const text = Buffer.from(chunk).toString("utf8");
  const out = redact(text);
  return out === text ? chunk : out;
}

type Write = (chunk: unknown, ...rest: unknown[]) => boolean;
/** Each guarded stream's own write (what `writeUnmasked` goes through). */
const guarded = new WeakMap<NodeJS.WriteStream, Write>();

/**
 * Make every string (or UTF-8 buffer) written to `stream` go through `redact`: a token can
 * reach no terminal or CI log, whichever code prints it. A token split across two writes is
 * not seen; phctl writes whole lines.
 */
export function guardOutput(stream: NodeJS.WriteStream): void {
  if (guarded.has(stream)) return;
  const write = stream.write.bind(stream) as Write;
  guarded.set(stream, write);
  stream.write = (chunk: unknown, ...rest: unknown[]) =>
    write(typeof chunk === "string" ? redact(chunk) : redactBytes(chunk), ...rest);
}

/**
 * Write `text` past the guard, as it is: only for the one credential phctl shows on purpose,
 * the development token `phctl serve` makes for whoever started it (its shape, `phdev_…`,
 * is masked everywhere else).
 */
export function writeUnmasked(stream: NodeJS.WriteStream, text: string): void {
  (guarded.get(stream) ?? (stream.write.bind(stream) as Write))(text);
}
