/**
 * Project (`project/<slug>`): title (the API's `name`), description, organization (when a
 * manifest or phctl.yaml names one; otherwise the token's parent organization is the server's
 * default and the field is not managed), visibility, status, externalContribution, and
 * restrictionLevel and eccn when declared. Visibility, organization and eccn cannot be
 * changed through the API (the update body has none of them): a change is a support ticket.
 * Status moves between active and archived (archive / restore); `inactive` cannot be reached
 * through the API, nor left, so such a change is blocked. Projects no manifest declares are
 * listed as not managed: deleting a project is a support ticket and is never planned.
 *
 * Reads: 1 call (the project list, all=true: existence and the undeclared projects) + 1 call
 * per declared project that exists live (its detail, shared with the license and access kinds).
 */
import type { Static } from "@sinclair/typebox";
import type { ApiClient } from "../api/client.js";
import type { UpdateProjectBody } from "../api/schemas.js";
import { createOrFind } from "../api/create-or-find.js";
import { readProjects, type LiveProject, type LiveProjectItem } from "../engine/readers.js";
import { organizationKey, projectKey } from "../manifest/keys.js";
import type { DesiredState, ProjectState } from "../manifest/types.js";
import { defineKind } from "./kind.js";
import {
  blockedStatus,
  createInactive,
  projectTicket,
  slugOf,
  unreachableStatus,
  type ProjectFields,
} from "./project-rules.js";
import { declaredLiveProjects, fetchProject } from "./project-shared.js";

export { slugOf, unreachableStatus, type ProjectFields };

export function desiredProjectFields(p: ProjectState): ProjectFields {
  return {
    title: p.title,
    description: p.description,
    ...(p.organization !== undefined ? { organization: p.organization } : {}),
    visibility: p.visibility,
    status: p.status,
    externalContribution: p.externalContribution,
    ...(p.restrictionLevel !== undefined ? { restrictionLevel: p.restrictionLevel } : {}),
    ...(p.eccn !== undefined ? { eccn: p.eccn } : {}),
  };
}

/** A declared project's live fields: only those its manifest manages, in the same order. */
export function liveProjectFields(live: LiveProject, desired: ProjectFields): ProjectFields {
  const all: Required<ProjectFields> = {
    title: live.name,
    description: live.description,
    organization: live.organization,
    visibility: live.visibility,
    status: live.status,
    externalContribution: live.externalContribution,
    restrictionLevel: live.restrictionLevel,
    eccn: live.eccn,
  };
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(desired) as (keyof ProjectFields)[]) out[k] = all[k];
  return out as ProjectFields;
}

/** An undeclared project, from the slim list (listed as not managed, never diffed). */
const listedFields = (p: LiveProjectItem): ProjectFields => ({
  title: p.name,
  description: p.description,
  organization: p.organization,
  visibility: p.visibility,
  status: p.status,
});

function dependsOn(state: DesiredState, p: ProjectState): string[] {
  const org = p.organization;
  return org !== undefined && state.organizations.some((o) => o.name === org)
    ? [organizationKey(org)]
    : [];
}

/** The patch body for the fields of `want` that differ from `have` (undefined: nothing). */
export function patchBody(
  want: ProjectFields,
  have: Partial<ProjectFields>,
): Static<typeof UpdateProjectBody> | undefined {
  const body: Static<typeof UpdateProjectBody> = {};
  if (want.title !== have.title) body.name = want.title;
  if (want.description !== have.description) body.description = want.description;
  if (want.restrictionLevel !== undefined && want.restrictionLevel !== have.restrictionLevel)
    body.restrictionLevel = want.restrictionLevel;
  if (
    want.externalContribution !== undefined &&
    want.externalContribution !== have.externalContribution
  )
    body.externalContribution = want.externalContribution;
  return Object.keys(body).length > 0 ? body : undefined;
}

/** Archive or restore, safe to repeat: an ambiguous failure re-reads the status. */
async function moveStatus(api: ApiClient, slug: string, to: "archived" | "active"): Promise<void> {
  const params = { projectSlug: slug };
  await createOrFind(
    async () => {
      if (to === "archived") await api.call("projects.archive", { params });
      else await api.call("projects.restore", { params, body: { oldproject: slug } });
      return true;
    },
    async () => ((await fetchProject(api, slug))?.status === to ? true : undefined),
  );
}

export const projectKind = defineKind<ProjectFields>({
  kind: "Project",
  ownership: { mode: "unmanaged" },
  immutable: {
    visibility: {
      action: "ticket",
      reason: "the visibility of a project cannot be changed through the API",
    },
    organization: {
      action: "ticket",
      reason: "moving a project to another organization is not an API operation",
    },
    eccn: {
      action: "ticket",
      reason: "the eccn of a project is set at creation; the update body has no eccn",
    },
  },
  destructiveDelete: true,
  desired: (state) =>
    state.projects.map((p) => ({
      key: p.key,
      fields: desiredProjectFields(p),
      source: p.source,
      dependsOn: dependsOn(state, p),
      protect: p.protect,
    })),
  read: async (ctx, state) => {
    const [list, declared] = await Promise.all([
      readProjects(ctx),
      declaredLiveProjects(ctx, state),
    ]);
    const wanted = new Set(state.projects.map((p) => p.slug));
    return [
      ...declared.map(({ project, live }) => ({
        key: projectKey(live.projectSlug),
        fields: liveProjectFields(live, desiredProjectFields(project)),
        ids: { id: live.id },
      })),
      ...list
        .filter((p) => !wanted.has(p.projectSlug))
        .map((p) => ({
          key: projectKey(p.projectSlug),
          fields: listedFields(p),
          ids: { id: p.id },
        })),
    ];
  },
  check: (d, l) => {
    if (!l) return d.fields.status === "inactive" ? createInactive(d) : undefined;
    const why = unreachableStatus(d.fields.status, l.fields.status);
    return why ? blockedStatus(d, l, why) : undefined;
  },
  ticketText: projectTicket,
  create: async (api, entry) => {
    const slug = slugOf(entry.key);
    const want = entry.after as ProjectFields;
    const body = {
      name: want.title,
      description: want.description,
      projectSlug: slug,
      visibility: want.visibility,
      externalContribution: want.externalContribution ?? false,
      ...(want.eccn !== undefined ? { eccn: want.eccn } : {}),
      ...(want.organization !== undefined ? { organization: want.organization } : {}),
    };
    const { value: created } = await createOrFind(
      async () => (await api.call("projects.create", { body })).data,
      () => fetchProject(api, slug),
    );
    // restrictionLevel is not in the create body; a project found after an ambiguous
    // failure may also differ: one patch brings both in line.
    const patch = patchBody(want, {
      title: created.name,
      description: created.description,
      restrictionLevel: created.restrictionLevel,
      externalContribution: created.externalContribution,
    });
    if (patch) await api.call("projects.patch", { params: { projectSlug: slug }, body: patch });
    if (want.status === "archived" && created.status !== "archived")
      await moveStatus(api, slug, "archived");
  },
  update: async (api, entry, live) => {
    const slug = slugOf(entry.key);
    const after = entry.after as Partial<ProjectFields>;
    const status = after.status;
    if (status === "inactive")
      throw new Error(`internal: ${entry.key}: status inactive is blocked`);
    if (status === "active") await moveStatus(api, slug, "active");
    const patch = patchBody({ ...live.fields, ...after }, live.fields);
    if (patch) await api.call("projects.patch", { params: { projectSlug: slug }, body: patch });
    if (status === "archived") await moveStatus(api, slug, "archived");
  },
});
