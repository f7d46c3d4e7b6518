/**
 * Where a command's outage deadline comes from: `--outage-timeout`, else what the command
 * read (its phctl.yaml's, or doctor's 15 s), else the working directory's phctl.yaml (api,
 * export), else the client's default; a bad phctl.yaml value is one line naming the file.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { outageTimeoutOf } from "../../src/cli/outage-timeout.js";

const dirWith = (yaml?: string) => {
  const dir = mkdtempSync(join(tmpdir(), "phctl-outage-of-"));
  if (yaml !== undefined) writeFileSync(join(dir, "phctl.yaml"), yaml);
  return dir;
};

describe("outageTimeoutOf", () => {
  it("the flag, else what the command read, else ./phctl.yaml, else the default", async () => {
    const yaml = dirWith("outageTimeout: 45s\n");
    expect(await outageTimeoutOf("1m30s", 15_000, yaml)).toBe(90_000);
    expect(await outageTimeoutOf(undefined, 15_000, yaml)).toBe(15_000);
    expect(await outageTimeoutOf(undefined, undefined, yaml)).toBe(45_000);
    expect(await outageTimeoutOf(undefined, undefined, dirWith("maxRps: 5\n"))).toBeUndefined();
    expect(await outageTimeoutOf(undefined, undefined, dirWith())).toBeUndefined();
  });

  it("bad values: the flag or the file named, in one line", async () => {
    await expect(outageTimeoutOf("0s", undefined, dirWith())).rejects.toThrow(
      "--outage-timeout must be a duration such as 90s, 2m or 1h30m (got 0s)",
    );
    await expect(
      outageTimeoutOf(undefined, undefined, dirWith("outageTimeout: 5\n")),
    ).rejects.toThrow(
      "phctl.yaml: outageTimeout must be a duration such as 90s, 2m or 1h30m (got 5); run phctl validate",
    );
  });
});
