/**
 * The list answers the platform clients rely on, checked before use. A list of comments or
 * issues that is not one — an HTML page from a proxy, an error object answered 200, a URL
 * that points at the web UI instead of the API — must never read as "no comments": the
 * marker would not be found and a second comment (or issue) would be posted on every run.
 */
import { userError } from "../errors.js";

const describe = (v: unknown): string =>
  v === null
    ? "null"
    : Array.isArray(v)
      ? "a list"
      : typeof v === "object"
        ? `an object with ${Object.keys(v).slice(0, 5).join(", ") || "no fields"}`
        : typeof v === "string"
          ? `text (${JSON.stringify(v.slice(0, 40))}${v.length > 40 ? "…" : ""})`
          : typeof v;

/** Items of a list answer, each checked; else an error naming the call and the URL setting. */
export function itemsOf<T>(
  data: unknown,
  o: { what: string; setting: string; fits: (x: unknown) => x is T },
): T[] {
  const bad = (got: string) =>
    userError(
      "PLATFORM_SHAPE",
      `the answer to ${o.what} is not what the platform's API answers (${got}): check that ${o.setting} is the API's base URL; nothing was posted`,
    );
  if (!Array.isArray(data)) throw bad(`got ${describe(data)}`);
  const wrong = data.findIndex((x) => !o.fits(x));
  if (wrong >= 0) throw bad(`item ${wrong} is ${describe(data[wrong])}`);
  return data as T[];
}

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/** `{id: number, body: string|null}`: a comment (GitHub) or a note (GitLab). */
export const isComment = (x: unknown): x is { id: number; body: string | null } =>
  isObject(x) && typeof x.id === "number" && (typeof x.body === "string" || x.body === null);

/** An issue, pull or merge request numbered by `field` (`number` on GitHub, `iid` on GitLab), with the text fields given. */
export const isNumbered =
  (field: "number" | "iid", ...texts: string[]) =>
  (x: unknown): x is Record<string, unknown> =>
    isObject(x) && typeof x[field] === "number" && texts.every((t) => typeof x[t] === "string");

/**
 * The commit or tree SHA at `path` of an answer (`["object", "sha"]`); an error naming the
 * call and the URL setting when there is none — a branch is never pointed at `undefined`.
 */
export function shaAt(
  data: unknown,
  path: readonly string[],
  o: { what: string; setting: string },
): string {
  let v: unknown = data;
  for (const k of path) v = isObject(v) ? v[k] : undefined;
  if (typeof v === "string" && /^[0-9a-f]{40}$/.test(v)) return v;
  throw userError(
    "PLATFORM_SHAPE",
    `the answer to ${o.what} has no ${path.join(".")} (got ${describe(v)}): check that ${o.setting} is the API's base URL; nothing was sent after it`,
  );
}
