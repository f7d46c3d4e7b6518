/**
 * Organization: declared by name, created with POST /v1/organization. Renaming is not
 * declarative (a new name is a new organization); organizations no manifest declares are
 * listed as not managed. A create answered 409 whose name the list then holds is already
 * there (another apply made it meanwhile), as for every other kind.
 * Reads: one call (the organization list).
 */
import { createOrFind } from "../api/create-or-find.js";
import { organizationKey } from "../manifest/keys.js";
import { readOrganizations } from "../engine/readers.js";
import { defineKind } from "./kind.js";

interface OrganizationFields {
  name: string;
  [k: string]: unknown;
}

export const organizationKind = defineKind<OrganizationFields>({
  kind: "Organization",
  ownership: { mode: "unmanaged" },
  immutable: {},
  destructiveDelete: true,
  desired: (state) =>
    state.organizations.map((o) => ({
      key: o.key,
      fields: { name: o.name },
      source: o.source,
      dependsOn: [],
      protect: o.protect,
    })),
  // The token's parent organization is the frame, not a managed object: it is read only
  // when a manifest declares it (then it is in sync, never created).
  read: async (ctx, state) =>
    (await readOrganizations(ctx))
      .filter(
        (o) => o.parentOrganization !== null || state.organizations.some((d) => d.name === o.name),
      )
      .map((o) => ({
        key: organizationKey(o.name),
        fields: { name: o.name },
        ids: { id: o.id },
      })),
  create: async (api, entry) => {
    const organization = String(entry.after?.name);
    await createOrFind<unknown>(
      () => api.call("organizations.create", { body: { organization } }),
      async () => (await api.call("organizations.list")).find((o) => o.name === organization),
    );
  },
});
