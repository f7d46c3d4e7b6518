/**
 * Answers that did not come from the API: a redirect (an http:// address moved to https://,
 * a path without the API's prefix, a sign-in gateway) or an HTML page where JSON was
 * expected (a sign-in page, a proxy's notice). Read as an API answer, a 302 was an error
 * with the page as its message and a 200 page "did not fit" the list phctl expected; both
 * mean the address is not the API's, which is what the error now says, with the setting to
 * fix. Redirects are never followed: the token would go along.
 */
import type { ApiKind } from "./auth.js";
import type { WireResponse } from "./transport.js";

const setting = (api: ApiKind | undefined) =>
  api === "git"
    ? "PHCTL_GIT_API_URL (or --git-api-url) must be the delivery-metrics API's own address"
    : "PHCTL_API_URL (or --api-url) must be the API's own address";

/** Where a redirect points, without its query (which may carry anything). */
function target(location: string | string[] | undefined): string {
  const l = Array.isArray(location) ? location[0] : location;
  if (!l) return "an address it did not give";
  try {
    const u = new URL(l, "http://relative.invalid");
    return u.origin === "http://relative.invalid" ? u.pathname : `${u.origin}${u.pathname}`;
  } catch {
    return "an address that is not a URL";
  }
}

/** A page, not an answer: markup, labelled HTML or starting as a page. An empty body is not. */
function isHtml(a: WireResponse): boolean {
  if (typeof a.body !== "string" || !a.body.includes("<")) return false;
  const ct = a.headers["content-type"];
  const text = Array.isArray(ct) ? ct.join(",") : (ct ?? "");
  if (/json/i.test(text)) return false;
  return /html/i.test(text) || /^\s*<(!doctype html|html)[\s>]/i.test(a.body);
}

/** The page's title, if it has a short one (a hint such as "Sign in"). */
function title(body: unknown): string | undefined {
  if (typeof body !== "string") return undefined;
  const t = /<title[^>]*>([^<]{1,80})<\/title>/i.exec(body)?.[1]?.trim();
  return t ? t.replace(/\s+/g, " ") : undefined;
}

/**
 * Why this 2xx or 3xx answer is not the API's, as the error message; undefined when it may
 * be (JSON, or an empty body, or a status the client handles elsewhere).
 */
export function foreignAnswer(a: WireResponse, api: ApiKind | undefined): string | undefined {
  if (a.status >= 300 && a.status < 400)
    return `the service redirected to ${target(a.headers.location)}; phctl does not follow redirects (the token would go along): ${setting(api)} — check http:// against https:// and the path prefix`;
  if (a.status >= 200 && a.status < 300 && isHtml(a)) {
    const t = title(a.body);
    return `the service answered an HTML page${t ? ` ("${t}")` : ""}, not JSON — a sign-in page or a proxy between phctl and the API: ${setting(api)}`;
  }
  return undefined;
}
