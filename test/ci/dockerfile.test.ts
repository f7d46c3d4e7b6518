/**
 * The Dockerfile, linted and checked by rule, since no image can be built where the tests run
 * (no container engine; hadolint is neither an npm nor a Debian package). The lint is
 * dockerfile-utils' validator (the Docker language service's: instructions, flags, syntax);
 * the rules are read from dockerfile-ast's parse: multi-stage, a Node 20 slim base pinned by
 * digest (scripts/update-base-image.sh updates it), git trusting a checkout another user owns
 * (its system config, applied here to a real repository: the image runs as root in GitHub's
 * container jobs and as node by default), the compilers in the build stage only, production dependencies from the
 * lockfile in the image with the native module built in the build stage, a non-root user,
 * phctl as the entrypoint, the OCI labels, no secret, and a .dockerignore that lets in only
 * what is copied.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DockerfileParser, type Copy, type Instruction } from "dockerfile-ast";
import { validate } from "dockerfile-utils";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const text = readFileSync(join(ROOT, "Dockerfile"), "utf8");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const file = DockerfileParser.parse(text);
const all = file.getInstructions();
const args = (i: Instruction) => i.getArgumentsContent() ?? "";
/** A COPY's source stage (its --from flag), or undefined for the build context. */
const copyFrom = (i: Instruction) =>
  (i as Copy)
    .getFlags()
    .find((f) => f.getName() === "from")
    ?.getValue() ?? undefined;
const copies = (stage: Instruction[]) => stage.filter((i) => i.getKeyword() === "COPY") as Copy[]; // prettier-ignore

/** The instructions of each stage, from its FROM to the next. */
const stages: Instruction[][] = [];
for (const i of all) {
  if (i.getKeyword() === "FROM") stages.push([]);
  stages.at(-1)?.push(i);
}
const final = stages.at(-1)!;
const builders = stages.slice(0, -1);
const runs = (stage: Instruction[]) => stage.filter((i) => i.getKeyword() === "RUN").map(args);
/** Global ARG defaults (before the first FROM), as FROM lines expand them. */
const globals = Object.fromEntries(
  all
    .slice(
      0,
      all.findIndex((i) => i.getKeyword() === "FROM"),
    )
    .filter((i) => i.getKeyword() === "ARG")
    .map((i) => args(i).split("=") as [string, string]),
);
const COMPILERS = /\b(python3|make|g\+\+|gcc|build-essential)\b/;

describe("Dockerfile", () => {
  it("lints clean (dockerfile-utils), and the linter is live", () => {
    expect(validate(text)).toEqual([]);
    expect(validate("FROM node:20-bookworm-slim\nRUNN true\nEXPOSE abc\n").length).toBeGreaterThan(1); // prettier-ignore
  });

  it("is multi-stage, every stage on a Node 20 slim image pinned by digest", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) {
      const image = args(stage[0]).split(/\s+/)[0].replace(/^\$\{(\w+)\}$/, (_, a: string) => globals[a] ?? ""); // prettier-ignore
      expect(image).toMatch(/^node:20(\.\d+){0,2}-[a-z]+-slim@sha256:[0-9a-f]{64}$/);
    }
    // one command updates the digest: the script rewrites exactly the line the stages expand
    const script = readFileSync(join(ROOT, "scripts/update-base-image.sh"), "utf8");
    expect(text).toContain("scripts/update-base-image.sh");
    expect(script).toContain("docker buildx imagetools inspect");
    const rewrite = /sed -i -E "s\|\^ARG NODE_IMAGE=\.\*\$\|ARG NODE_IMAGE=\$tag@\$digest\|"/;
    expect(script).toMatch(rewrite);
    expect(text.match(/^ARG NODE_IMAGE=.*$/gm)).toHaveLength(1);
  });

  it("lets git work on a checkout another user owns, as root and as node (dubious ownership)", () => {
    // The image's system git config, made by its own RUN line, in a file of this test's.
    const config = (runs(final)
      .join(" && ")
      .match(/git config --system [^&]*/) ?? [""])[0].trim();
    expect(config).not.toBe("");
    const dir = mkdtempSync(join(tmpdir(), "phctl-docker-git-"));
    const system = join(dir, "gitconfig");
    const env = { ...process.env, GIT_CONFIG_SYSTEM: system, GIT_CONFIG_GLOBAL: "/dev/null", HOME: dir }; // prettier-ignore
    execFileSync("sh", ["-c", config], { env });
    const repo = join(dir, "checkout");
    execFileSync("git", ["init", "-q", repo], { env });
    execFileSync("chmod", ["-R", "a+rX", dir]); // the other user may read the checkout
    // Another owner: for real where the tests run as root (the checkout chowned to node's uid
    // and back, git run as each), else git's own switch that takes the owner for another.
    const root = process.getuid?.() === 0;
    const status = (uid: number | undefined, sys: string) =>
      spawnSync("git", ["-C", repo, "status", "--short"], {
        encoding: "utf8",
        env: { ...env, GIT_CONFIG_SYSTEM: sys, ...(root ? {} : { GIT_TEST_ASSUME_DIFFERENT_OWNER: "1" }) }, // prettier-ignore
        ...(root && uid !== undefined ? { uid } : {}),
      });
    for (const [owner, runAs] of [
      [1000, 0],
      [0, 1000],
    ] as const) {
      if (root) execFileSync("chown", ["-R", `${owner}:${owner}`, dir]);
      const without = status(runAs, "/dev/null");
      expect(without.stderr).toContain("dubious ownership"); // the check is live
      const withConfig = status(runAs, system);
      expect(withConfig.stderr, `git as uid ${runAs} on a checkout of uid ${owner}`).toBe("");
      expect(withConfig.status).toBe(0);
    }
  });

  it("builds better-sqlite3 in the build stage, the only one with a compiler", () => {
    expect(builders.flatMap(runs).join("\n")).toMatch(COMPILERS);
    expect(builders.flatMap(runs).join("\n")).toMatch(/npm rebuild better-sqlite3/);
    expect(runs(final).filter((r) => COMPILERS.test(r))).toEqual([]);
  });

  it("installs production dependencies from the lockfile in the image, running no install script", () => {
    const npm = runs(final).flatMap((r) => r.match(/npm (ci|install|i)\b[^&;]*/g) ?? []);
    expect(npm).toEqual([expect.stringMatching(/^npm ci --omit=dev --ignore-scripts\b/)]);
    const fromBuild = copies(final)
      .filter((i) => copyFrom(i) === "build")
      .map(args);
    expect(fromBuild).toContainEqual(expect.stringMatching(/\/better_sqlite3\.node /));
    expect(fromBuild).toContain("/build/dist dist");
  });

  it("runs as a user that is not root, with phctl as the entrypoint (exec form)", () => {
    const user = final
      .filter((i) => i.getKeyword() === "USER")
      .map(args)
      .at(-1);
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const entry = final.filter((i) => i.getKeyword() === "ENTRYPOINT").map(args);
    expect(entry.map((e) => JSON.parse(e))).toEqual([["phctl"]]);
    expect(runs(final).join("\n")).toContain("ln -s /opt/phctl/dist/cli/main.js /usr/local/bin/phctl"); // prettier-ignore
  });

  it("carries the OCI image labels, its version and licence those of package.json", () => {
    const labels = final
      .filter((i) => i.getKeyword() === "LABEL")
      .map(args)
      .join(" ");
    const keys = [...labels.matchAll(/org\.opencontainers\.image\.([a-z.]+)=/g)].map((m) => m[1]);
    expect(keys).toEqual(expect.arrayContaining(["title", "description", "version", "revision", "source", "licenses"])); // prettier-ignore
    expect(labels).toContain(`org.opencontainers.image.licenses="${pkg.license}"`);
    expect(final.map(args)).toContain(`PHCTL_VERSION=${pkg.version}`);
  });

  it("holds no secret: no credential ENV or ARG, no .npmrc copied", () => {
    const named = all
      .filter((i) => ["ENV", "ARG"].includes(i.getKeyword()))
      .map((i) => args(i).split(/[=\s]/)[0]);
    expect(named.filter((n) => /TOKEN|SECRET|PASSW|CREDENTIAL|AUTH|_KEY$/i.test(n))).toEqual([]);
    expect(text).not.toMatch(/\.npmrc|PHCTL_TOKEN/);
  });

  it("has a .dockerignore that lets in only what the build stage copies", () => {
    const lines = readFileSync(join(ROOT, ".dockerignore"), "utf8").split("\n").filter((l) => l && !l.startsWith("#")); // prettier-ignore
    expect(lines[0]).toBe("*");
    const allowed = lines
      .filter((l) => l.startsWith("!"))
      .map((l) => l.slice(1).replace(/\/$/, ""));
    const sources = copies(all)
      .filter((i) => copyFrom(i) === undefined)
      .flatMap((i) => args(i).split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(3);
    for (const s of sources) expect(allowed, s).toContain(s.replace(/\/$/, ""));
    for (const never of ["node_modules", "dist", ".git", ".phctl", ".npmrc"])
      expect(allowed.filter((a) => a.split("/")[0] === never)).toEqual([]);
  });
});
