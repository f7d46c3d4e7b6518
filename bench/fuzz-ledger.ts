/**
 * The fuzz benchmark's id ledger (bench/fuzz.ts): every id a create answered, per id space,
 * with what it named and whether it was deleted since. An id that comes back from a create
 * naming something else, or after its object was deleted, is an id handed out twice — what
 * a journal or a saved plan must never meet (issue 34, defect 8).
 *
 * Only creates and deletes the fuzzer makes in order (one at a time per project) are
 * recorded, so the ledger is never wrong about what it saw; what the random requests create
 * or delete on the side only makes it miss a case, never invent one.
 */

/** The id spaces the API shows: groups and subgroups share one. */
export type IdSpace = "git" | "repository" | "mirror" | "artifactRepo";

interface Seen {
  what: string;
  deleted: boolean;
}

export class IdLedger {
  private readonly spaces = new Map<IdSpace, Map<number, Seen>>();
  /** One line per id handed out twice: `git 7: subgroup acme/a1:x (deleted) → group g2`. */
  readonly reused: string[] = [];
  /** How many ids creates answered (distinct objects). */
  objects = 0;

  private space(s: IdSpace): Map<number, Seen> {
    let m = this.spaces.get(s);
    if (!m) this.spaces.set(s, (m = new Map()));
    return m;
  }

  /**
   * A create answered `id` for `what`. `existing`: the create may answer an object that was
   * already there (the levels of a subgroup path), so the same id for the same live object is
   * no reuse.
   */
  record(space: IdSpace, id: number, what: string, existing = false): void {
    const m = this.space(space);
    const seen = m.get(id);
    if (!seen) {
      m.set(id, { what, deleted: false });
      this.objects++;
      return;
    }
    if (existing && !seen.deleted && seen.what === what) return;
    this.reused.push(`${space} ${id}: ${seen.what}${seen.deleted ? " (deleted)" : ""} → ${what}`);
    m.set(id, { what, deleted: false });
  }

  /** `id` was deleted (its answer said so). */
  deleted(space: IdSpace, id: number): void {
    const seen = this.space(space).get(id);
    if (seen) seen.deleted = true;
  }

  /** Mark every live id of `space` whose name starts with `prefix` deleted (a cascade). */
  deletedUnder(space: IdSpace, prefix: string): void {
    for (const seen of this.space(space).values())
      if (seen.what.startsWith(prefix)) seen.deleted = true;
  }

  /** Live ids of a space whose name starts with `prefix`. */
  live(space: IdSpace, prefix = ""): { id: number; what: string }[] {
    const out: { id: number; what: string }[] = [];
    for (const [id, s] of this.space(space))
      if (!s.deleted && s.what.startsWith(prefix)) out.push({ id, what: s.what });
    return out;
  }

  /** Every id a space has seen (random requests aim at them too). */
  all(space: IdSpace): number[] {
    return [...this.space(space).keys()];
  }
}
