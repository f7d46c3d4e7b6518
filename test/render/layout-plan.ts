/**
 * A representative plan for the text layout goldens: long keys and manifest paths, a long
 * description changed, creates with notes that repeat their lines, access removals and a
 * repository delete, a ticket with a multi-line letter, a blocked entry, an unmanaged
 * object, a warning and four-digit counts.
 */
import {
  PLAN_FORMAT_VERSION,
  summarize,
  type Plan,
  type PlanEntry,
} from "../../src/engine/plan.js";

const TFA = "projects/trusted-firmware-a.yaml";

const entries: PlanEntry[] = [
  {
    key: "project/trusted-firmware-a/repo/trusted-firmware-a-tests",
    kind: "Repository",
    action: "create",
    before: null,
    after: {
      name: "trusted-firmware-a-tests",
      subgroup: "",
      description: "Integration tests for the secure-world firmware, run nightly on FVP models",
      issueTracking: "enabled",
      displayName: undefined,
      enableForking: true,
    },
    changes: [],
    reason: "declared in the manifests, absent live",
    source: { file: TFA, line: 41, column: 9 },
    dependsOn: ["project/trusted-firmware-a/group"],
    destructive: false,
  },
  {
    key: "user/jdoe",
    kind: "User",
    action: "create",
    before: null,
    after: { firstName: "Jane", lastName: "Doe", displayName: null, role: "member" },
    changes: [],
    reason: "declared in the manifests, absent live",
    source: { file: "users/acme.yaml", line: 3, column: 3 },
    dependsOn: [],
    destructive: false,
  },
  {
    key: "project/trusted-firmware-a",
    kind: "Project",
    action: "update",
    before: { description: "Old text", title: "TF-A" },
    after: {
      description:
        "Reference implementation of secure-world software for Armv8-A, Armv9-A and Armv7-A class processors",
      title: "Trusted Firmware-A",
    },
    changes: [
      {
        field: "description",
        before: "Old text",
        after:
          "Reference implementation of secure-world software for Armv8-A, Armv9-A and Armv7-A class processors",
        source: { file: TFA, line: 10, column: 3 },
      },
      {
        field: "title",
        before: "TF-A",
        after: "Trusted Firmware-A",
        source: { file: TFA, line: 9, column: 3 },
      },
    ],
    reason: "description, title differ",
    // Located (engine/change-sources.ts): the first changed field in the file.
    source: { file: TFA, line: 9, column: 3 },
    dependsOn: [],
    destructive: false,
  },
  {
    key: "project/trusted-firmware-a/access/developers/user/mallory",
    kind: "ProjectAccess",
    action: "delete",
    before: { level: "developers", username: "mallory" },
    after: null,
    changes: [],
    reason: "access lists are authoritative: mallory is not listed",
    source: { file: TFA, line: 22, column: 5 },
    dependsOn: [],
    destructive: true,
  },
  {
    key: "project/trusted-firmware-a/repo/old-experiments",
    kind: "Repository",
    action: "delete",
    before: { name: "old-experiments" },
    after: null,
    changes: [],
    reason: "prune.repositories is on and no manifest declares it",
    source: { file: TFA, line: 30, column: 5 },
    dependsOn: [],
    destructive: true,
  },
  {
    key: "project/tf-m",
    kind: "Project",
    action: "ticket",
    before: { visibility: "private" },
    after: { visibility: "public" },
    changes: [{ field: "visibility", before: "private", after: "public" }],
    reason: "the visibility of a project cannot be changed through the API",
    source: { file: "projects/tf-m.yaml", line: 9, column: 3 },
    dependsOn: [],
    destructive: false,
    ticket: {
      subject: "Change the visibility of project tf-m from private to public",
      body: [
        "Hello,",
        "",
        "please change the visibility of project tf-m (organization acme) from private to public.",
        "The project's maintainers agreed to publish it on 2026-11-20; the manifest that asks for it is projects/tf-m.yaml, line 9.",
        "",
        "Thank you.",
      ].join("\n"),
    },
  },
  {
    key: "user/asmith",
    kind: "User",
    action: "blocked",
    before: { externalEmail: "alex.smith@old-domain.example.org" },
    after: { externalEmail: "alex.smith@example.org" },
    changes: [
      {
        field: "externalEmail",
        before: "alex.smith@old-domain.example.org",
        after: "alex.smith@example.org",
      },
    ],
    reason: "email is immutable",
    source: { file: "users/acme.yaml", line: 19, column: 3 },
    dependsOn: [],
    destructive: false,
    blocked: {
      field: "spec.externalEmail",
      reason:
        "the email cannot be changed after the user is created: create a new user with the new address and remove the old one",
    },
  },
];

export function layoutPlan(): Plan {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: "2026-11-22T00:00:00.000Z",
    apiUrl: "http://127.0.0.1:8470",
    organization: "acme",
    entries,
    unmanaged: [{ key: "user/legacy-bot", kind: "User", note: "no manifest declares it" }],
    warnings: [
      {
        message: "the irc service is deprecated: remove spec.services.irc from the manifest",
        source: { file: "users/acme.yaml", line: 30, column: 5 },
      },
    ],
    violations: [],
    summary: { ...summarize(entries, 1), create: 3022 },
    stats: { objectsRead: 1830, apiCalls: 1057, durationMs: 812 },
    fingerprints: {},
  };
}
