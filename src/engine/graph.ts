/**
 * The dependency DAG apply walks (after Terraform's dag package and its destroy edges).
 * Nodes are the plan's create, update and delete entries; `ticket` and `blocked` entries are
 * never nodes (never sent). Edges:
 *
 * - a create/update runs after the creates/updates of the keys it `dependsOn` (only keys
 *   that are themselves in the plan: what exists already needs no waiting);
 * - deletes walk the reversed graph: a child's delete (key `parent/…`, or the owner a kind
 *   names for it) runs before its parent's delete;
 * - a delete runs after the creates/updates that still name the deleted key in their
 *   `dependsOn` — only where one does, so unrelated deletes start at once;
 * - in an authoritative list (a project's access level, a team's members) removals run
 *   after the additions to the same list, so a replaced admin never leaves the list empty.
 *
 * - a node runs after every entry under the key prefixes its kind names (`after`: the
 *   welcome mail after its user's service accounts) — ordering only: whatever they end in,
 *   and whether or not they can run at all, the node runs once they have ended.
 *
 * A node that needs a key the plan cannot bring (its create is `blocked` or a `ticket`) is
 * marked unreachable; apply skips it, naming that key. A cycle is an error naming it.
 */
import { PhctlError } from "../errors.js";
import type { PlanEntry } from "./plan.js";

/** A node's identity: `<action> <key>` (one key has at most one entry per action). */
export type NodeId = string;

export const nodeId = (e: Pick<PlanEntry, "action" | "key">): NodeId => `${e.action} ${e.key}`;

/** One entry to carry out, with its edges both ways. */
export interface GraphNode {
  readonly id: NodeId;
  readonly entry: PlanEntry;
  /** Nodes that must be done first. */
  readonly deps: NodeId[];
  /** Nodes that wait for this one. */
  readonly dependents: NodeId[];
  /** Of `deps`, those waited for only to come after them: their failure does not skip this node. */
  orderOnly?: Set<NodeId>;
  /** Set when the node needs a key that a ticket or blocked entry keeps from existing. */
  unreachable?: { key: string; reason: string };
}

/** The DAG of a plan. `order` is a topological order (dependencies first), stable. */
export interface Graph {
  readonly nodes: ReadonlyMap<NodeId, GraphNode>;
  readonly order: readonly NodeId[];
}

export interface GraphOptions {
  /**
   * The keys that own or contain a live object (a kind's ownership `parentKey` and
   * `containers`): a delete runs before theirs even when the keys do not nest (a repository
   * under a git group, or in a subgroup).
   */
  ownerOf?: (entry: PlanEntry) => readonly string[];
  /**
   * Key prefixes (ending in `/`) whose executable entries this entry comes after, whatever
   * they end in (ordering only; see the file's comment).
   */
  after?: (entry: PlanEntry) => readonly string[];
}

/** A dependency cycle; the message names it (`a → b → a`). */
export class CycleError extends PhctlError {
  readonly cycle: readonly string[];
  constructor(cycle: readonly string[]) {
    super("DEPENDENCY_CYCLE", `dependency cycle in the plan: ${cycle.join(" → ")}`, {
      source: "internal",
    });
    this.name = "CycleError";
    this.cycle = cycle;
  }
}

const EXECUTABLE = new Set(["create", "update", "delete"]);

/** Whether apply sends this entry to the API (ticket and blocked entries never are). */
export const isExecutable = (e: Pick<PlanEntry, "action">): boolean => EXECUTABLE.has(e.action);

/** The authoritative list a key belongs to (`project/p/access/admins`, `team/t/member`). */
function listOf(key: string): string | undefined {
  return /^(project\/[^/]+\/access\/[^/]+|team\/[^/]+\/member)\//.exec(key)?.[1];
}

/** Proper key prefixes, nearest first: `a/b/c` → `a/b`, `a`. */
function ancestors(key: string): string[] {
  const parts = key.split("/");
  const out: string[] = [];
  for (let i = parts.length - 1; i > 0; i--) out.push(parts.slice(0, i).join("/"));
  return out;
}

export function buildGraph(entries: readonly PlanEntry[], o: GraphOptions = {}): Graph {
  const nodes = new Map<NodeId, GraphNode>();
  const byKey = new Map<string, GraphNode[]>();
  for (const entry of entries) {
    if (!isExecutable(entry)) continue;
    const id = nodeId(entry);
    if (nodes.has(id)) throw new PhctlError("DUPLICATE_ENTRY", `the plan has ${id} twice`);
    const node: GraphNode = { id, entry, deps: [], dependents: [] };
    nodes.set(id, node);
    const same = byKey.get(entry.key);
    if (same) same.push(node);
    else byKey.set(entry.key, [node]);
  }
  // Keys that will not exist after apply: their create is a ticket or blocked.
  const notReached = new Map<string, string>();
  for (const e of entries) {
    if (!isExecutable(e) && e.before === null && !byKey.has(e.key))
      notReached.set(
        e.key,
        `${e.key} is ${e.action === "ticket" ? "a ticket" : "blocked"}: ${e.reason}`,
      );
  }

  const edge = (from: GraphNode, to: GraphNode) => {
    if (from === to || to.deps.includes(from.id)) return;
    to.deps.push(from.id);
    from.dependents.push(to.id);
  };
  const deletesOf = (key: string) =>
    (byKey.get(key) ?? []).filter((n) => n.entry.action === "delete");
  const additionsTo = new Map<string, GraphNode[]>();
  for (const n of nodes.values()) {
    const list = listOf(n.entry.key);
    if (!list || n.entry.action !== "create") continue;
    const adds = additionsTo.get(list);
    if (adds) adds.push(n);
    else additionsTo.set(list, [n]);
  }

  for (const n of nodes.values()) {
    const e = n.entry;
    if (e.action === "delete") {
      for (const parent of new Set([...ancestors(e.key), ...(o.ownerOf?.(e) ?? [])]))
        for (const d of deletesOf(parent)) edge(n, d);
      const list = listOf(e.key);
      for (const add of list ? (additionsTo.get(list) ?? []) : []) edge(add, n);
      continue;
    }
    for (const dep of e.dependsOn) {
      for (const m of byKey.get(dep) ?? []) {
        if (m.entry.action === "delete") edge(n, m);
        else edge(m, n);
      }
      const why = notReached.get(dep);
      if (why && !n.unreachable) n.unreachable = { key: dep, reason: why };
    }
  }
  addOrderOnly(nodes, o, edge);
  return { nodes, order: topologicalOrder(nodes) };
}

/** The `after` edges: a lookup by key prefix, built only for the prefixes asked for. */
function addOrderOnly(
  nodes: ReadonlyMap<NodeId, GraphNode>,
  o: GraphOptions,
  edge: (from: GraphNode, to: GraphNode) => void,
): void {
  if (!o.after) return;
  const asks = new Map<GraphNode, readonly string[]>();
  const prefixes = new Set<string>();
  for (const n of nodes.values()) {
    if (n.entry.action === "delete") continue;
    const after = o.after(n.entry);
    if (after.length === 0) continue;
    asks.set(n, after);
    for (const p of after) prefixes.add(p);
  }
  if (asks.size === 0) return;
  const under = new Map<string, GraphNode[]>();
  for (const n of nodes.values()) {
    const key = n.entry.key;
    for (let i = key.indexOf("/"); i >= 0; i = key.indexOf("/", i + 1)) {
      const p = key.slice(0, i + 1);
      if (!prefixes.has(p)) continue;
      const list = under.get(p);
      if (list) list.push(n);
      else under.set(p, [n]);
    }
  }
  for (const [n, after] of asks)
    for (const p of after)
      for (const m of under.get(p) ?? []) {
        if (m === n || n.deps.includes(m.id)) continue;
        edge(m, n);
        (n.orderOnly ??= new Set()).add(m.id);
      }
}

/** Kahn's algorithm in plan order; a leftover means a cycle, which is found and named. */
function topologicalOrder(nodes: ReadonlyMap<NodeId, GraphNode>): NodeId[] {
  const waiting = new Map<NodeId, number>();
  for (const n of nodes.values()) waiting.set(n.id, n.deps.length);
  const ready = [...nodes.values()].filter((n) => n.deps.length === 0).map((n) => n.id);
  const order: NodeId[] = [];
  for (let i = 0; i < ready.length; i++) {
    const id = ready[i];
    order.push(id);
    for (const d of nodes.get(id)!.dependents) {
      const left = waiting.get(d)! - 1;
      waiting.set(d, left);
      if (left === 0) ready.push(d);
    }
  }
  if (order.length < nodes.size) {
    const cycle = findCycle(nodes, new Set([...nodes.keys()].filter((id) => waiting.get(id)! > 0)));
    throw new CycleError(cycle.map((id) => nodes.get(id)!.entry.key));
  }
  return order;
}

/** A cycle among `within` (depth-first, following deps), as ids with the first repeated last. */
function findCycle(nodes: ReadonlyMap<NodeId, GraphNode>, within: ReadonlySet<NodeId>): NodeId[] {
  const state = new Map<NodeId, "open" | "closed">();
  for (const start of [...within].sort()) {
    if (state.has(start)) continue;
    const path: NodeId[] = [];
    const stack: { id: NodeId; next: number }[] = [{ id: start, next: 0 }];
    state.set(start, "open");
    path.push(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const deps = nodes.get(top.id)!.deps.filter((d) => within.has(d));
      if (top.next >= deps.length) {
        state.set(top.id, "closed");
        stack.pop();
        path.pop();
        continue;
      }
      const d = deps[top.next++];
      if (state.get(d) === "open") {
        // The path runs dependency-wards; show it in apply order (what must come first).
        const loop = path.slice(path.indexOf(d));
        return [...loop, d].reverse();
      }
      if (!state.has(d)) {
        state.set(d, "open");
        path.push(d);
        stack.push({ id: d, next: 0 });
      }
    }
  }
  throw new Error("internal: a cycle was detected but not found");
}

/**
 * The longest chain of `weight`s through the graph (the critical path): no schedule can
 * finish sooner, whatever the concurrency. Used by the benchmark to judge apply's wall time.
 */
export function criticalPath(
  graph: Graph,
  weight: (id: NodeId) => number,
): { length: number; path: NodeId[] } {
  const best = new Map<NodeId, { length: number; via: NodeId | undefined }>();
  for (const id of graph.order) {
    const node = graph.nodes.get(id)!;
    let from: { length: number; via: NodeId | undefined } = { length: 0, via: undefined };
    for (const d of node.deps) {
      const b = best.get(d)!;
      if (b.length > from.length) from = { length: b.length, via: d };
    }
    best.set(id, { length: from.length + weight(id), via: from.via });
  }
  let end: NodeId | undefined;
  for (const [id, b] of best) if (end === undefined || b.length > best.get(end)!.length) end = id;
  const path: NodeId[] = [];
  for (let at = end; at !== undefined; at = best.get(at)!.via) path.unshift(at);
  return { length: end === undefined ? 0 : best.get(end)!.length, path };
}
