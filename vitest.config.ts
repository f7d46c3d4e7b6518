import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // vitest's default on 2 cores is 1 worker (cores - 1), but most of the suite waits — on
    // the CLI's child processes, servers, backoffs — rather than computing: 3 overlap it.
    maxWorkers: 3,
  },
});
