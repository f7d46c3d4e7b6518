/**
 * Places of a kind's document (`spec.git.repositories`) with their merge rules (shape.ts),
 * made once per place and kept: the merge and the handle used to build the dotted path and
 * test it against the rules at every value they passed, most of their time on a large config.
 */
import { accessLevelForm, listRule, type ListRule } from "./shape.js";

/** A place of a kind's document and its rules. */
export class Place {
  /** An access level, which may be written as a list (shape.ts's accessLevelForm). */
  readonly accessLevel: boolean;
  readonly rule: ListRule;
  /** May an own value alone (a mapping or list) be copied as it is (merge.ts's ownAlone)? */
  readonly ownAlone: boolean;
  /** Not with repository layers: spec.git and the repository list. */
  readonly aboveRepositories: boolean;
  readonly repositories: boolean;
  private readonly children = new Map<string, Place>();

  constructor(
    readonly kind: string,
    readonly dotted: string,
  ) {
    this.accessLevel = !Array.isArray(accessLevelForm(dotted, kind, []));
    this.rule = listRule(kind, dotted);
    this.ownAlone = !(
      dotted === "spec" ||
      dotted === "spec.access" ||
      dotted.startsWith("spec.access.")
    );
    this.repositories = dotted === "spec.git.repositories";
    this.aboveRepositories = dotted === "spec.git";
  }

  child(k: string): Place {
    let p = this.children.get(k);
    if (!p) this.children.set(k, (p = new Place(this.kind, `${this.dotted}.${k}`)));
    return p;
  }
}

const roots = new Map<string, Place>();

/** The place `spec` of a kind's documents. */
export function specPlace(kind: string): Place {
  let p = roots.get(kind);
  if (!p) roots.set(kind, (p = new Place(kind, "spec")));
  return p;
}
