/**
 * The CLI bundles (scripts/bundle.js), built into a temp tree laid out as the package is
 * (dist/cli next to schemas/ and node_modules/): `--version` answers from the entry alone, a
 * command loads its own bundle (every command's when the entry is not sure), commands run, a
 * failing command prints one line and no stack, and the source maps lead back to src/. Also
 * which command a command line registers (program.ts commandOf).
 */
import { execFile, execFileSync } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandOf, COMMAND_NAMES } from "../../src/cli/program.js";
import { copyExamples } from "../helpers/examples.js";

const ROOT = resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
const tree = mkdtempSync(join(tmpdir(), "phctl-bundle-"));
const cli = join(tree, "dist/cli");
const MAIN = join(cli, "main.js");

beforeAll(() => {
  mkdirSync(cli, { recursive: true });
  for (const d of ["schemas", "node_modules"]) symlinkSync(join(ROOT, d), join(tree, d));
  execFileSync(process.execPath, [join(ROOT, "scripts/bundle.js"), cli], { stdio: "ignore" });
}, 60_000);
afterAll(() => rmSync(tree, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], cwd = ROOT, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      { cwd, env: { PATH: process.env.PATH, NO_COLOR: "1", ...env }, timeout: 30_000 },
      (err, stdout, stderr) =>
        done({
          code: err ? Number(err.code ?? 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        }),
    );
  });
}

/** The bundles a command line loads, and what of their code caches (the loader's debug log). */
async function loadedBy(args: string[], cwd = ROOT): Promise<Map<string, string>> {
  const r = await run(args, cwd, { NODE_DEBUG: "phctl" });
  return new Map(
    [...r.stderr.matchAll(/(bundle-[a-z-]+\.cjs): code cache (.+)$/gm)].map((m) => [m[1], m[2]]),
  );
}

/** The command bundles a command line loads (not the vendor bundles they share). */
async function bundlesOf(args: string[]): Promise<string[]> {
  return [...(await loadedBy(args)).keys()].filter((b) => !b.includes("-vendor-")).sort();
}

describe("the bundled CLI", () => {
  it("--version prints package.json's version from the entry alone", async () => {
    const r = await run(["--version"]);
    expect(r).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
    expect(readFileSync(MAIN, "utf8").length).toBeLessThan(6_000);
    expect(readFileSync(MAIN, "utf8")).not.toMatch(/commander/);
    expect(await bundlesOf(["--version"])).toEqual([]);
  });

  it("runs a command: validate the examples", async () => {
    const r = await run(["validate", "examples"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("0 errors, 0 warnings in 13 files\n");
  });

  it("package.json's bin is the CommonJS entry: it runs without Node's ESM loader", async () => {
    const bin = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { bin: { phctl: string } }).bin.phctl; // prettier-ignore
    expect(bin).toBe("dist/cli/main.cjs");
    // At exit, the ESM loader's parts Node loaded (the ESM main.js pulls these in).
    const hook = join(tree, "esm-parts.cjs");
    writeFileSync(
      hook,
      'process.on("exit", () => require("node:fs").writeSync(2, "esm: " + process.moduleLoadList.filter((m) => /esm\\/module_job|fs\\/promises|readline/.test(m)).join(",") + "\\n"));\n',
    );
    const entry = (file: string, args: string[]) =>
      new Promise<Run>((done) =>
        execFile(
          process.execPath,
          ["--require", hook, join(cli, file), ...args],
          { cwd: ROOT, env: { PATH: process.env.PATH, NO_COLOR: "1" }, timeout: 30_000 },
          (err, stdout, stderr) => done({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
        ),
      );
    for (const args of [["--version"], ["validate", "examples"]]) {
      const [cjs, esm] = await Promise.all([entry("main.cjs", args), entry("main.js", args)]);
      expect(cjs).toEqual({ ...esm, stderr: "esm: \n" });
      expect(esm.stderr).toMatch(/^esm: .*module_job/);
    }
  });

  it("loads the command's bundle, and every command's when unsure", async () => {
    // The schema validators are a bundle of their own, with their code cache.
    expect(await bundlesOf(["validate", "examples"])).toEqual([
      "bundle-validate.cjs",
      "bundle-validators.cjs",
    ]);
    expect(await bundlesOf(["--api-url", "http://127.0.0.1:9", "--json", "schema"])).toEqual([
      "bundle-schema.cjs",
    ]);
    expect(await bundlesOf(["--api-url=http://x", "-v", "schema", "user"])).toEqual([
      "bundle-schema.cjs",
    ]);
    expect(await bundlesOf(["--unknown", "schema"])).toEqual(["bundle-all.cjs"]);
    expect(await bundlesOf(["help", "schema"])).toEqual(["bundle-all.cjs"]);
  });

  it("the build leaves a code cache that each bundle loaded uses", async () => {
    const caches = readdirSync(cli).filter((f) => f.endsWith(".cjs.v8cache"));
    const bundles = readdirSync(cli).filter((f) => /^bundle-.*\.cjs$/.test(f));
    expect(caches.sort()).toEqual(bundles.map((b) => `${b}.v8cache`).sort());
    expect(Object.fromEntries(await loadedBy(["validate", "examples"]))).toEqual({
      "bundle-validate.cjs": "used",
      "bundle-validators.cjs": "used",
    });
    // plan on the embedded server: the plan bundle, the vendor bundles, the server's.
    const work = mkdtempSync(join(tmpdir(), "phctl-cached-plan-"));
    copyExamples(work);
    const plan = await loadedBy(["plan", "."], work);
    rmSync(work, { recursive: true, force: true });
    expect(Object.fromEntries(plan)).toEqual({
      "bundle-plan.cjs": "used",
      "bundle-vendor-undici.cjs": "used",
      "bundle-vendor-yaml.cjs": "used",
      "bundle-server.cjs": "used",
      "bundle-validators.cjs": "used",
    });
    // --verbose: Node's loader, for the source maps.
    expect(Object.fromEntries(await loadedBy(["-v", "validate", "examples"]))).toEqual({
      "bundle-validate.cjs": "not used: source maps on",
    });
  });

  it("loads re2js only for a rule's matches(), with RE2's semantics and load-time errors", async () => {
    // The examples' rules use no matches(): no RE2 engine is loaded (nor in the validate bundle).
    expect([...(await loadedBy(["validate", "examples"])).keys()]).not.toContain(
      "bundle-vendor-re2js.cjs",
    );
    expect(readFileSync(join(cli, "bundle-validate.cjs"), "utf8")).not.toMatch(/RE2JS\b.*class/);
    const work = mkdtempSync(join(tmpdir(), "phctl-re2-"));
    copyExamples(work);
    const policy = (...rules: string[]) =>
      [
        "apiVersion: phctl/v1",
        "kind: Policy",
        "metadata: { name: titles }",
        "spec:",
        "  select: { kind: Project }",
        "  rules:",
        ...rules.map(
          (r) => `    - { name: ${r.split("=")[0]}, expression: '${r.slice(r.indexOf("=") + 1)}' }`,
        ),
        "",
      ].join("\n");
    try {
      // `\z` is RE2's end of text (JavaScript's engine would read it as a plain `z`).
      writeFileSync(
        join(work, "policies", "titles.yaml"),
        policy('ends-in-s=object.spec.title.matches("s\\\\z")'),
      );
      const ran = await run(["validate", "."], work, { NODE_DEBUG: "phctl" });
      expect(ran.stderr).toMatch(/bundle-vendor-re2js\.cjs: code cache used/);
      expect(ran.stdout.split("\n").filter((l) => l.includes(" denied: "))).toEqual([
        "projects/mbed-tls.yaml:3:1 denied: Project project/mbed-tls: policy titles, rule ends-in-s: rule ends-in-s does not hold",
        "projects/trusted-firmware-a.yaml:2:1 denied: Project project/trusted-firmware-a: policy titles, rule ends-in-s: rule ends-in-s does not hold",
      ]);
      // A backreference RE2 refuses: an error at load, at the pattern's line and column.
      writeFileSync(
        join(work, "policies", "titles.yaml"),
        policy('twice=object.spec.title.matches("(a)\\\\1")'),
      );
      const refused = await run(["validate", "."], work);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toMatch(
        /^policies\/titles\.yaml:7:61 Policy titles: rule twice: expression: invalid RE2 pattern `\(a\)\\1`: .*no backreferences/m,
      );
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it("--help lists every command; a command's help is its own", async () => {
    const all = await run(["--help"]);
    for (const c of COMMAND_NAMES) expect(all.stdout).toMatch(new RegExp(`^  ${c}\\b`, "m"));
    const plan = await run(["--json", "plan", "--help"]);
    expect(plan.stdout).toMatch(/^Usage: phctl plan/);
  });

  it("a failing command prints one line and no stack; deep nesting too", async () => {
    const missing = await run(["validate", "no/such/dir"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    expect(missing.stderr).toMatch(/^phctl: .*no\/such\/dir/);
    const dir = mkdtempSync(join(tmpdir(), "phctl-deep-"));
    writeFileSync(join(dir, "deep.yaml"), `a: ${"[".repeat(3000)}${"]".repeat(3000)}\n`);
    const deep = await run(["validate", "deep.yaml"], dir);
    rmSync(dir, { recursive: true, force: true });
    expect(deep.code).toBe(1);
    expect(deep.stdout).toBe(
      "deep.yaml:1:103 mappings and lists nested more than 100 deep; a manifest needs 7 at most: check the indentation and brackets from here\n1 error, 0 warnings in 1 file\n",
    );
    expect(deep.stderr).toBe("");
  });

  it("writes source maps that lead back to src/", () => {
    const maps = readdirSync(cli).filter((f) => f.endsWith(".map"));
    expect(maps).toContain("bundle-validate.cjs.map");
    const sources = maps.flatMap(
      (m) => (JSON.parse(readFileSync(join(cli, m), "utf8")) as { sources: string[] }).sources,
    );
    expect(sources.map((s) => resolve(cli, s))).toContain(join(ROOT, "src/cli/program.ts"));
  });
});

describe("which command a command line registers", () => {
  const program = new Command()
    .option("--api-url <url>")
    .option("--token-file <file>")
    .option("-v, --verbose")
    .option("--json");
  const cases: [string[], string | undefined][] = [
    [["plan", "examples"], "plan"],
    [["--api-url", "http://x", "apply"], "apply"],
    [["--api-url=http://x", "-v", "drift"], "drift"],
    [["--json", "--token-file", "plan", "validate"], "validate"],
    [["help", "plan"], undefined],
    [["examples"], undefined],
    [["--help"], undefined],
    [[], undefined],
    [["--", "plan"], undefined],
    [["toString"], undefined],
  ];
  for (const [args, want] of cases)
    it(`${JSON.stringify(args)} → ${want ?? "every command"}`, () => {
      expect(commandOf(program, args)).toBe(want);
    });
});
