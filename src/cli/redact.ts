/**
 * Scrub secrets from anything phctl prints: the tokens it knows (PHCTL_TOKEN,
 * PHCTL_GIT_TOKEN, tokens registered at runtime) and anything that looks like an
 * Authorization or PRIVATE-TOKEN header value.
 */
const secrets = new Set<string>();

/** Register a secret so it is replaced wherever it would be printed. */
export function registerSecret(s: string | undefined): void {
  if (s && s.length >= 4) secrets.add(s);
}

export function redact(text: string): string {
  let out = text;
  for (const env of ["PHCTL_TOKEN", "PHCTL_GIT_TOKEN"]) registerSecret(process.env[env]);
  for (const s of secrets) out = out.split(s).join("***");
  return out
    .replace(/(authorization["']?\s*[:=]\s*["']?bearer\s+)[^\s"',}]+/gi, "$1***")
    .replace(/(private-token["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, "$1***");
}
