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
    // One module graph per worker, not per test file: the suite's files import the same few
    // hundred modules (the server, the engine), and evaluating them again for each of ~290
    // files was a third of its CPU. Measured on 2 cores: 542 s → 393 s, the same 2,131 tests
    // passing. The price: module-level state lives across a worker's files, so a test never
    // counts on a fresh module (memos, registered secrets) — none does today.
    isolate: false,
  },
});
