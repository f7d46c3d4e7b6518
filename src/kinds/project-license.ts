/**
 * ProjectLicense (`project/<slug>/license/<id>`): a license of the catalogue assigned to a
 * project; identity only. The project's list is authoritative: an assigned license no
 * manifest lists is removed. A license that is not in the catalogue (GET /v1/licenses) is
 * not an API operation: a new license is requested by support ticket.
 *
 * Reads: no call of its own (the licenses of each declared project that exists live come
 * from the project detail the Project kind reads; the catalogue is read once by live.ts).
 */
import { createOrFind } from "../api/create-or-find.js";
import { sourceRef } from "../engine/diff.js";
import type { PlanEntry } from "../engine/plan.js";
import { licenseKey, projectKey } from "../manifest/keys.js";
import { defineKind } from "./kind.js";
import {
  declaredLiveProjects,
  fetchProject,
  field,
  goneOk,
  parentProjectKey,
} from "./project-shared.js";

export type LicenseFields = {
  project: string;
  license: string;
};

const NEW_LICENSE = "a new license is requested by support ticket";

/** Ticket text: add the license to the catalogue (and then assign it: the next apply does). */
export function licenseTicket(entry: PlanEntry): { subject: string; body: string } {
  const slug = field(entry.after, "project");
  const id = field(entry.after, "license");
  const where = entry.source ? `${entry.source.file}:${entry.source.line}` : "the manifests";
  return {
    subject: `Add license ${id} to the license catalogue for project ${slug}`,
    body: [
      "Hello,",
      "",
      `Please add the license ${id} to the license catalogue of our organization, so that it can be assigned to project "${slug}".`,
      "",
      `Why a ticket: ${id} is not in the catalogue (GET /v1/licenses), and ${NEW_LICENSE}.`,
      `Project: ${slug} (phctl key ${entry.key})`,
      `Requested by: ${where}, which lists ${id} under spec.licenses`,
      "Once the license exists, phctl assigns it to the project on its next apply.",
      "",
      "Thank you.",
    ].join("\n"),
  };
}

export const projectLicenseKind = defineKind<LicenseFields>({
  kind: "ProjectLicense",
  ownership: { mode: "authoritative", parentKey: parentProjectKey },
  immutable: {},
  destructiveDelete: false,
  desired: (state) =>
    state.projects.flatMap((p) =>
      p.licenses.map((id) => {
        const key = licenseKey(p.slug, id);
        return {
          key,
          fields: { project: p.slug, license: id },
          source: state.sources.get(key) ?? p.source,
          dependsOn: [projectKey(p.slug)],
        };
      }),
    ),
  read: async (ctx, state) =>
    (await declaredLiveProjects(ctx, state)).flatMap(({ live }) =>
      live.licenses.map((id) => ({
        key: licenseKey(live.projectSlug, id),
        fields: { project: live.projectSlug, license: id },
        ids: {},
      })),
    ),
  check: (d, l, ctx) => {
    if (l || ctx.licenses.has(d.fields.license)) return undefined;
    const entry: PlanEntry = {
      key: d.key,
      kind: "ProjectLicense",
      action: "ticket",
      before: null,
      after: { ...d.fields },
      changes: [{ field: "license", before: null, after: d.fields.license }],
      reason: `license ${d.fields.license} is not in the catalogue: ${NEW_LICENSE}`,
      source: sourceRef(d),
      dependsOn: [],
      destructive: false,
    };
    entry.ticket = licenseTicket(entry);
    return entry;
  },
  ticketText: licenseTicket,
  create: async (api, entry) => {
    const projectSlug = field(entry.after, "project");
    const name = field(entry.after, "license");
    await createOrFind(
      async () => {
        await api.call("projects.licenses.add", { params: { projectSlug, name } });
        return true;
      },
      async () =>
        (await fetchProject(api, projectSlug))?.licenses.includes(name) ? true : undefined,
    );
  },
  delete: async (api, _entry, live) => {
    const params = { projectSlug: live.fields.project, name: live.fields.license };
    await goneOk(() => api.call("projects.licenses.remove", { params }));
  },
});
