/**
 * test/setup-env.ts ran before this file: whatever the runner set (CI=true, a GitHub or
 * GitLab job's variables, a phctl server and token), none of it reaches the CLI children the
 * tests start. Run under `CI=true GITHUB_ACTIONS=true PHCTL_TOKEN=x`, it fails without the
 * setup file.
 */
import { expect, it } from "vitest";

it("leaves no CI runner's variable and no phctl server or token in the suite's environment", () => {
  const leaked = Object.keys(process.env).filter(
    (k) => /^(CI|GITHUB_.*|GITLAB_.*|CI_.*|RUNNER_.*)$/.test(k) || /^PHCTL_(API_URL|TOKEN|GIT_TOKEN|GITLAB_TOKEN)$/.test(k), // prettier-ignore
  );
  expect(leaked).toEqual([]);
});
