/**
 * Which methods a path has, for `405 Method Not Allowed` with an `Allow` header: a request
 * whose path is one the server serves, with a method it does not serve there, is 405; a
 * path the server does not serve at all stays 404. Every route fastify registers (the API,
 * /_control, /openapi.*) is recorded through the `onRoute` hook, so the answer always
 * matches what is registered. Path parameters must fit their declared type (an integer
 * id, an enumerated level), as they must for the route itself to answer.
 */
import type { FastifyInstance } from "fastify";
import type { RouteDef } from "../api/route-def.js";

interface KnownRoute {
  method: string;
  regex: RegExp;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A regex of a fastify path (`:name` one segment, `*` the rest), with the def's param types. */
function compile(url: string, def: RouteDef | undefined): RegExp {
  const source = url
    .split("/")
    .map((seg) => {
      if (seg === "*") return ".*";
      if (!seg.startsWith(":")) return escape(seg);
      const name = seg.slice(1);
      if (def?.intParams?.includes(name)) return "\\d+";
      const values = def?.paramEnums?.[name];
      return values ? `(?:${values.map(escape).join("|")})` : "[^/]+";
    })
    .join("/");
  return new RegExp(`^${source}$`);
}

export class AllowedMethods {
  private readonly routes: KnownRoute[] = [];

  /** Record every route registered on `app` from now on (call before registering any). */
  collect(app: FastifyInstance): void {
    app.addHook("onRoute", (r) => {
      const methods = Array.isArray(r.method) ? r.method : [r.method];
      const def = (r.config as { def?: RouteDef } | undefined)?.def;
      const regex = compile(r.url ?? r.path, def);
      for (const m of methods) this.routes.push({ method: m.toUpperCase(), regex });
    });
  }

  /** The methods served at `path` (decoded, without query), sorted; empty when none. */
  at(path: string): string[] {
    const found = new Set<string>();
    for (const r of this.routes) if (r.regex.test(path)) found.add(r.method);
    // fastify answers HEAD wherever it answers GET.
    if (found.has("GET")) found.add("HEAD");
    return [...found].sort();
  }
}
