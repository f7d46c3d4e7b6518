/**
 * Selectors: which objects a Defaults document (or a Policy) applies to. A selector names a
 * kind and narrows it by organization, name globs, labels (`matchLabels`, and
 * `matchExpressions` with In / NotIn / Exists / DoesNotExist, as Kubernetes does) and, for
 * repositories, by repository-name and subgroup globs. Every condition written must hold; an
 * unwritten one matches everything. Pure: the same selector and target always agree.
 */
import { makeDiagnostic } from "../manifest/diagnostics.js";
import type { DocHandle, FieldPath } from "../manifest/positions.js";
import type { LabelOperator, SelectKind, Selector } from "../manifest/schema/selector.js";
import type { Diagnostic } from "../manifest/types.js";

export { SELECT_KINDS, type SelectKind, type Selector } from "../manifest/schema/selector.js";

/** What a selector is matched against: an object's identity and labels. */
export interface SelectTarget {
  kind: SelectKind;
  /** metadata.name; for a Repository, its project's slug. */
  name: string;
  /** The object's organization (phctl.yaml's when it names none); undefined: unknown. */
  organization?: string;
  /** metadata.labels; for a Repository, its project's. */
  labels: Readonly<Record<string, string>>;
  /** Repository only. */
  repository?: { name: string; subgroup: string };
}

const cache = new Map<string, RegExp>();
/** `*` within a segment, `**` across segments, `?` one character; the whole string must match. */
export function globMatch(glob: string, text: string): boolean {
  let re = cache.get(glob);
  if (!re) {
    const body = glob
      .split("**")
      .map((part) =>
        part
          .split("*")
          .map((s) =>
            s
              .split("?")
              .map((t) => t.replace(/[.+^${}()|[\]\\]/g, "\\$&"))
              .join("[^/]"),
          )
          .join("[^/]*"),
      )
      .join(".*");
    re = new RegExp(`^${body}$`);
    cache.set(glob, re);
  }
  return re.test(text);
}

/** Whether one label expression holds for `labels`. */
export function expressionHolds(
  e: { key: string; operator: LabelOperator; values?: readonly string[] },
  labels: Readonly<Record<string, string>>,
): boolean {
  const has = Object.hasOwn(labels, e.key);
  switch (e.operator) {
    case "Exists":
      return has;
    case "DoesNotExist":
      return !has;
    case "In":
      return has && (e.values ?? []).includes(labels[e.key]);
    case "NotIn":
      return !has || !(e.values ?? []).includes(labels[e.key]);
  }
}

/**
 * Whether `s` selects `t`. The kinds must be equal, except that a Repository selector's
 * organization, names and labels are its project's (the target carries them).
 */
export function selects(s: Selector, t: SelectTarget): boolean {
  if (s.kind !== t.kind) return false;
  if (
    s.organization !== undefined &&
    (t.organization === undefined || !globMatch(s.organization, t.organization))
  )
    return false;
  if (s.names && !s.names.some((g) => globMatch(g, t.name))) return false;
  if (s.matchLabels)
    for (const [k, v] of Object.entries(s.matchLabels)) if (t.labels[k] !== v) return false;
  if (s.matchExpressions && !s.matchExpressions.every((e) => expressionHolds(e, t.labels)))
    return false;
  return !t.repository || selectsRepository(s, t.repository);
}

/** Does a selector narrow by repository (name or subgroup), beyond its project's identity? */
export const narrowsRepositories = (s: Selector): boolean =>
  s.repositories !== undefined || s.subgroups !== undefined;

/**
 * The repository part of `selects`: its repository-name and subgroup globs hold for
 * `repository` (its project's part is the caller's; applyLayers asks it once per project).
 */
export function selectsRepository(
  s: Selector,
  repository: { name: string; subgroup: string },
): boolean {
  const { name, subgroup } = repository;
  if (s.repositories && !s.repositories.some((g) => globMatch(g, name))) return false;
  if (s.subgroups && !s.subgroups.some((g) => globMatch(g, subgroup))) return false;
  return true;
}

/** One line for people: `Project with tier=critical in acme named tf-*`. */
export function describeSelector(s: Selector): string {
  const parts: string[] = [s.kind === "Repository" ? "repositories" : `${s.kind.toLowerCase()}s`];
  if (s.repositories) parts.push(`named ${s.repositories.join(" or ")}`);
  if (s.subgroups)
    parts.push(`in subgroup ${s.subgroups.map((g) => JSON.stringify(g)).join(" or ")}`);
  const of = s.kind === "Repository" ? "of projects " : "";
  if (s.names) parts.push(`${of}named ${s.names.join(" or ")}`);
  const labels = [
    ...Object.entries(s.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`),
    ...(s.matchExpressions ?? []).map((e) =>
      e.operator === "Exists"
        ? e.key
        : e.operator === "DoesNotExist"
          ? `!${e.key}`
          : `${e.key} ${e.operator === "In" ? "in" : "notin"} (${(e.values ?? []).join(",")})`,
    ),
  ];
  if (labels.length > 0)
    parts.push(
      `${s.kind === "Repository" && !s.names ? "of projects " : ""}with ${labels.join(", ")}`,
    );
  if (s.organization) parts.push(`in ${s.organization}`);
  return parts.join(" ");
}

/**
 * What a selector's schema cannot say: In and NotIn need values, Exists and DoesNotExist take
 * none; repository and subgroup globs only narrow a Repository selector.
 */
export function checkSelector(s: Selector, handle: DocHandle, at: FieldPath): Diagnostic[] {
  const out: Diagnostic[] = [];
  (s.matchExpressions ?? []).forEach((e, i) => {
    const wantsValues = e.operator === "In" || e.operator === "NotIn";
    const has = (e.values?.length ?? 0) > 0;
    if (wantsValues !== has)
      out.push(
        makeDiagnostic(
          "error",
          "invalid-selector",
          handle.at([...at, "matchExpressions", i, has ? "values" : "operator"]),
          wantsValues
            ? `${e.operator} needs values: the label values to compare with`
            : `${e.operator} takes no values (it asks only whether the label ${e.key} is there)`,
          { path: `${at.join(".")}.matchExpressions[${i}]` },
        ),
      );
  });
  if (s.kind !== "Repository")
    for (const k of ["repositories", "subgroups"] as const)
      if (s[k] !== undefined)
        out.push(
          makeDiagnostic(
            "error",
            "invalid-selector",
            handle.at([...at, k], "key"),
            `${k} narrows only kind: Repository, not ${s.kind}`,
            { path: `${at.join(".")}.${k}`, hint: "select kind: Repository, or remove it" },
          ),
        );
  return out;
}
