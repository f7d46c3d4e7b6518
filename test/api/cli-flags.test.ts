/**
 * Numeric options (src/cli/flags.ts): one parser, one-line errors naming the flag; and the
 * throttle's precedence, --max-rps > PHCTL_MAX_RPS > phctl.yaml's maxRps (src/cli/config.ts).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { maxRpsOfWorkingDirectory, resolveConfig } from "../../src/cli/config.js";
import {
  CONCURRENCY,
  MAX_RPS,
  numberOption,
  parseNumberFlag,
  type NumberRule,
} from "../../src/cli/flags.js";
import { PhctlError } from "../../src/errors.js";
import { normaliseConfig, serviceOf } from "../../src/manifest/settings.js";

const message = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(PhctlError);
    expect((e as PhctlError).exitCode).toBe(1);
    return (e as PhctlError).message;
  }
  throw new Error("no error");
};

describe("parseNumberFlag", () => {
  it("takes plain decimal numbers in range, and says what it takes otherwise", () => {
    expect(parseNumberFlag("--concurrency", "8", CONCURRENCY)).toBe(8);
    expect(parseNumberFlag("--concurrency", " 64 ", CONCURRENCY)).toBe(64);
    for (const bad of ["1.5", "0", "65", "-1", "1e1", "0x10", "eight", "8 8"])
      expect(message(() => parseNumberFlag("--concurrency", bad, CONCURRENCY))).toBe(
        `--concurrency must be a whole number from 1 to 64 (got ${bad})`,
      );
    expect(message(() => parseNumberFlag("--concurrency", "", CONCURRENCY))).toBe(
      '--concurrency must be a whole number from 1 to 64 (got "")',
    );
  });

  it("accepts 0 where it has a meaning, and fractions where they make sense", () => {
    expect(parseNumberFlag("--max-rps", "0", MAX_RPS)).toBe(0);
    expect(parseNumberFlag("--max-rps", "2.5", MAX_RPS)).toBe(2.5);
    expect(parseNumberFlag("--max-rps", ".5", MAX_RPS)).toBe(0.5);
    expect(message(() => parseNumberFlag("--max-rps", "0.05", MAX_RPS))).toBe(
      "--max-rps must be 0 (no throttle) or a number of requests per second from 0.1 to 10,000 (got 0.05)",
    );
    const seconds: NumberRule = { min: 0.1, max: 300, unit: "seconds" };
    expect(message(() => parseNumberFlag("--notify-timeout", "301", seconds))).toBe(
      "--notify-timeout must be a number of seconds from 0.1 to 300 (got 301)",
    );
  });

  it("checks a commander option as it is read", async () => {
    const program = new Command()
      .exitOverride()
      .option("--port <n>", "port", numberOption("--port", { min: 0, max: 65535, integer: true }))
      .action(() => {});
    await program.parseAsync(["node", "x", "--port", "8080"]);
    expect(program.opts().port).toBe(8080);
    await expect(program.parseAsync(["node", "x", "--port", "80.5"])).rejects.toThrow(
      "--port must be a whole number from 0 to 65,535 (got 80.5)",
    );
  });
});

describe("the throttle's precedence and the concurrency flag", () => {
  it("--max-rps over PHCTL_MAX_RPS over phctl.yaml, each named as the source", () => {
    const env = { PHCTL_MAX_RPS: "9" };
    expect(resolveConfig({ maxRps: "11" }, env, 7)).toMatchObject({
      maxRps: 11,
      maxRpsFrom: "--max-rps",
    });
    expect(resolveConfig({}, env, 7)).toMatchObject({ maxRps: 9, maxRpsFrom: "PHCTL_MAX_RPS" });
    expect(resolveConfig({}, {}, 7)).toMatchObject({ maxRps: 7, maxRpsFrom: "phctl.yaml" });
    expect(resolveConfig({}, {})).toMatchObject({ maxRps: 0 });
    // 0 turns phctl.yaml's throttle off.
    expect(resolveConfig({ maxRps: "0" }, {}, 7)).toMatchObject({ maxRps: 0 });
    expect(message(() => resolveConfig({}, { PHCTL_MAX_RPS: "fast" }))).toMatch(
      /^PHCTL_MAX_RPS must be 0 \(no throttle\) or a number/,
    );
  });

  it("refuses --concurrency 0 and 1.5 instead of taking the default or failing later", () => {
    expect(resolveConfig({ concurrency: "4" }, {}).concurrency).toBe(4);
    expect(resolveConfig({ concurrency: 8 }, {}).concurrency).toBe(8);
    expect(resolveConfig({}, {}).concurrency).toBeUndefined();
    expect(message(() => resolveConfig({ concurrency: "0" }, {}))).toBe(
      "--concurrency must be a whole number from 1 to 64 (got 0)",
    );
    expect(message(() => resolveConfig({ concurrency: "1.5" }, {}))).toBe(
      "--concurrency must be a whole number from 1 to 64 (got 1.5)",
    );
  });

  it("reads maxRps from the phctl.yaml a command read, or the working directory's", async () => {
    const config = normaliseConfig({ maxRps: 12.5 });
    expect(serviceOf(config).maxRps).toBe(12.5);
    expect(serviceOf(normaliseConfig({})).maxRps).toBeNull();
    const dir = mkdtempSync(join(tmpdir(), "phctl-maxrps-"));
    expect(await maxRpsOfWorkingDirectory(dir)).toBeUndefined();
    writeFileSync(join(dir, "phctl.yaml"), "organization: acme\nmaxRps: 3\n");
    expect(await maxRpsOfWorkingDirectory(dir)).toBe(3);
    writeFileSync(join(dir, "phctl.yaml"), "maxRps: many\n");
    await expect(maxRpsOfWorkingDirectory(dir)).rejects.toThrow(
      'phctl.yaml: maxRps must be a number of requests per second from 0.1 to 10,000 (got "many"); run phctl validate',
    );
  });
});
