/**
 * The variables a scheduled CI job sets, pointed at the local fakes: GitHub Actions (the fake
 * GitHub's URL, a repository, a token, a run id) and GitLab CI (the fake GitLab's API URL, a
 * project, a pipeline). Tests of the drift, expiry and access-review issues share them.
 */

/** A scheduled GitHub Actions run. */
export function githubSchedule(o: {
  apiUrl: string;
  repo: string;
  token: string;
  runId: number | string;
  runNumber?: number;
}): Record<string, string> {
  return {
    GITHUB_ACTIONS: "true",
    GITHUB_EVENT_NAME: "schedule",
    GITHUB_API_URL: o.apiUrl,
    GITHUB_SERVER_URL: "https://github.example",
    GITHUB_REPOSITORY: o.repo,
    GITHUB_TOKEN: o.token,
    GITHUB_RUN_ID: String(o.runId),
    ...(o.runNumber !== undefined ? { GITHUB_RUN_NUMBER: String(o.runNumber) } : {}),
  };
}

/** A GitLab CI pipeline of acme/config. */
export function gitlabPipeline(o: {
  apiUrl: string;
  project: string;
  pipeline: number;
  token: string;
}): Record<string, string> {
  return {
    GITLAB_CI: "true",
    CI_API_V4_URL: o.apiUrl,
    CI_PROJECT_ID: o.project,
    CI_PIPELINE_ID: String(o.pipeline),
    CI_PIPELINE_URL: `https://gitlab.example/acme/config/-/pipelines/${o.pipeline}`,
    PHCTL_GITLAB_TOKEN: o.token,
  };
}
