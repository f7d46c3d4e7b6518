/**
 * One YAML document's text, edited in place: each change is a splice of the text at the
 * node positions the `yaml` library reports, and the text is parsed again after it. Lines
 * the change does not touch stay byte for byte as they were — comments, quoting, flow or
 * block style, blank lines — which the Document API's re-serialisation would not keep.
 * A change that cannot be made this way throws an EditError (the caller leaves the file).
 */
import { isAlias, isMap, isScalar, isSeq } from "yaml";
import type { Pair, YAMLMap, YAMLSeq } from "yaml";
import { needsEscapes, yamlQuoted } from "../export/yaml-escape.js";
import {
  aboveComments,
  col,
  contentEnd,
  EditError,
  firstOnLine,
  isEmptyColl,
  isEmptyNull,
  lineEndAt,
  lineStart,
  pairEnd,
  range,
  valueEnd,
} from "./positions.js";
import { YamlText, type Seg } from "./yaml-text.js";
import { blockLines, flowText, isFlowable, pairLines, scalarText, seqItemLines } from "./render.js";

export type { Seg };

export { EditError };

type Coll = YAMLMap | YAMLSeq;

export class DocText extends YamlText {
  /** Set the value at `path`, adding the key (and missing maps above it) when absent. */
  set(path: readonly Seg[], value: unknown): void {
    const last = path[path.length - 1];
    const parentPath = path.slice(0, -1);
    const parent = this.resolve(parentPath);
    if (parent === undefined || isEmptyNull(parent)) {
      if (parentPath.length === 0 || typeof last !== "string")
        throw new EditError("no place for the value");
      return this.set(parentPath, { [last]: value });
    }
    if (isMap(parent) && typeof last === "string") {
      const pair = this.pair(parent, last);
      return pair
        ? this.replaceValue(path, value)
        : this.addPair(parent, last, value, this.orderAt(parentPath));
    }
    throw new EditError(`cannot set ${String(last)} here`);
  }

  /** Remove the key at `path` (nothing when absent). */
  unset(path: readonly Seg[]): void {
    const parentPath = path.slice(0, -1);
    const parent = this.resolve(parentPath);
    const last = path[path.length - 1];
    if (!isMap(parent) || typeof last !== "string") return;
    const pair = this.pair(parent, last);
    if (!pair) return;
    const i = parent.items.indexOf(pair);
    if (parent.flow) return this.flowRemove(parent, i);
    if (parent.items.length === 1) return this.set(parentPath, {});
    const k0 = range(pair.key)[0];
    if (firstOnLine(this.text, k0))
      return this.removeLines(lineStart(this.text, k0), lineEndAt(this.text, pairEnd(pair)));
    // The key shares its line with `- `: the next key moves up in its place.
    this.splice(k0, range(parent.items[i + 1].key)[0], "");
  }

  /** Add `value` at the end of the list at `path` (created when absent). */
  append(path: readonly Seg[], value: unknown): void {
    const seq = this.resolve(path);
    if (seq === undefined || isEmptyNull(seq)) return this.set(path, [value]);
    if (!isSeq(seq)) throw new EditError("not a list");
    if (seq.flow) {
      const [start, end] = range(seq);
      if (seq.items.length === 0) return this.splice(start, end, `[${flowText(value)}]`);
      return this.splice(
        contentEnd(seq.items[seq.items.length - 1]),
        undefined,
        `, ${flowText(value)}`,
      );
    }
    const at = lineEndAt(this.text, contentEnd(seq));
    this.insertLines(at, seqItemLines(value, col(this.text, range(seq)[0]), this.unit));
  }

  /** Remove the item `which` of the list at `path`. */
  removeItem(path: readonly Seg[], which: Seg): void {
    const seq = this.resolve(path);
    if (!isSeq(seq)) return;
    const i = this.index(seq, which);
    const item = seq.items[i];
    if (item === undefined) return;
    if (seq.flow) return this.flowRemove(seq, i);
    if (seq.items.length === 1) return this.set(path, []);
    let dash = range(item)[0] - 1;
    while (dash > 0 && /\s/.test(this.text[dash])) dash--;
    if (this.text[dash] !== "-" || !firstOnLine(this.text, dash))
      throw new EditError("a list item not on a line of its own");
    this.removeLines(lineStart(this.text, dash), lineEndAt(this.text, contentEnd(item)));
  }

  // ------------------------------------------------------------------ the splices

  /**
   * Replace a key's value. A value that fits on the key's line replaces an inline one where
   * it stands; otherwise the old value is emptied first (the key line and any comment on it
   * stay) and the new one written after the colon or as indented lines below.
   */
  private replaceValue(path: readonly Seg[], value: unknown): void {
    const { map, pair } = this.pairAt(path);
    const v = pair.value;
    const oneLine = map.flow || isFlowable(value) || isEmptyColl(value);
    const inlineNow = isScalar(v) || isAlias(v) || (v as Coll).flow === true;
    if (!isEmptyNull(v) && oneLine && inlineNow) {
      return this.splice(
        range(v)[0],
        valueEnd(this.text, v),
        this.keepQuotes(v, value, map.flow === true),
      );
    }
    if (!isEmptyNull(v)) {
      const colon = this.colonAfter(pair);
      if (inlineNow) this.splice(colon + 1, valueEnd(this.text, v), "");
      else this.removeLines(lineEndAt(this.text, colon + 1), lineEndAt(this.text, contentEnd(v)));
    }
    const again = this.pairAt(path).pair;
    const colon = this.colonAfter(again);
    if (oneLine)
      return this.splice(colon + 1, colon + 1, ` ${this.inline(value, map.flow === true)}`);
    const keyCol = col(this.text, range(again.key)[0]);
    this.insertLines(
      lineEndAt(this.text, colon + 1),
      blockLines(value, keyCol + this.unit, this.unit),
    );
  }

  private pairAt(path: readonly Seg[]): { map: YAMLMap; pair: Pair } {
    const map = this.resolve(path.slice(0, -1));
    const last = path[path.length - 1];
    const pair = isMap(map) && typeof last === "string" ? this.pair(map, last) : undefined;
    if (!isMap(map) || !pair) throw new EditError("the key moved while it was edited");
    return { map, pair };
  }

  private colonAfter(pair: Pair): number {
    const colon = this.text.indexOf(":", range(pair.key)[1]);
    if (colon < 0) throw new EditError("a key without its colon");
    return colon;
  }

  private addPair(map: YAMLMap, key: string, value: unknown, order: readonly string[]): void {
    const rank = order.indexOf(key);
    const next =
      rank < 0
        ? undefined
        : map.items.find((p) => order.indexOf(isScalar(p.key) ? String(p.key.value) : "") > rank);
    if (map.flow) {
      const pair = `${scalarText(key, true)}: ${flowText(value)}`;
      if (map.items.length === 0) {
        const [start, end] = range(map);
        return this.splice(start, end, `{ ${pair} }`);
      }
      if (next) return this.splice(range(next.key)[0], undefined, `${pair}, `);
      return this.splice(pairEnd(map.items[map.items.length - 1]), undefined, `, ${pair}`);
    }
    const c = col(this.text, range(map)[0]);
    const lines = pairLines(key, value, c, this.unit);
    const k0 = next ? range(next.key)[0] : -1;
    if (next && firstOnLine(this.text, k0))
      return this.insertLines(aboveComments(this.text, k0), lines);
    this.insertLines(lineEndAt(this.text, contentEnd(map)), lines);
  }

  private flowRemove(coll: Coll, i: number): void {
    const n = coll.items.length;
    const startOf = (j: number) =>
      isMap(coll) ? range(coll.items[j].key)[0] : range(coll.items[j])[0];
    const endOf = (j: number) => (isMap(coll) ? pairEnd(coll.items[j]) : contentEnd(coll.items[j]));
    if (n === 1) {
      const [start, end] = range(coll);
      return this.splice(start, end, isMap(coll) ? "{}" : "[]");
    }
    if (i < n - 1) return this.splice(startOf(i), startOf(i + 1), "");
    this.splice(endOf(i - 1), endOf(i), "");
  }

  private keepQuotes(node: unknown, value: unknown, inFlow: boolean): string {
    if (isScalar(node) && typeof value === "string" && !value.includes("\n")) {
      if (node.type === "QUOTE_DOUBLE") return yamlQuoted(value);
      // Single quotes cannot escape a hidden character: inline() double-quotes it.
      if (node.type === "QUOTE_SINGLE" && !needsEscapes(value))
        return `'${value.replace(/'/g, "''")}'`;
    }
    return this.inline(value, inFlow);
  }

  private inline(value: unknown, inFlow: boolean): string {
    return Array.isArray(value) || (typeof value === "object" && value !== null)
      ? flowText(value)
      : scalarText(value, inFlow);
  }
}
