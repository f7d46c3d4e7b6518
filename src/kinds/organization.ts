/**
 * Organization: declared by name, created with POST /v1/organization. Renaming is not
 * declarative (a new name is a new organization); organizations no manifest declares are
 * listed as not managed. Reads: one call (the organization list).
 */
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
  read: async (ctx) =>
    (await readOrganizations(ctx)).map((o) => ({
      key: organizationKey(o.name),
      fields: { name: o.name },
      ids: { id: o.id },
    })),
  create: async (api, entry) => {
    await api.call("organizations.create", { body: { organization: String(entry.after?.name) } });
  },
});
