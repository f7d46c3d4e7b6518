/** Run the built CLI (`node dist/cli/main.js`) as a user would, capturing everything it prints. */
import { execFile } from "node:child_process";
import { join } from "node:path";

export const MAIN = join(import.meta.dirname, "../../dist/cli/main.js");

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function phctl(
  args: string[],
  env: Record<string, string | undefined>,
  cwd?: string,
): Promise<Run> {
  const full: Record<string, string> = {};
  for (const [k, v] of Object.entries({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: "1",
    ...env,
  })) {
    if (v !== undefined) full[k] = v;
  }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      { env: full, cwd, timeout: 120_000 },
      (err, stdout, stderr) => {
        resolve({
          code: err ? ((err as { code?: number }).code ?? 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        });
      },
    );
  });
}
