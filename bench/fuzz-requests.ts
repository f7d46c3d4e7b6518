/**
 * The fuzz benchmark's requests (bench/fuzz.ts), from a seeded generator so a run can be
 * replayed. Four families:
 *
 * - `lifecycle`: creates and deletes of groups, subgroups, repositories, mirrors and artifact
 *   repositories in two parent organizations' projects, one at a time per project, their
 *   answers recorded in the id ledger (an id handed out twice is found there);
 * - `deep`: JSON nested 65 to 500,000 levels, bare or in a field, to every operation that
 *   takes a body (issue 34, defect 5: 500 at 10,000 levels);
 * - `malformed`: bodies and paths that are wrong in one way — invalid or truncated JSON,
 *   bytes that are not UTF-8, another charset or content type, an empty body, a large
 *   string, a lone surrogate, `__proto__`, huge numbers, paths that do not decode, path
 *   parameters over 100 characters, long URLs, unknown paths, methods a path lacks;
 * - `random`: any operation of the route table with random path parameters, query and
 *   body (right and wrong types), as one of the tokens or none.
 *
 * The random and malformed requests aim at other projects than the lifecycle's, so the
 * ledger sees every change to the objects it follows.
 */
import { operations } from "../src/api/routes.js";
import type { RouteDef } from "../src/api/route-def.js";
import { prng } from "../src/server/faults.js";
import type { IdLedger } from "./fuzz-ledger.js";

export type Family = "lifecycle" | "deep" | "malformed" | "random";
export const FAMILIES: readonly Family[] = ["lifecycle", "deep", "malformed", "random"];

export interface FuzzRequest {
  family: Family;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Told the answer (status and parsed body, if JSON); lifecycle requests learn ids. */
  answered?: (status: number, body: unknown) => void;
}

/** One parent organization of the fuzz server: its token and projects. */
export interface FuzzTenant {
  name: string;
  token: string;
  /** Projects only the lifecycle touches. */
  lifecycle: string[];
  /** Projects the random and malformed requests aim at. */
  targets: string[];
}

/** The tenants the fuzz server is started with (tokens and seeded projects). */
export function fuzzTenants(): FuzzTenant[] {
  return ["acme", "globex"].map((name) => ({
    name,
    token: `fuzz-${name}-token`,
    lifecycle: [0, 1, 2, 3].map((i) => `${name}-life-${i}`),
    targets: [0, 1, 2].map((i) => `${name}-target-${i}`),
  }));
}

/** Deep JSON: `depth` levels of arrays, objects or both. */
export function deepJson(depth: number, kind: "array" | "object" | "mixed"): string {
  if (kind === "array") return "[".repeat(depth) + "1" + "]".repeat(depth);
  if (kind === "object") return '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
  const half = Math.floor(depth / 2);
  return '{"a":['.repeat(half) + "1" + "]}".repeat(half);
}

const DEEP_DEPTHS = [65, 100, 1_000, 10_000, 10_000, 50_000, 100_000, 500_000];
const WEIRD_INTS = ["0", "-1", "1e3", "0x10", "1.5", "99999999999999999999", "NaN", "abc", "%20"];
const WEIRD_STRINGS = [
  "",
  " ",
  "..",
  "%",
  "%zz",
  "%c3%28",
  "a".repeat(101),
  "é",
  "\u{1F600}",
  "a/b",
  "<script>",
  "' OR 1=1 --",
];

const bodyOps = operations.filter(([, d]) => d.body !== undefined);

export class FuzzPlan {
  private readonly random: () => number;
  private readonly busy = new Set<string>();
  private n = 0;

  constructor(
    seed: number,
    private readonly tenants: FuzzTenant[],
    private readonly ledger: IdLedger,
    /** Share of each family (weights; default 3 : 1 : 2 : 4). */
    private readonly weights: Record<Family, number> = {
      lifecycle: 3,
      deep: 1,
      malformed: 2,
      random: 4,
    },
  ) {
    this.random = prng(seed);
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.random() * xs.length)];
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  private auth(t: FuzzTenant, json = true): Record<string, string> {
    return {
      authorization: `Bearer ${t.token}`,
      ...(json ? { "content-type": "application/json" } : {}),
    };
  }

  /** The next request. */
  next(): FuzzRequest {
    this.n++;
    const total = FAMILIES.reduce((a, f) => a + this.weights[f], 0);
    let r = this.random() * total;
    for (const f of FAMILIES) {
      r -= this.weights[f];
      if (r < 0) return this.of(f);
    }
    return this.of("random");
  }

  private of(f: Family): FuzzRequest {
    if (f === "lifecycle") return this.lifecycle() ?? this.randomOperation();
    if (f === "deep") return this.deep();
    if (f === "malformed") return this.malformed();
    return this.randomOperation();
  }

  // --- lifecycle: ids followed in the ledger -------------------------------------------

  private lifecycle(): FuzzRequest | undefined {
    const free = this.tenants.flatMap((t) =>
      t.lifecycle.filter((p) => !this.busy.has(p)).map((p) => ({ t, p })),
    );
    if (free.length === 0) return undefined;
    const { t, p } = this.pick(free);
    this.busy.add(p);
    const req = this.lifecycleStep(t, p);
    const answered = req.answered;
    return {
      ...req,
      family: "lifecycle",
      answered: (status, body) => {
        this.busy.delete(p);
        answered?.(status, body);
      },
    };
  }

  private lifecycleStep(t: FuzzTenant, p: string): FuzzRequest {
    const L = this.ledger;
    const base = `/v1/projects/${p}`;
    const ok = (s: number) => s >= 200 && s < 300;
    const body = (b: unknown) => JSON.stringify(b);
    const req = (
      method: string,
      path: string,
      b: unknown,
      answered: (status: number, body: any) => void,
    ): FuzzRequest => ({
      family: "lifecycle",
      method,
      path,
      headers: this.auth(t, b !== undefined),
      ...(b !== undefined ? { body: body(b) } : {}),
      answered,
    });
    const hasGroup = L.live("git", `${p}/`).some((x) => x.what === `${p}/`);
    const roll = this.random();
    if (roll < 0.1) {
      const mirrors = L.live("mirror", `${p}:`);
      if (mirrors.length > 0 && this.chance(0.5)) {
        const m = this.pick(mirrors);
        return req("DELETE", `${base}/git/mirrors/${m.id}`, undefined, (s) => {
          if (ok(s)) L.deleted("mirror", m.id);
        });
      }
      const k = ++this.n;
      return req(
        "POST",
        `${base}/git/mirrors`,
        {
          repoURLFrom: `https://github.com/fuzz/m${k}.git`,
          repoURLTo: `ssh://git@git.example.org/${t.name}/${p}/m${k}.git`,
          refSpaceFrom: "refs/heads/*",
          refSpaceTo: "refs/heads/*",
          frequency: "daily",
        },
        (s, b) => {
          if (s === 201) L.record("mirror", Number(b.data.mirrorID), `${p}:m${k}`);
        },
      );
    }
    if (roll < 0.2) {
      const repos = L.live("artifactRepo", `${p}:`);
      if (repos.length > 0 && this.chance(0.5)) {
        const a = this.pick(repos);
        return req("DELETE", `${base}/artifactservice/repo/${a.id}`, undefined, (s) => {
          if (ok(s)) L.deleted("artifactRepo", a.id);
        });
      }
      const k = ++this.n;
      return req("POST", `${base}/artifactservice/repo`, { name: `a${k}` }, (s, b) => {
        if (s === 201) L.record("artifactRepo", b.data.id, `${p}:a${k}`);
      });
    }
    if (!hasGroup) {
      return req("POST", `${base}/git/groups`, {}, (s, b) => {
        if (s === 201) L.record("git", b.data.id, `${p}/`);
      });
    }
    const subs = L.live("git", `${p}/`).filter((x) => x.what !== `${p}/`);
    if (roll < 0.3) {
      return req("DELETE", `${base}/git/groups`, undefined, (s) => {
        if (!ok(s)) return;
        L.deletedUnder("git", `${p}/`);
        L.deletedUnder("repository", `${p}/`);
      });
    }
    if (roll < 0.5 && subs.length > 0) {
      const sub = this.pick(subs);
      return req("DELETE", `${base}/git/subgroups/${sub.id}`, undefined, (s) => {
        if (!ok(s)) return;
        L.deletedUnder("git", sub.what);
        L.deletedUnder("repository", sub.what);
      });
    }
    if (roll < 0.7) {
      const within = subs.length > 0 && this.chance(0.6) ? this.pick(subs) : undefined;
      const path = within ? within.what.slice(p.length + 1, -1) : "";
      const name = `r${++this.n}`;
      const b = path ? { name, repoPathNew: path } : { name };
      return req("POST", `${base}/git/repo`, b, (s, a) => {
        if (s === 201)
          L.record("repository", a.data.gitRepoID, `${p}/${path ? `${path}/` : ""}:${name}`);
      });
    }
    const depth = 1 + Math.floor(this.random() * 3);
    const path = Array.from({ length: depth }, () => this.pick(["a", "b", "c"])).join("/");
    return req("POST", `${base}/git/subgroups`, { subGroups: path }, (s, b) => {
      if (s !== 201) return;
      for (const level of b.data as { id: number; path: string }[])
        L.record("git", level.id, `${p}/${level.path}/`, true);
    });
  }

  // --- deep JSON --------------------------------------------------------------------------

  private target(): { t: FuzzTenant; slug: string } {
    const t = this.pick(this.tenants);
    return { t, slug: this.pick(t.targets) };
  }

  private deep(): FuzzRequest {
    const [, def] = this.pick(bodyOps);
    const { t, slug } = this.target();
    const depth = this.pick(DEEP_DEPTHS);
    const nested = deepJson(depth, this.pick(["array", "object", "mixed"] as const));
    const body = this.chance(0.5) ? nested : `{"name":"deep","description":${nested}}`;
    return {
      family: "deep",
      method: def.method,
      path: this.fillPath(def, slug),
      headers: this.auth(t),
      body,
    };
  }

  // --- malformed --------------------------------------------------------------------------

  private malformed(): FuzzRequest {
    const [, def] = this.pick(bodyOps);
    const { t, slug } = this.target();
    const path = this.fillPath(def, slug);
    const json = this.auth(t);
    const m = (
      body: string | Buffer | undefined,
      headers: Record<string, string> = json,
      p = path,
      method: string = def.method,
    ): FuzzRequest => ({
      family: "malformed",
      method,
      path: p,
      headers,
      ...(body !== undefined ? { body } : {}),
    });
    const valid = JSON.stringify({ name: "x", description: "d", subGroups: "a" });
    switch (Math.floor(this.random() * 18)) {
      case 0:
        return m(valid.slice(0, Math.floor(this.random() * valid.length)));
      case 1:
        return m(this.pick(["{", "[1,]", "NaN", "'x'", '{"a" 1}', "undefined", "\u0000"]));
      case 2:
        return m(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
      case 3:
        return m(valid, { ...json, "content-type": "application/json; charset=utf-16" });
      case 4:
        return m(valid, {
          ...json,
          "content-type": this.pick(["text/plain", "application/x-www-form-urlencoded", "x/y"]),
        });
      case 5:
        return m("");
      case 6:
        return m(JSON.stringify({ name: "x".repeat(1 + Math.floor(this.random() * 2_000_000)) }));
      case 7:
        return m('{"name":"\\ud800","description":"d"}');
      case 8:
        return m(
          this.pick([
            '{"__proto__":{"admin":true}}',
            '{"constructor":{"prototype":{"x":1}}}',
            '{"metadata":{"__proto__":1}}',
          ]),
        );
      case 9:
        return m(
          `{"size":${this.pick(["1e999", "-0", "123456789012345678901234567890", "1e-400"])}}`,
        );
      case 10:
        return m(valid, json, path.replace(slug, this.pick(["%zz", "%c3%28", "%E0%A4%A", "%"])));
      case 11:
        return m(
          valid,
          json,
          path.replace(slug, "a".repeat(101 + Math.floor(this.random() * 400))),
        );
      case 12:
        return m(
          undefined,
          json,
          `${path}?q=${"x".repeat(1_000 + Math.floor(this.random() * 6_000))}`,
          "GET",
        );
      case 13:
        return m(
          valid,
          json,
          `/v1/${this.pick(["nope", "projects/x/y/z/w", "../etc/passwd", ""])}`,
        );
      case 14: {
        const method = this.pick(["PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]);
        return m(method === "HEAD" ? undefined : valid, json, path, method);
      }
      case 15:
        return m('{"name":"a","name":"b","description":"d"}');
      case 16:
        return m(JSON.stringify(this.randomValue(3)));
      default:
        return m(valid, {
          ...json,
          authorization: this.pick([
            "Bearer",
            "Basic x",
            "Bearer a b",
            `Bearer ${"t".repeat(5000)}`,
          ]),
        });
    }
  }

  // --- random operations ------------------------------------------------------------------

  private randomOperation(): FuzzRequest {
    const [, def] = this.pick(operations);
    const { t, slug } = this.target();
    const headers: Record<string, string> = {};
    const who = this.random();
    if (who < 0.85) headers.authorization = `Bearer ${t.token}`;
    else if (who < 0.9) headers.authorization = "Bearer not-a-token";
    if (def.auth === "gitToken" && headers.authorization) {
      headers["private-token"] = headers.authorization.slice(7);
      delete headers.authorization;
    }
    const query = this.randomQuery(def);
    let body: string | undefined;
    if (def.body !== undefined || this.chance(0.1)) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(this.randomBody(def));
    }
    return {
      family: "random",
      method: def.method,
      path: this.fillPath(def, slug) + query,
      headers,
      ...(body !== undefined ? { body } : {}),
    };
  }

  /** The path of `def` with its parameters filled: mostly plausible, sometimes not. */
  private fillPath(def: RouteDef, slug: string): string {
    return def.path.replace(
      /\{([A-Za-z_][A-Za-z0-9_-]*)(\+?)\}/g,
      (_, name: string, plus: string) => {
        if (name === "projectSlug")
          return this.chance(0.9) ? slug : encodeURIComponent(this.pick(WEIRD_STRINGS));
        const enums = def.paramEnums?.[name];
        if (enums && this.chance(0.85)) return this.pick(enums);
        if (def.intParams?.includes(name)) {
          if (this.chance(0.7)) {
            const ids = [
              ...this.ledger.all("git"),
              ...this.ledger.all("repository"),
              ...this.ledger.all("mirror"),
              ...this.ledger.all("artifactRepo"),
            ];
            return String(
              ids.length > 0 && this.chance(0.8)
                ? this.pick(ids)
                : 1 + Math.floor(this.random() * 50),
            );
          }
          return encodeURIComponent(this.pick(WEIRD_INTS));
        }
        if (plus) return this.pick(["a/b.bin", "x", "a/../b", "d/e/f/g.txt", "%2e%2e/x"]);
        return encodeURIComponent(
          this.chance(0.6)
            ? this.pick(["alice", "bob", "core", "x", "main", "HEAD", "MIT"])
            : this.pick(WEIRD_STRINGS),
        );
      },
    );
  }

  private randomQuery(def: RouteDef): string {
    const names = Object.keys((def.query?.properties as Record<string, unknown> | undefined) ?? {});
    if (names.length === 0 && this.chance(0.8)) return "";
    const pairs: string[] = [];
    const k = Math.floor(this.random() * 4);
    for (let i = 0; i < k; i++) {
      const name =
        names.length > 0 && this.chance(0.8)
          ? this.pick(names)
          : this.pick(["page", "limit", "x", "all"]);
      const value = this.pick([
        "1",
        "2",
        "0",
        "-1",
        "true",
        "false",
        "a",
        "2026-01-01",
        "1e309",
        "2147483648",
        "",
        "%zz",
      ]);
      pairs.push(`${encodeURIComponent(name)}=${value}`);
    }
    return pairs.length > 0 ? `?${pairs.join("&")}` : "";
  }

  /** A body with the schema's field names and values of right or wrong types. */
  private randomBody(def: RouteDef): unknown {
    const props = Object.keys(
      (def.body as { properties?: Record<string, unknown> } | undefined)?.properties ?? {},
    );
    if (props.length === 0 || this.chance(0.1)) return this.randomValue(3);
    const out: Record<string, unknown> = {};
    for (const p of props) if (this.chance(0.6)) out[p] = this.randomValue(2);
    if (this.chance(0.2)) out[this.pick(["extra", "id", "__x"])] = 1;
    return out;
  }

  private randomValue(depth: number): unknown {
    const r = this.random();
    if (depth > 0 && r < 0.15)
      return Array.from({ length: Math.floor(this.random() * 3) }, () =>
        this.randomValue(depth - 1),
      );
    if (depth > 0 && r < 0.25)
      return { a: this.randomValue(depth - 1), b: this.randomValue(depth - 1) };
    if (r < 0.35) return null;
    if (r < 0.45) return this.chance(0.5);
    if (r < 0.6) return this.pick([0, 1, -1, 1.5, 2 ** 31, Number.MAX_SAFE_INTEGER, 10, 100]);
    if (r < 0.8)
      return this.pick([
        "alice",
        "a",
        "x".repeat(300),
        "é",
        "a/b",
        "daily",
        "public",
        "https://github.com/x/y.git",
        "ssh://git@h/x.git",
      ]);
    return `s${Math.floor(this.random() * 1000)}`;
  }
}
