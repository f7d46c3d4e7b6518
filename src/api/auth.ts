/**
 * Credentials and where they go: `Authorization: Bearer` for the administration API,
 * `PRIVATE-TOKEN` for the delivery-metrics API. Tokens live in private fields, so printing,
 * logging or JSON-serialising the client or an error never shows them.
 */
import { userError } from "../errors.js";

/** Which API a route belongs to (its `auth: "gitToken"` routes are the delivery-metrics API). */
export type ApiKind = "admin" | "git";

/** A base URL split for undici: origin and path prefix (no trailing slash). */
export interface Base {
  origin: string;
  prefix: string;
}

export function parseBase(url: string, flag: string): Base {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw userError("BAD_URL", `${flag} ${url} is not a URL`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw userError("BAD_URL", `${flag} ${url} must be http:// or https://`);
  if (u.username || u.password)
    throw userError("BAD_URL", `${flag} must not carry credentials; use the token settings`);
  return { origin: u.origin, prefix: u.pathname.replace(/\/+$/, "") };
}

export class Credentials {
  readonly #token: string;
  readonly #gitToken: string | undefined;

  constructor(token: string, gitToken: string | undefined) {
    this.#token = token;
    this.#gitToken = gitToken;
  }

  /** The auth header of a request to `api`. Throws a user error when the git token is missing. */
  headers(api: ApiKind): Record<string, string> {
    if (api === "git") {
      if (!this.#gitToken)
        throw userError(
          "NO_GIT_TOKEN",
          "the delivery-metrics API needs a token: set PHCTL_GIT_TOKEN (and --git-api-url)",
        );
      return { "private-token": this.#gitToken };
    }
    return { authorization: `Bearer ${this.#token}` };
  }

  /** The secrets, for a scrubber that must never print them. */
  secrets(): string[] {
    return [this.#token, ...(this.#gitToken ? [this.#gitToken] : [])];
  }

  toJSON(): string {
    return "[credentials]";
  }
}
