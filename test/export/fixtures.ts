/**
 * Seeds and helpers the export tests share: a rich organization (forks, nested subgroups,
 * mirrors enabled and disabled, archived repositories, a private project, all six access
 * levels, organization teams, deprecated service accounts, a child organization), and the
 * in-process round trip (export → load → plan).
 */
import { ApiClient } from "../../src/api/client.js";
import { runPlan } from "../../src/engine/run-plan.js";
import type { Plan } from "../../src/engine/plan.js";
import {
  exportOrganization,
  type ExportOptions,
  type ExportResult,
} from "../../src/export/index.js";
import { loadManifestTexts } from "../../src/pipeline/load.js";
import type { Diagnostic } from "../../src/manifest/types.js";
import type { SeedDocument } from "../../src/server/seed.js";
import { TOKENS, type TestServer } from "../helpers/server.js";

const host = "git.example.org";

export function richOrganization(): SeedDocument {
  return {
    parentOrganization: "acme",
    organizations: [{ name: "acme-partner", parent: "acme" }],
    orgTeams: [
      { organization: "acme", name: "Firmware leads", path: "acme/firmware-leads" },
      { organization: "acme", name: "QA", path: "acme/qa" },
    ],
    users: [
      {
        username: "jdoe",
        firstName: "Jane",
        lastName: "Doe",
        externalEmail: "jane@example.org",
        role: "projects-admin",
        services: {
          git: { personalProjectLimit: 5 },
          artifactservice: {},
          wiki: {},
          email: { mailplan: "retention" },
        },
      },
      {
        username: "asmith",
        firstName: "Alan",
        lastName: "Smith",
        displayName: "Al Smith",
        externalEmail: "alan@example.org",
        services: { git: {}, irc: { status: "inactive" }, wiki: {} },
      },
      {
        username: "bwong",
        firstName: "Bo",
        lastName: "Wong",
        externalEmail: "bo@example.org",
        status: "inactive",
        services: { servicedesk: {} },
      },
      {
        username: "cpartner",
        firstName: "Chris",
        lastName: "Partner",
        externalEmail: "chris@partner.example",
        organization: "acme-partner",
        services: { git: { status: "inactive" } },
      },
    ],
    teams: [
      { name: "tfa-maintainers", gitservice: true, members: ["jdoe", "asmith"] },
      { name: "empty-team" },
    ],
    projects: [
      {
        slug: "trusted-firmware-a",
        name: "Trusted Firmware-A",
        description: "Reference secure-world software",
        externalContribution: true,
        restrictionLevel: "read-only",
        eccn: "EAR99",
        licenses: ["BSD-3-Clause", "Apache-2.0"],
        access: {
          admins: ["jdoe"],
          controllers: ["asmith"],
          editors: ["asmith"],
          maintainers: ["jdoe"],
          developers: ["asmith", "bwong"],
          reporters: ["cpartner"],
        },
        orgTeams: { maintainers: ["acme/firmware-leads"], reporters: ["acme/qa"] },
        git: {
          path: "tf-a",
          enableCi: true,
          subgroups: ["docs", "tools/ci/nightly"],
          repositories: [
            {
              name: "trusted-firmware-a",
              issueTracking: "enabled",
              mergeRequests: "enabled",
              requiresDCO: true,
              commitBlocker: { author: ["Example.com"], committer: ["example.com"] },
              persistentStorage: true,
            },
            { name: "guide", subgroup: "docs", mergeRequests: "private" },
            { name: "nightly", subgroup: "tools/ci/nightly", status: "archived" },
            { name: "old-tests", status: "archived", enableLFS: true, enableForking: false },
          ],
        },
        mirrors: [
          {
            repoURLFrom: "https://github.com/ARM-software/arm-trusted-firmware.git",
            repoURLTo: `ssh://git@${host}/acme/tf-a/trusted-firmware-a.git`,
            refSpaceFrom: "refs/heads/*",
            refSpaceTo: "refs/heads/*",
            frequency: "daily",
            notificationEmails: ["ops@example.org"],
          },
          {
            repoURLFrom: "https://github.com/ARM-software/tf-a-docs.git",
            repoURLTo: `ssh://git@${host}/acme/tf-a/docs/guide.git`,
            refSpaceFrom: "refs/heads/main",
            refSpaceTo: "refs/heads/upstream",
            frequency: "weekly",
            excludeTags: true,
            enabled: false,
          },
        ],
        artifacts: [{ name: "releases" }, { name: "images", repoType: "docker" }],
      },
      {
        slug: "ci-tools",
        name: "CI tools",
        git: {
          repositories: [
            {
              name: "tf-a-fork",
              forkOf: { project: "trusted-firmware-a", name: "trusted-firmware-a" },
            },
            {
              name: "guide-fork",
              forkOf: { project: "trusted-firmware-a", subgroup: "docs", name: "guide" },
            },
          ],
        },
      },
      {
        slug: "secret-sauce",
        name: "Secret sauce",
        visibility: "private",
        status: "archived",
        access: { admins: ["jdoe"] },
        git: { path: "sauce", requestAccessEnabled: true, repositories: [{ name: "sauce" }] },
      },
      { slug: "no-git", name: "No git yet", organization: "acme-partner", licenses: ["MIT"] },
    ],
  };
}

export interface RoundTrip {
  result: ExportResult;
  diagnostics: Diagnostic[];
  plan: Plan | undefined;
  /** API calls of the no-change plan. */
  planCalls: number;
}

/** Export in process, load the files as written, plan them against the same server. */
export async function roundTrip(t: TestServer, o: ExportOptions): Promise<RoundTrip> {
  const api = new ApiClient({ apiUrl: t.url, token: TOKENS.admin.secret });
  try {
    const result = await exportOrganization(api, o);
    const { state, diagnostics } = loadManifestTexts(
      result.files
        .filter((f) => f.holds !== "schema")
        .map((f) => ({ file: f.path, content: f.text, config: f.holds === "config" })),
    );
    if (!state) return { result, diagnostics, plan: undefined, planCalls: 0 };
    const plan = await runPlan({ api, state, apiUrl: t.url });
    return { result, diagnostics, plan, planCalls: plan.stats.apiCalls };
  } finally {
    await api.close();
  }
}

/** A plan's entries, one line each, for readable failures. */
export const entryLines = (plan: Plan | undefined) =>
  (plan?.entries ?? []).map((e) => `${e.action} ${e.key} ${JSON.stringify(e.changes)}`);
