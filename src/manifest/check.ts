/**
 * One parsed document → a valid manifest of a known kind, or diagnostics: the document's
 * shape, apiVersion and kind first (so the message says what is wrong, not which schema
 * branch failed), then the kind's schema.
 */
import { makeDiagnostic } from "./diagnostics.js";
import { didYouMean } from "./hints.js";
import type { ParsedDocument } from "./parse.js";
import type { DocHandle } from "./positions.js";
import { API_VERSION } from "./schema/common.js";
import { KINDS, type Kind } from "./schema/index.js";
import type { DefaultsDocument } from "./schema/defaults.js";
import type { OrganizationDocument } from "./schema/organization.js";
import type { PolicyDocument } from "./schema/policy.js";
import type { ProjectDocument } from "./schema/project.js";
import type { TeamDocument } from "./schema/team.js";
import type { UserDocument } from "./schema/user.js";
import { salvage } from "./salvage.js";
import { schemaDiagnostics } from "./schema-errors.js";
import type { Diagnostic } from "./types.js";
import { validateAgainst } from "./validator.js";

interface DocOf {
  Organization: OrganizationDocument;
  User: UserDocument;
  Team: TeamDocument;
  Project: ProjectDocument;
  Defaults: DefaultsDocument;
  Policy: PolicyDocument;
}

/** A document that passed its kind's schema. */
export type ValidDoc<K extends Kind = Kind> = K extends Kind
  ? { kind: K; name: string; value: DocOf[K]; handle: DocHandle }
  : never;

const SHAPE = "a document must be a mapping with apiVersion, kind, metadata and spec";

function typeName(v: unknown): string {
  return v === null
    ? "null"
    : Array.isArray(v)
      ? "list"
      : typeof v === "object"
        ? "mapping"
        : typeof v;
}

/** What checking one document gives. */
export interface Checked {
  valid?: ValidDoc;
  diagnostics: Diagnostic[];
  /**
   * A document of a known kind that fails its schema: the part that passes it (salvage.ts),
   * and the document as written — for the checks that read a document's own fields, so that
   * their errors show beside the schema's.
   */
  partial?: { salvaged?: ValidDoc; written: ValidDoc };
}

export function checkDocument(p: ParsedDocument): Checked {
  const { handle, value } = p;
  const at = handle.start;
  if (value === null || value === undefined)
    return {
      diagnostics: [makeDiagnostic("warning", "empty-document", at, "empty document (ignored)")],
    };
  if (Array.isArray(value))
    return {
      diagnostics: [
        makeDiagnostic("error", "not-a-mapping", at, `${SHAPE}, not a list`, {
          hint: "separate documents with --- instead of listing them",
        }),
      ],
    };
  if (typeof value !== "object")
    return {
      diagnostics: [
        makeDiagnostic("error", "not-a-mapping", at, `${SHAPE}, not a ${typeName(value)}`),
      ],
    };
  const doc = value as Record<string, unknown>;
  const metadata = doc.metadata as Record<string, unknown> | undefined;
  const name = typeof metadata?.name === "string" ? metadata.name : undefined;
  const diagnostics: Diagnostic[] = [];
  if (doc.apiVersion !== API_VERSION) {
    const v = doc.apiVersion;
    diagnostics.push(
      v === undefined
        ? makeDiagnostic(
            "error",
            "unknown-api-version",
            at,
            `apiVersion is required (${API_VERSION})`,
            { path: "apiVersion" },
          )
        : makeDiagnostic(
            "error",
            "unknown-api-version",
            handle.at(["apiVersion"]),
            `unknown apiVersion ${JSON.stringify(v)}; expected ${API_VERSION}`,
            {
              path: "apiVersion",
              hint: typeof v === "string" ? didYouMean(v, [API_VERSION]) : undefined,
            },
          ),
    );
  }
  const kind = doc.kind;
  if (!(KINDS as readonly unknown[]).includes(kind)) {
    diagnostics.push(
      kind === undefined
        ? makeDiagnostic(
            "error",
            "unknown-kind",
            at,
            `kind is required (one of ${KINDS.join(", ")})`,
            {
              path: "kind",
              name,
            },
          )
        : makeDiagnostic(
            "error",
            "unknown-kind",
            handle.at(["kind"]),
            `unknown kind ${JSON.stringify(kind)}; expected one of ${KINDS.join(", ")}`,
            {
              path: "kind",
              name,
              hint: typeof kind === "string" ? didYouMean(kind, KINDS) : undefined,
            },
          ),
    );
    return { diagnostics };
  }
  const k = kind as Kind;
  if (diagnostics.length > 0) {
    for (const d of diagnostics) d.kind = k;
    if (name !== undefined) for (const d of diagnostics) d.name = name;
    return { diagnostics };
  }
  const errors = validateAgainst(k, value);
  if (errors.length > 0) {
    const written = { kind: k, name: name ?? "", value, handle } as ValidDoc;
    const salvaged = salvage(k, name ?? "", value, handle);
    return {
      diagnostics: schemaDiagnostics(errors, value, handle, { kind: k, name }),
      partial: salvaged ? { salvaged, written } : { written },
    };
  }
  return { valid: { kind: k, name: name ?? "", value, handle } as ValidDoc, diagnostics };
}
