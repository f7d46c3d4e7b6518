/* global process */
/**
 * The CLI bundles (`npm run build`, after tsc; `node scripts/bundle.js [DIR]` writes them to
 * DIR instead of dist/cli). esbuild writes the entry twice: dist/cli/main.cjs, the one
 * package.json `bin` names (CommonJS: Node runs it without loading its ESM loader, ≈ 10 ms of
 * CPU a start), and dist/cli/main.js over tsc's (ESM, the same code: what the tests, the
 * docs, the image and the action run), and next to them one CommonJS file per command
 * (`bundle-plan.cjs`, …) plus `bundle-all.cjs` (help, anything main.ts is not sure of) and
 * `bundle-server.cjs` (the reference server, for `serve` and the embedded server) and
 * `bundle-vendor-*.cjs` (packages several bundles use, once; re2js, loaded only for a rule's
 * `matches()`), then beside each bundle its V8
 * code cache (`.v8cache`, made by running commands; src/cli/bundle-load.ts loads them). A
 * command loads main.js and its one bundle instead of ~350 modules: most of its start
 * (bench/startup.ts). tsc's per-file output stays in dist/ for the tests, `npm run gen` and
 * the benchmarks; run tsc alone and main.js is tsc's again, loading those files.
 *
 * main.js learns from program.ts itself which global flags take a value (so `--api-url X
 * plan` picks the plan bundle). The bundles sit next to main.js, two levels below the package
 * root as dist/cli/*.js do: code that finds package files from its own URL
 * (src/manifest/validator.ts) works in both. better-sqlite3 stays external (a native module
 * found through its own directory). The generated schema validators (schemas/validators.cjs,
 * 1 MB) are a bundle of their own, `bundle-validators.cjs`, that the others require (with
 * `PHCTL_BUNDLED` defined, src/manifest/validator.ts takes it): with its code cache a first
 * validation no longer compiles them. No bundle keeps an `import()`: bundle-load.ts
 * runs a bundle as a vm.Script, where Node 20 cannot take one, so the build fails on one. A
 * package loaded with `await import("pkg")` is left out of the bundle (a bundle would give a
 * CommonJS package only `default`) and so fails the build: import it statically instead.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = resolve(process.argv[2] ?? join(root, "dist/cli"));

// What an earlier build wrote (names of the ESM chunks it once made included).
mkdirSync(out, { recursive: true });
for (const f of readdirSync(out, { withFileTypes: true }))
  if (
    f.isFile() &&
    /^(chunk-[A-Z0-9]+\.js|main\.c?js|bundle-[a-z0-9-]+\.cjs)(\.map|\.v8cache(\.\d+\.tmp)?)?$/.test(
      f.name,
    )
  )
    rmSync(join(out, f.name));

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  sourcesContent: false,
  legalComments: "none",
  logLevel: "warning",
};

/** program.ts's global options and commands, read from the program it builds. */
async function programShape() {
  const probe = await build({
    ...common,
    entryPoints: ["src/cli/program.ts"],
    format: "cjs",
    sourcemap: false,
    write: false,
  });
  const mod = { exports: {} };
  new Function("module", "exports", "require", probe.outputFiles[0].text)(
    mod,
    mod.exports,
    createRequire(import.meta.url),
  );
  const { globalProgram, COMMAND_NAMES } = mod.exports;
  const valueFlags = [];
  const flags = [];
  for (const o of globalProgram().options)
    for (const f of [o.long, o.short].filter(Boolean))
      (o.required || o.optional ? valueFlags : flags).push(f);
  return { valueFlags, flags, commands: [...COMMAND_NAMES] };
}

const shape = await programShape();
const register = (name) => `register${name[0].toUpperCase()}${name.slice(1)}`;

/**
 * Packages in a bundle of their own: those several bundles use (once in the package, not in
 * each), and re2js, which src/policy/re2.ts loads only for a rule's `matches()`.
 */
const VENDOR = ["undici", "yaml", "re2js"];

/** The source of a command's bundle (`all`: every command; `server`: the reference server). */
function entrySource(name) {
  if (name.startsWith("vendor-")) return `export * from "${name.slice("vendor-".length)}";`;
  if (name === "server")
    return `export * from "../server/app.ts";\nexport * from "../server/seed.ts";`;
  const names = name === "all" ? shape.commands : [name];
  return [
    `import { run } from "./program.ts";`,
    ...names.map((n) => `import { ${register(n)} } from "./${n}.ts";`),
    `const registers = { ${names.map((n) => `${JSON.stringify(n)}: ${register(n)}`).join(", ")} };`,
    `export function start(argv) { return run(argv, async (names) => names.map((n) => registers[n])); }`,
  ].join("\n");
}

const plugins = [
  {
    name: "command-entries",
    setup(b) {
      b.onResolve({ filter: /^phctl-command:/ }, (a) => ({ path: a.path, namespace: "phctl" }));
      b.onLoad({ filter: /.*/, namespace: "phctl" }, (a) => ({
        contents: entrySource(a.path.slice("phctl-command:".length)),
        resolveDir: join(root, "src/cli"),
        loader: "ts",
      }));
    },
  },
  {
    // The reference server (fastify, SQLite: most of a bundle) is loaded only for `serve` and
    // the embedded server: one bundle of its own that the others import when they need it.
    name: "server-bundle",
    setup(b) {
      // `await import("../server/app.js")` becomes a require() of that bundle (a promise of
      // it): the loader of bundle-load.ts takes it, with its code cache.
      b.onResolve({ filter: /\/server\/(app|seed)\.js$/ }, (a) =>
        a.kind === "dynamic-import" ? { path: "server", namespace: "phctl-server" } : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: "phctl-server" }, () => ({
        contents: `module.exports = require("./bundle-server.cjs");`,
        loader: "js",
      }));
      // Sibling bundles a module requires itself (validator.ts, re2.ts): loaded at run time.
      b.onResolve({ filter: /^\.\/bundle-[a-z0-9-]+\.cjs$/ }, (a) => ({
        path: a.path,
        external: true,
      }));
    },
  },
  {
    name: "vendor-bundles",
    setup(b) {
      b.onResolve({ filter: new RegExp(`^(${VENDOR.join("|")})$`) }, (a) =>
        a.kind === "dynamic-import" || a.importer === `phctl-command:vendor-${a.path}`
          ? undefined
          : { path: `./bundle-vendor-${a.path}.cjs`, external: true },
      );
    },
  },
  {
    // commander requires node:child_process at its load, for executable subcommands phctl has
    // none of (it and what it loads cost ≈ 1–2 ms of every start): required when first used.
    name: "commander-lazy-child-process",
    setup(b) {
      b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (a) => {
        const text = readFileSync(a.path, "utf8");
        const eager = "const childProcess = require('node:child_process');";
        if (!text.includes(eager))
          throw new Error(`${a.path}: no \`${eager}\` to make lazy (commander changed)`);
        const lazy =
          "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };";
        return { contents: text.replace(eager, lazy), loader: "js" };
      });
    },
  },
  {
    name: "dynamic-packages-external",
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (a) =>
        a.kind === "dynamic-import" ? { path: a.path, external: true } : undefined,
      );
    },
  },
];

const [entry, entryCjs, bundles] = await Promise.all([
  build({
    ...common,
    entryPoints: ["src/cli/main.ts"],
    outfile: join(out, "main.js"),
    format: "esm",
    define: { PHCTL_BUNDLE: JSON.stringify(shape) },
    metafile: true,
  }),
  // The same entry as CommonJS, for `bin`: a `.cjs` main is run by Node's CommonJS loader.
  build({
    ...common,
    entryPoints: ["src/cli/main.ts"],
    outfile: join(out, "main.cjs"),
    format: "cjs",
    define: { PHCTL_BUNDLE: JSON.stringify(shape), "import.meta.url": "__phctlUrl" },
    banner: { js: 'const __phctlUrl = require("node:url").pathToFileURL(__filename).href;' },
    metafile: true,
  }),
  build({
    ...common,
    entryPoints: Object.fromEntries([
      ...[...shape.commands, "all", "server", ...VENDOR.map((v) => `vendor-${v}`)].map((n) => [
        `bundle-${n}`,
        `phctl-command:${n}`,
      ]),
      // The generated schema validators (src/manifest/validator.ts): 1 MB of code, loaded
      // with its code cache like any bundle.
      ["bundle-validators", "./schemas/validators.cjs"],
    ]),
    outdir: out,
    outExtension: { ".js": ".cjs" },
    format: "cjs",
    external: ["better-sqlite3"],
    define: { "import.meta.url": "__phctlUrl", PHCTL_BUNDLED: "true" },
    banner: { js: 'const __phctlUrl = require("node:url").pathToFileURL(__filename).href;' },
    plugins,
    metafile: true,
  }),
]);

// bundle-load.ts runs a bundle as a vm.Script, where Node 20 cannot take an import() (none
// with a code cache): a bundle keeps none.
for (const [file, o] of Object.entries(bundles.metafile.outputs))
  for (const i of o.imports ?? [])
    if (i.kind === "dynamic-import")
      throw new Error(`${file} keeps import("${i.path}"): make it a require() (bundle-load.ts)`);

const kb = (n) => `${Math.round(n / 1024)} kB`;
const sizes = (r) => Object.entries(r.metafile.outputs).filter(([f]) => !f.endsWith(".map"));
const [[, main]] = sizes(entry);
const [[, mainCjs]] = sizes(entryCjs);
const parts = sizes(bundles).map(
  ([f, o]) => `${f.replace(/.*bundle-|\.cjs$/g, "")} ${kb(o.bytes)}`,
);
process.stdout.write(
  `bundle: ${out}/main.js ${kb(main.bytes)}, main.cjs ${kb(mainCjs.bytes)}; bundle-*.cjs: ${parts.join(", ")}\n`,
);

// V8 code caches (src/cli/bundle-load.ts). A run with PHCTL_BUILD_CODE_CACHE=1 writes, at its
// exit, the cache of each bundle it loaded that has none yet. First `validate` and `plan` of a
// copy of the examples on the embedded server (so that their caches hold what those commands
// compile), then each command's --help and the help of all (the start of every bundle). Only
// PATH and HOME pass: a build never reaches a real service.
const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: "1" };
const train = (args, cwd) =>
  spawnSync(process.execPath, [join(out, "main.js"), ...args], {
    cwd,
    env: { ...env, PHCTL_BUILD_CODE_CACHE: "1" },
    stdio: ["ignore", "ignore", "pipe"],
    timeout: 60_000,
  });
const examples = join(root, "examples");
if (existsSync(examples)) {
  const copy = mkdtempSync(join(tmpdir(), "phctl-code-cache-"));
  try {
    // Not the state a run of the quick start leaves in examples/ (.phctl/: a database, a lock).
    cpSync(examples, copy, { recursive: true, filter: (src) => basename(src) !== ".phctl" });
    for (const command of ["validate", "plan"]) {
      const r = train([command, "."], copy);
      // A cache made by a run that failed is as valid; only said, and the help makes one.
      if (r.status !== 0)
        process.stderr.write(
          `code cache: phctl ${command} examples exited ${r.status}: ${r.stderr}\n`,
        );
    }
    // re2js's bundle, which the examples do not load (no rule of theirs uses matches()):
    // a rule that does, checked and run on every project.
    writeFileSync(
      join(copy, "policies", "code-cache-re2.yaml"),
      [
        "apiVersion: phctl/v1",
        "kind: Policy",
        "metadata: { name: code-cache-re2 }",
        "spec:",
        "  select: { kind: Project }",
        "  enforcement: warn",
        "  rules:",
        "    - name: titled",
        `      expression: 'object.spec.title.matches("^[A-Z][\\\\w .-]*$")'`,
        "",
      ].join("\n"),
    );
    const r = train(["validate", "."], copy);
    if (r.status !== 0)
      process.stderr.write(`code cache: phctl validate (re2) exited ${r.status}: ${r.stderr}\n`);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
for (const name of [...shape.commands, "all"]) {
  const args = name === "all" ? ["--help"] : [name, "--help"];
  const r = train(args, root);
  if (r.status !== 0)
    throw new Error(`code cache: phctl ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
}
const caches = readdirSync(out).filter((f) => f.endsWith(".v8cache"));
process.stdout.write(`code cache: ${caches.length} bundles\n`);
