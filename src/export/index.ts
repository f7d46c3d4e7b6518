/**
 * `phctl export` without the CLI: read one organization's live state and turn it into the
 * files of a config repository (nothing printed, nothing written here: see write.ts). A plan
 * of the files it returns shows no changes against the state it read.
 */
import type { ApiClient } from "../api/client.js";
import { redactValue, valueHoldsSecret } from "../secrets.js";
import { toDocuments, type ExportDocument, type ExportDocuments } from "./documents.js";
import { factorDocuments } from "./factor.js";
import { layout, type ExportFile, type Split } from "./layout.js";
import { readSnapshot } from "./read.js";

export { SPLITS, type ExportFile, type Split } from "./layout.js";
export { checkTarget, writeExport } from "./write.js";

export interface ExportOptions {
  organization: string;
  /** Glob over project slugs. */
  projects?: string;
  /** Keys or globs of the top-level objects to export (`project/tf-a`, `user/*`). */
  only?: readonly string[];
  split?: Split;
  /** The text of the API profile the client reads through: written beside phctl.yaml. */
  apiProfile?: string;
  /**
   * Factor shared values into Defaults documents (factor.ts): the share (over one half) of a
   * kind's objects that must have a value for it to go into the kind's layer.
   */
  factor?: number;
}

/** What an export produced, for the CLI's summary and `--format json`. */
export interface ExportResult {
  organization: string;
  /** The token's parent organization (phctl.yaml's). */
  parent: string;
  files: ExportFile[];
  counts: {
    organizations: number;
    users: number;
    teams: number;
    projects: number;
    /** Defaults documents written (--factor). */
    defaults: number;
  };
  warnings: string[];
  /** API calls the export made. */
  apiCalls: number;
}

/**
 * The documents with every credential a live value holds masked (src/secrets.ts), each
 * such document named in a warning: the files are meant for a repository, and a plan of
 * them would put the mask in place of the live value — the credential is to be removed
 * from the service.
 */
function masked(docs: ExportDocuments): ExportDocuments {
  const warnings: string[] = [];
  const mask = (list: ExportDocument[]) =>
    list.map((d) => {
      if (!valueHoldsSecret(d.value) && !valueHoldsSecret(d.comments)) return d;
      warnings.push(
        `${d.kind} ${d.name}: a live value holds a credential; written masked (***): remove it from the service (a plan of these files would replace it with the mask)`,
      );
      return { ...d, value: redactValue(d.value), comments: redactValue(d.comments) };
    });
  return {
    organizations: mask(docs.organizations),
    users: mask(docs.users),
    teams: mask(docs.teams),
    projects: mask(docs.projects),
    warnings: [...docs.warnings, ...warnings],
  };
}

export async function exportOrganization(api: ApiClient, o: ExportOptions): Promise<ExportResult> {
  const before = api.metrics.snapshot().calls;
  const snapshot = await readSnapshot(api, {
    organization: o.organization,
    ...(o.projects !== undefined ? { projects: o.projects } : {}),
    ...(o.only !== undefined ? { only: o.only } : {}),
  });
  const plain = masked(toDocuments(snapshot));
  // Factored after masking: a layer holds only values the objects' masked documents hold.
  const docs = o.factor !== undefined ? factorDocuments(plain, o.factor) : plain;
  return {
    organization: snapshot.organization,
    parent: snapshot.parent,
    files: layout(docs, {
      organization: snapshot.organization,
      parent: snapshot.parent,
      split: o.split ?? "per-project",
      ...(o.apiProfile !== undefined ? { apiProfile: o.apiProfile } : {}),
    }),
    counts: {
      organizations: docs.organizations.length,
      users: docs.users.length,
      teams: docs.teams.length,
      projects: docs.projects.length,
      defaults: docs.defaults?.length ?? 0,
    },
    warnings: docs.warnings,
    apiCalls: api.metrics.snapshot().calls - before,
  };
}
