/**
 * What `phctl report access --propose` costs (issue 38: "no more API calls than the access
 * review plus one per pull request it opens", at size M). One seeded reference server (the
 * generated organization with synthetic activity, so some users are inactive with write) in
 * a child process, `grants` live-only grants added through the API, and the fake GitHub in
 * this process holding the config's repository. The built CLI runs the review alone, then
 * with `--propose` (it opens the pull requests), then with `--propose` again (it opens
 * nothing). Service calls are the server's request log of each run; platform calls the
 * fake's, split into reads and writes. Used by bench/propose.ts and the smoke test.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { ApiClient } from "../src/api/client.js";
import { GITHUB_TOKENS, startFakeGitHub } from "../test/helpers/fake-github.js";
import type { LoggedRequest } from "../test/helpers/fake-platform.js";
import { generate, SIZES, slugOf, writeOrganization, type Size } from "./generate.js";
import { clearLog, MAIN, readLog, runNode, serve, writeExitHook } from "./serve.js";

const TOKEN = "bench-token-propose";
const REPO = "acme/config";

export interface ProposeOptions {
  size: Size;
  /** Live-only grants added through the API (one per project, the first N projects). */
  grants: number;
  latency: number;
  /** --max-requests of the --propose runs (the bench opens them all in one run). */
  maxRequests: number;
  log?: (s: string) => void;
}

export interface PlatformCalls {
  reads: number;
  writes: number;
  /** Method and path (no query, ids as N) → count. */
  byRoute: Record<string, number>;
}

export interface ProposeResult {
  size: Size;
  latency: number;
  grants: number;
  /** Service calls of the review alone, with --propose, and with --propose again. */
  review: number;
  propose: number;
  again: number;
  /** Pull requests the first --propose opened; the second run's outcome line. */
  opened: number;
  againLine: string;
  /** Findings' rows that became edits, and lines saying what was not proposed. */
  notProposed: number;
  first: PlatformCalls;
  second: PlatformCalls;
  wallMs: { review: number; propose: number; again: number };
  /** Service calls equal the review's, and the second run wrote nothing. */
  within: boolean;
}

function platform(log: readonly LoggedRequest[]): PlatformCalls {
  const byRoute: Record<string, number> = {};
  for (const r of log) {
    const route = `${r.method} ${decodeURIComponent(r.path.split("?")[0])
      .replace(/\/repos\/[^/]+\/[^/]+/, "")
      .replace(/\/\d+(\/|$)/g, "/N$1")
      .replace(/\/[0-9a-f]{40}$/, "/SHA")
      .replace(/heads\/phctl\/access-review\/.+$/, "heads/phctl/access-review/P")}`;
    byRoute[route] = (byRoute[route] ?? 0) + 1;
  }
  const writes = log.filter((r) => r.method !== "GET").length;
  return { reads: log.length - writes, writes, byRoute };
}

export async function proposeBench(o: ProposeOptions): Promise<ProposeResult> {
  const log = o.log ?? (() => {});
  const root = mkdtempSync(join(tmpdir(), "phctl-bench-propose-"));
  const gh = await startFakeGitHub();
  try {
    const org = generate(SIZES[o.size], { activity: 7 });
    const { dir, seed } = writeOrganization(org, root);
    execFileSync("git", ["init", "-q", root]);
    gh.git.seedBranch(
      REPO,
      "main",
      Object.fromEntries(org.files.map((f) => [relative(root, join(dir, f.file)), f.content])),
    );
    const hook = writeExitHook(root);
    const { url, child } = await serve({ token: TOKEN, seedFile: seed, latency: o.latency });
    const api = new ApiClient({ apiUrl: url, token: TOKEN, concurrency: 8 });
    try {
      // Live-only grants: a user not on the project yet, as developer, on the first N projects.
      const users = org.seed.users?.map((u) => u.username) ?? [];
      for (let p = 0; p < o.grants; p++) {
        const project = org.seed.projects?.find((x) => x.slug === slugOf(p));
        const held = new Set(Object.values(project?.access ?? {}).flat());
        const username = users.find((u, i) => i % 97 === p % 97 && !held.has(u)) ?? users.find((u) => !held.has(u))!; // prettier-ignore
        await api.callAndWait("access.addUser", {
          params: { projectSlug: slugOf(p), level: "developers", username },
        });
      }
      const env = {
        PHCTL_TOKEN: TOKEN,
        PHCTL_API_URL: url,
        NO_COLOR: "1",
        GITHUB_API_URL: gh.url,
        GITHUB_REPOSITORY: REPO,
        GITHUB_TOKEN: GITHUB_TOKENS.write,
        GITHUB_REF_NAME: "main",
      };
      const out = join(root, "review.json");
      const run = async (extra: string[], what: string) => {
        await clearLog(api);
        const from = gh.requests.length;
        const r = await runNode([MAIN, "report", "access", dir, "--format", "json", "--out", out, ...extra], { env, hook, cwd: root }); // prettier-ignore
        if (r.code !== 0) throw new Error(`${what} exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
        const calls = (await readLog(api)).length;
        log(`${what}: ${calls} service calls, ${gh.requests.length - from} platform calls, ${r.wallMs.toFixed(0)} ms`); // prettier-ignore
        return { calls, platform: gh.requests.slice(from), stderr: r.stderr, wallMs: r.wallMs };
      };
      const review = await run([], "report access");
      const max = ["--max-requests", String(o.maxRequests)];
      const first = await run(["--propose", ...max], "report access --propose");
      const again = await run(["--propose", ...max], "report access --propose (again)");
      JSON.parse(readFileSync(out, "utf8"));
      const outcome = (stderr: string) => /propose: (\d+) opened, .*/.exec(stderr);
      const opened = Number(outcome(first.stderr)?.[1] ?? NaN);
      const second = platform(again.platform);
      return {
        size: o.size,
        latency: o.latency,
        grants: o.grants,
        review: review.calls,
        propose: first.calls,
        again: again.calls,
        opened,
        againLine: outcome(again.stderr)?.[0] ?? "(none)",
        notProposed: first.stderr.split("\n").filter((l) => l.includes("not proposed")).length,
        first: platform(first.platform),
        second,
        wallMs: { review: review.wallMs, propose: first.wallMs, again: again.wallMs },
        within: first.calls === review.calls && again.calls === review.calls && second.writes === 0, // prettier-ignore
      };
    } finally {
      await api.close();
      child.kill();
    }
  } finally {
    await gh.close();
    rmSync(root, { recursive: true, force: true });
  }
}
