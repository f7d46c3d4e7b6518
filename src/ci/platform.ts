/**
 * Where phctl runs in CI, read from the platform's standard variables (and, on GitHub, the
 * event file): the API and its token, the project, the pull/merge request when the event
 * names one, the commits and run link for the comment's footer, and whether the token can
 * comment at all (a pull request from a fork gets a read-only GITHUB_TOKEN). Reads the
 * environment it is given and the event file only; no API call.
 */
import { readFileSync } from "node:fs";
import { userError } from "../errors.js";

/** The comment footer (renderMarkdown's `footer`). */
export interface Footer {
  baseCommit?: string;
  headCommit?: string;
  runUrl?: string;
}

export interface CiContext {
  platform: "github" | "gitlab";
  /** "GitHub" / "GitLab", for messages. */
  name: string;
  apiUrl: string;
  /** GitHub "owner/name"; GitLab CI_PROJECT_ID (or path). */
  project: string;
  /** GitLab CI_PROJECT_URL, to link to a note. */
  projectUrl?: string;
  /** A token that can comment; undefined with `noToken` saying why. */
  token?: string;
  noToken?: string;
  /** The pull/merge request the event names, if any. */
  number?: number;
  /** The thread is an issue (GitHub issue_comment on an issue), not a pull request. */
  isIssue?: boolean;
  /** The commit this job runs on (the apply job looks up its merged pull request). */
  sha?: string;
  footer: Footer;
  /** "run 123" / "pipeline 456", linked to the run: the outcome line names it. */
  run?: { label: string; url?: string };
  /** GitHub's step summary file. */
  stepSummary?: string;
  /** The platform's comment size limit, characters. */
  maxChars: number;
}

/** What the platform calls a change under review: GitHub's pull request, GitLab's merge request. */
export const requestWord = (platform: CiContext["platform"]): "pull request" | "merge request" =>
  platform === "github" ? "pull request" : "merge request";

export const GITHUB_MAX_CHARS = 65_536;
export const GITLAB_MAX_CHARS = 1_000_000;

type Env = Record<string, string | undefined>;

const set = (v: string | undefined): string | undefined => (v?.trim() ? v.trim() : undefined);
const str = (v: unknown): string | undefined =>
  typeof v === "string" && v ? v : typeof v === "number" ? String(v) : undefined;
const num = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isInteger(v) && v > 0 ? v : undefined;

/** GitHub's event payload (GITHUB_EVENT_PATH): only what phctl looks at. */
interface GitHubEvent {
  pull_request?: {
    number?: unknown;
    base?: { sha?: unknown; repo?: { full_name?: unknown } };
    head?: { sha?: unknown; repo?: { full_name?: unknown } | null };
  };
  issue?: { number?: unknown; pull_request?: unknown };
}

function readEvent(file: string | undefined): GitHubEvent {
  if (!file) return {};
  try {
    const data: unknown = JSON.parse(readFileSync(file, "utf8"));
    return data && typeof data === "object" ? data : {};
  } catch (e) {
    throw userError(
      "BAD_CI_EVENT",
      `cannot read the GitHub event file ${file} (GITHUB_EVENT_PATH): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; unset GITHUB_EVENT_PATH and pass --pr N`,
    );
  }
}

function github(env: Env): CiContext {
  const project = set(env.GITHUB_REPOSITORY) ?? "";
  if (!/^[^/\s]+\/[^/\s]+$/.test(project))
    throw userError(
      "CI_CONTEXT",
      `GITHUB_REPOSITORY must be "owner/name" (got ${project ? `"${project}"` : "nothing"}): GitHub Actions sets it; elsewhere set it yourself`,
    );
  const event = readEvent(set(env.GITHUB_EVENT_PATH));
  const pr = event.pull_request;
  const issue = event.issue;
  const number = num(pr?.number) ?? num(issue?.number);
  const headRepo = str(pr?.head?.repo?.full_name);
  const baseRepo = str(pr?.base?.repo?.full_name);
  // pull_request_target runs in the base repository with its (writable) token.
  const fork =
    pr !== undefined &&
    headRepo !== baseRepo &&
    set(env.GITHUB_EVENT_NAME) !== "pull_request_target";
  const token = set(env.GITHUB_TOKEN);
  const server = (set(env.GITHUB_SERVER_URL) ?? "https://github.com").replace(/\/+$/, "");
  const runId = set(env.GITHUB_RUN_ID);
  const runUrl = runId ? `${server}/${project}/actions/runs/${runId}` : undefined;
  const headCommit = str(pr?.head?.sha) ?? set(env.GITHUB_SHA);
  const baseCommit = str(pr?.base?.sha);
  const sha = set(env.GITHUB_SHA);
  const summary = set(env.GITHUB_STEP_SUMMARY);
  return {
    platform: "github",
    name: "GitHub",
    apiUrl: (set(env.GITHUB_API_URL) ?? "https://api.github.com").replace(/\/+$/, ""),
    project,
    ...(fork
      ? {
          noToken: `pull request from the fork ${headRepo ?? "(deleted)"}: GitHub gives its workflow a read-only GITHUB_TOKEN`,
        }
      : token
        ? { token }
        : { noToken: "GITHUB_TOKEN is not set" }),
    ...(number !== undefined ? { number } : {}),
    ...(!pr && issue && !issue.pull_request ? { isIssue: true } : {}),
    ...(sha ? { sha } : {}),
    footer: {
      ...(baseCommit ? { baseCommit } : {}),
      ...(headCommit ? { headCommit } : {}),
      ...(runUrl ? { runUrl } : {}),
    },
    ...(runId
      ? {
          run: {
            label: `run ${set(env.GITHUB_RUN_NUMBER) ?? runId}`,
            ...(runUrl ? { url: runUrl } : {}),
          },
        }
      : {}),
    ...(summary ? { stepSummary: summary } : {}),
    maxChars: GITHUB_MAX_CHARS,
  };
}

function gitlab(env: Env): CiContext {
  const project = set(env.CI_PROJECT_ID) ?? set(env.CI_PROJECT_PATH);
  if (!project)
    throw userError(
      "CI_CONTEXT",
      "CI_PROJECT_ID is not set: GitLab CI sets it; elsewhere set CI_PROJECT_ID (and CI_API_V4_URL)",
    );
  const server = set(env.CI_SERVER_URL)?.replace(/\/+$/, "") ?? "https://gitlab.com";
  const iid = set(env.CI_MERGE_REQUEST_IID);
  const number = iid && /^\d+$/.test(iid) ? Number(iid) : undefined;
  const token = set(env.PHCTL_GITLAB_TOKEN) ?? set(env.GITLAB_TOKEN);
  const sha = set(env.CI_COMMIT_SHA);
  const base = set(env.CI_MERGE_REQUEST_DIFF_BASE_SHA);
  const runUrl = set(env.CI_PIPELINE_URL);
  const pipeline = set(env.CI_PIPELINE_ID);
  const projectUrl = set(env.CI_PROJECT_URL);
  return {
    platform: "gitlab",
    name: "GitLab",
    apiUrl: (set(env.CI_API_V4_URL) ?? `${server}/api/v4`).replace(/\/+$/, ""),
    project,
    ...(projectUrl ? { projectUrl } : {}),
    ...(token ? { token } : { noToken: "neither PHCTL_GITLAB_TOKEN nor GITLAB_TOKEN is set" }),
    ...(number !== undefined ? { number } : {}),
    ...(sha ? { sha } : {}),
    footer: {
      ...(base ? { baseCommit: base } : {}),
      ...(sha ? { headCommit: sha } : {}),
      ...(runUrl ? { runUrl } : {}),
    },
    ...(pipeline || runUrl
      ? { run: { label: `pipeline ${pipeline ?? ""}`.trim(), ...(runUrl ? { url: runUrl } : {}) } }
      : {}),
    maxChars: GITLAB_MAX_CHARS,
  };
}

/**
 * The context of a platform named by the user (`drift --report github-issue`), whatever the
 * variables say about where phctl runs.
 */
export function contextFor(platform: "github" | "gitlab", env: Env): CiContext {
  return platform === "github" ? github(env) : gitlab(env);
}

/** Does phctl run in (or was it told about) GitHub Actions or GitLab CI? */
export function inCi(env: Env): boolean {
  return (
    set(env.GITHUB_ACTIONS) === "true" ||
    set(env.GITLAB_CI) === "true" ||
    set(env.GITHUB_REPOSITORY) !== undefined ||
    set(env.CI_API_V4_URL) !== undefined ||
    set(env.CI_PROJECT_ID) !== undefined
  );
}

/**
 * Outside CI (`phctl comment` on a laptop): no platform to post to, so no token; the comment
 * goes to stdout as GitHub would show it.
 */
export function localContext(): CiContext {
  return {
    platform: "github",
    name: "GitHub",
    apiUrl: "",
    project: "",
    noToken: "not in GitHub Actions or GitLab CI",
    footer: {},
    maxChars: GITHUB_MAX_CHARS,
  };
}

/** The CI platform phctl runs on, from its variables; an error when it is neither. */
export function detectContext(env: Env): CiContext {
  if (set(env.GITHUB_ACTIONS) === "true") return github(env);
  if (set(env.GITLAB_CI) === "true") return gitlab(env);
  if (set(env.GITHUB_REPOSITORY)) return github(env);
  if (set(env.CI_API_V4_URL) || set(env.CI_PROJECT_ID)) return gitlab(env);
  throw userError(
    "CI_CONTEXT",
    "not in GitHub Actions or GitLab CI: set GITHUB_REPOSITORY and GITHUB_TOKEN (GitHub), or CI_API_V4_URL, CI_PROJECT_ID and PHCTL_GITLAB_TOKEN (GitLab)",
  );
}
