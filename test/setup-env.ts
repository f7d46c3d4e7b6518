/**
 * The suite runs the CLI as a developer's shell would, wherever it runs: a CI runner's own
 * settings (CI=true turns on JSON event logs; GITHUB_* and CI_* name a pull request, a
 * platform URL, a token; PHCTL_* name a server and a token) never leak into the children the
 * tests start. A test that needs one of them sets it on the child it starts. The suite's own
 * knobs (the PHCTL_ ones below, and the browser README names) stay.
 */
const CI_SETTING =
  /^(CI|GITHUB_.*|GITLAB_.*|CI_.*|RUNNER_.*|ACTIONS_.*|PHCTL_.*|BUILDKITE.*|JENKINS_URL|TF_BUILD)$/;
const SUITE_KNOB = new Set([
  "PHCTL_CHROMIUM", // README: the browser the HTML report's test drives
  "PHCTL_ROUTE_COVERAGE",
  "PHCTL_FC_RUNS",
  "PHCTL_PROPERTY_RUNS",
]);
for (const name of Object.keys(process.env))
  if (CI_SETTING.test(name) && !SUITE_KNOB.has(name)) delete process.env[name];
