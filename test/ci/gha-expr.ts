/**
 * GitHub Actions expressions (`${{ … }}`), enough of them to run the phctl workflows in a
 * test: literals, context paths (`inputs.base-ref`, `steps.plan.outputs.plan`), `!`, `==`,
 * `!=`, `&&`, `||`, parentheses and the functions the kit uses. Comparisons follow GitHub's
 * rules (strings case-insensitively; mixed types as numbers). Anything else throws, so a
 * workflow change the test cannot follow fails loudly instead of being misread.
 */
export type Value = string | number | boolean | null | Value[] | { [k: string]: Value };

/** What an expression can see; `status` answers success()/failure()/always()/cancelled(). */
export interface ExprContext {
  contexts: Record<string, Value>;
  status: "success" | "failure";
  hashFiles?: (patterns: string[]) => string;
}

const TOKEN =
  /\s*(?:(\d+(?:\.\d+)?)|'((?:[^']|'')*)'|([A-Za-z_][A-Za-z0-9_-]*)|(==|!=|<=|>=|&&|\|\||[!<>().,[\]*]))/y;

function tokenize(src: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < src.length) {
    if (/^\s*$/.test(src.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(src);
    if (!m) throw new Error(`expression: cannot read "${src.slice(at)}" in "${src}"`);
    out.push(m[1] !== undefined ? `#${m[1]}` : m[2] !== undefined ? `'${m[2]}` : (m[3] ?? m[4]));
  }
  return out;
}

/** A value as GitHub writes it into a string: null is empty, objects and arrays are JSON. */
export const text = (v: Value): string =>
  v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);

const truthy = (v: Value) => !(v === false || v === 0 || v === "" || v === null || Number.isNaN(v));

function toNumber(v: Value): number {
  if (v === null) return 0;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return v;
  if (typeof v === "string") return v.trim() === "" ? 0 : Number(v);
  return NaN;
}

function equal(a: Value, b: Value): boolean {
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase();
  const isObject = (v: Value) => v !== null && typeof v === "object";
  if (isObject(a) || isObject(b)) return a === b;
  if (typeof a === typeof b) return a === b;
  return toNumber(a) === toNumber(b);
}

export function evaluate(src: string, ctx: ExprContext): Value {
  const t = tokenize(src);
  let i = 0;
  const peek = () => t[i];
  const take = (want?: string) => {
    const tok = t[i++];
    if (tok === undefined || (want !== undefined && tok !== want))
      throw new Error(`expression: expected ${want ?? "more"} in "${src}"`);
    return tok;
  };
  const call = (name: string, args: Value[]): Value => {
    switch (name.toLowerCase()) {
      case "success":
        return ctx.status === "success";
      case "failure":
        return ctx.status === "failure";
      case "always":
        return true;
      case "cancelled":
        return false;
      case "format":
        return text(args[0]).replace(/\{(\d+)\}/g, (_, n: string) =>
          text(args[1 + Number(n)] ?? null),
        );
      case "hashfiles":
        if (!ctx.hashFiles) throw new Error("expression: hashFiles() without a workspace");
        return ctx.hashFiles(args.map(text));
      default:
        throw new Error(`expression: function ${name}() is not emulated`);
    }
  };
  const primary = (): Value => {
    const tok = take();
    if (tok === "(") {
      const v = or();
      take(")");
      return v;
    }
    if (tok === "!") return !truthy(primary());
    if (tok.startsWith("#")) return Number(tok.slice(1));
    if (tok.startsWith("'")) return tok.slice(1).replace(/''/g, "'");
    if (tok === "true" || tok === "false") return tok === "true";
    if (tok === "null") return null;
    if (!/^[A-Za-z_]/.test(tok)) throw new Error(`expression: unexpected "${tok}" in "${src}"`);
    if (peek() === "(") {
      take("(");
      const args: Value[] = [];
      while (peek() !== ")") {
        args.push(or());
        if (peek() === ",") take(",");
      }
      take(")");
      return call(tok, args);
    }
    if (!(tok in ctx.contexts)) throw new Error(`expression: unknown context "${tok}" in "${src}"`);
    let v: Value | undefined = ctx.contexts[tok];
    while (peek() === "." || peek() === "[") {
      const key = take() === "." ? take() : text(or());
      if (peek() === "]") take("]");
      v = v !== null && typeof v === "object" && !Array.isArray(v) ? v[key] : undefined;
    }
    return v ?? null;
  };
  const compare = (): Value => {
    const left = primary();
    const op = peek();
    if (op === "==" || op === "!=") {
      take();
      const same = equal(left, primary());
      return op === "==" ? same : !same;
    }
    return left;
  };
  const and = (): Value => {
    let v = compare();
    while (peek() === "&&") {
      take();
      const r = compare();
      v = truthy(v) ? r : v;
    }
    return v;
  };
  const or = (): Value => {
    let v = and();
    while (peek() === "||") {
      take();
      const r = and();
      v = truthy(v) ? v : r;
    }
    return v;
  };
  const v = or();
  if (i !== t.length) throw new Error(`expression: unexpected "${t[i]}" in "${src}"`);
  return v;
}

/** A string with `${{ … }}` parts replaced by their values (null → ""). */
export function interpolate(source: string, ctx: ExprContext): string {
  return source.replace(/\$\{\{(.*?)\}\}/gs, (_, e: string) => text(evaluate(e, ctx)));
}

/** An `if:` condition: implicitly `success() && (…)` unless it calls a status function. */
export function condition(cond: string | boolean | undefined, ctx: ExprContext): boolean {
  if (cond === undefined) return ctx.status === "success";
  const src = String(cond).replace(/^\s*\$\{\{([\s\S]*)\}\}\s*$/, "$1");
  const v = truthy(evaluate(src, ctx));
  return /\b(?:always|failure|cancelled|success)\s*\(/.test(src)
    ? v
    : v && ctx.status === "success";
}
