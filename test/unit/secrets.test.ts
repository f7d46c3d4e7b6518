/**
 * src/secrets.ts, the one redactor: registered credentials and the well-known token shapes
 * are masked visibly; ordinary words, short look-alikes and slugs are left alone; structured
 * data stays well-formed; a guarded stream masks whatever is written to it.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  credentialIn,
  guardOutput,
  holdsSecret,
  redact,
  redactValue,
  registerEnvironmentSecrets,
  registerSecret,
} from "../../src/secrets.js";

const GHP = `ghp_${"A1b2C3d4E5".repeat(4)}`;
const GHS = `ghs_${"Zz9Yy8Xx7W".repeat(4)}`;
const PAT = `github_pat_11ABCDEFG0${"a1B2c3".repeat(4)}_${"Q".repeat(20)}`;
const GLPAT = "glpat-Xy9_abcDEFghiJKLmno12";

describe("token shapes", () => {
  it("masks each shape, keeping its prefix", () => {
    expect(redact(`a ${GHP} b`)).toBe("a ghp_*** b");
    expect(redact(`(${GHS})`)).toBe("(ghs_***)");
    expect(redact(`x=${PAT};`)).toBe("x=github_pat_***;");
    expect(redact(`"${GLPAT}"`)).toBe('"glpat-***"');
    expect(redact(`xghp_${"A".repeat(36)}`)).toBe("xghp_***"); // wherever it starts (issue 34)
    for (const p of ["gho_", "ghu_", "ghr_"])
      expect(redact(`${p}${"k".repeat(36)}`)).toBe(`${p}***`);
  });

  it("leaves ordinary words, short look-alikes and slugs alone", () => {
    const words = [
      "ghp_ alone",
      "ghp_short123",
      "glpat-x",
      "glpat-migration-tools-2024",
      "project/tf-a/repo/tf-a-tests",
      "trusted-firmware-a",
    ];
    for (const w of words) expect(redact(w)).toBe(w);
    expect(credentialIn("glpat-migration-tools-2024 and ghp_")).toBeUndefined();
    expect(credentialIn(`see ${GHP}`)).toBe("a GitHub token (ghp_…)");
  });
});

describe("registered credentials", () => {
  it("masks the environment's tokens and registered ones as ***", () => {
    registerEnvironmentSecrets({
      PHCTL_TOKEN: "env-token-aaaa",
      GITHUB_TOKEN: "gh-env-bbbb",
      PHCTL_GITLAB_TOKEN: "gl-env-cccc",
      PHCTL_GIT_TOKEN: "git-env-dddd",
    });
    registerSecret("file-token-eeee\n");
    const text = "env-token-aaaa gh-env-bbbb gl-env-cccc git-env-dddd file-token-eeee";
    expect(redact(text)).toBe("*** *** *** *** ***");
    expect(holdsSecret("nothing here")).toBe(false);
  });

  it("masks values in data, keys included, and keeps JSON valid", () => {
    registerSecret('quo"te-token');
    const data = { a: [`x ${GHP}`, 1, null], 'quo"te-token': { b: 'say quo"te-token' } };
    const out = redactValue(data);
    expect(out).toEqual({ a: ["x ghp_***", 1, null], "***": { b: "say ***" } });
    expect(JSON.parse(JSON.stringify(out))).toEqual(out);
    expect(data.a[0]).toBe(`x ${GHP}`); // the input is not changed
  });

  it("a guarded stream masks strings and buffers", () => {
    const stream = new PassThrough() as unknown as NodeJS.WriteStream;
    const seen: string[] = [];
    (stream as unknown as PassThrough).on("data", (c: Buffer) => seen.push(String(c)));
    guardOutput(stream);
    guardOutput(stream); // twice is once
    stream.write(`token ${GLPAT}\n`);
    stream.write(Buffer.from(`buffer ${GHS}\n`));
    stream.write(Buffer.from("plain\n"));
    expect(seen.join("")).toBe("token glpat-***\nbuffer ghs_***\nplain\n");
  });
});
