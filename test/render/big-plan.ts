/**
 * A plan the size the CI loop meets on a busy day (issue 27): 1,714 changes in 200 projects
 * and the users — 1,580 updates (repository descriptions, user names), 100 creates
 * (repositories, user accesses), 25 deletions (10 repositories in 2 projects, 15 access
 * removals), 5 support tickets and 4 blocked entries: 1,705 to apply.
 */
import type { Plan, PlanEntry } from "../../src/engine/plan.js";
import { entry, plan } from "./markdown-plans.js";

const slug = (i: number) => `platform-component-${String(i).padStart(3, "0")}`;

export function bigPlan(): Plan {
  const out: PlanEntry[] = [];
  for (let i = 0; i < 1_570; i++) {
    const p = slug(i % 200);
    out.push(
      entry(`project/${p}/repo/${p}-module-${Math.floor(i / 200)}`, "update", {
        changes: [
          { field: "description", before: "Old description", after: `Module ${i} of ${p}` },
        ],
        source: { file: `projects/${p}.yaml`, line: 10 + Math.floor(i / 200) },
      }),
    );
  }
  for (let i = 0; i < 10; i++)
    out.push(
      entry(`user/developer-${i}`, "update", {
        kind: "User",
        changes: [{ field: "lastName", before: "Old", after: `New ${i}` }],
        source: { file: "users/acme.yaml", line: 3 + i },
      }),
    );
  for (let i = 0; i < 40; i++)
    out.push(entry(`project/${slug(i * 5)}/repo/new-service-${i}`, "create"));
  for (let i = 0; i < 60; i++)
    out.push(
      entry(`project/${slug(i * 3)}/access/developers/user/contractor-${i}`, "create", {
        kind: "ProjectAccess",
        after: { level: "developers", username: `contractor-${i}` },
      }),
    );
  for (let i = 0; i < 10; i++)
    out.push(entry(`project/${slug(i % 2 === 0 ? 7 : 150)}/repo/legacy-tool-${i}`, "delete"));
  for (let i = 0; i < 15; i++)
    out.push(
      entry(`project/${slug(i * 11)}/access/maintainers/user/former-${i}`, "delete", {
        kind: "ProjectAccess",
        before: { level: "maintainers", username: `former-${i}` },
      }),
    );
  for (let i = 0; i < 5; i++)
    out.push(
      entry(`project/${slug(i * 40)}`, "ticket", {
        kind: "Project",
        changes: [{ field: "visibility", before: "private", after: "public" }],
        ticket: { subject: `Change the visibility of ${slug(i * 40)} to public`, body: "Please." },
      }),
    );
  for (let i = 0; i < 4; i++)
    out.push(
      entry(`user/renamed-${i}`, "blocked", {
        kind: "User",
        changes: [{ field: "externalEmail", before: "a@old.example", after: "a@example.org" }],
        blocked: {
          field: "externalEmail",
          reason:
            "externalEmail is immutable: the email cannot be changed after the user is created",
        },
      }),
    );
  return plan(out);
}
