import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup-env.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // vitest's default is cores - 1 (1 worker on 2 cores), but most of the suite waits — on
    // the CLI's child processes, servers, backoffs — rather than computing: at least 3
    // overlap it; a bigger machine keeps its default.
    maxWorkers: Math.max(3, availableParallelism() - 1),
  },
});
