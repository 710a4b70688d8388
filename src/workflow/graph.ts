import { BatonError } from "../core/errors.js";
import type { Route, RouteKey } from "../core/event.js";
import { isFunctionTool, node } from "./build-node.js";
import { DEFAULT_ROUTE } from "./constants.js";
import { validateGraph } from "./graph-validation.js";
import { isWorkflowNode, type WorkflowNode } from "./node.js";
import type { NodeLike } from "./node-like.js";

export { DEFAULT_ROUTE, START_NAME } from "./constants.js";

/** Routes to the node(s) they lead to: `{ question: answer, statement: [log, reply] }`. */
export type RoutingMap = { readonly [route: string]: NodeLike | readonly NodeLike[] };
/** One element of a chain: a node, a fan-out list, or a routing map after a node. */
export type ChainElement = NodeLike | "START" | readonly NodeLike[] | RoutingMap;
/** An edge, or a chain of elements linked left to right (`["START", a, { yes: b, no: c }]`). */
export type EdgeItem = Edge | readonly ChainElement[];

/** A directed edge; `route` `null` fires always, otherwise when the node emits a matching route. */
export class Edge {
  constructor(
    readonly from: NodeLike | "START",
    readonly to: NodeLike,
    readonly route: RouteKey | readonly RouteKey[] | null = null,
  ) {}
}

/** An edge between built nodes (`from` `undefined` is START). */
export interface GraphEdge {
  readonly from: WorkflowNode | undefined;
  readonly to: WorkflowNode;
  readonly route: RouteKey | readonly RouteKey[] | null;
}

/** A workflow's graph: nodes (by identity from the edges), edges, and the terminal nodes. */
export class Graph {
  readonly nodes: readonly WorkflowNode[];
  readonly terminalNames: ReadonlySet<string>;
  private readonly byName: ReadonlyMap<string, WorkflowNode>;

  constructor(readonly edges: readonly GraphEdge[]) {
    const nodes: WorkflowNode[] = [];
    for (const edge of edges)
      for (const n of [edge.from, edge.to]) if (n !== undefined && !nodes.includes(n)) nodes.push(n);
    this.nodes = nodes;
    this.terminalNames = validateGraph(nodes, edges);
    this.byName = new Map(nodes.map((n) => [n.name, n]));
  }

  node(name: string): WorkflowNode {
    const found = this.byName.get(name);
    if (!found) throw new BatonError("internal", `Node ${name} is not in the graph.`);
    return found;
  }

  /** The entry edges' targets. */
  get starts(): WorkflowNode[] {
    return this.edges.filter((e) => e.from === undefined).map((e) => e.to);
  }

  /** The names of the nodes `name` has edges into. */
  predecessorsOf(name: string): string[] {
    return [
      ...new Set(this.edges.filter((e) => e.to.name === name && e.from).map((e) => e.from?.name ?? "")),
    ];
  }

  /**
   * The nodes a finished node leads to (ADK `get_next_pending_nodes`): every unconditional edge, every edge
   * whose route matches one it emitted (by string form), else its `DEFAULT_ROUTE` edge.
   */
  next(name: string, emitted: Route | undefined): WorkflowNode[] {
    const routes = emitted === undefined ? [] : (Array.isArray(emitted) ? emitted : [emitted]).map(String);
    const next: WorkflowNode[] = [];
    let matched = false;
    let fallback: WorkflowNode | undefined;
    for (const edge of this.edges) {
      if (edge.from?.name !== name) continue;
      if (edge.route === null) next.push(edge.to);
      else if (edge.route === DEFAULT_ROUTE) fallback = edge.to;
      else if (keysOf(edge.route).some((r) => routes.includes(String(r)))) {
        next.push(edge.to);
        matched = true;
      }
    }
    if (!matched && fallback) next.push(fallback);
    return next;
  }
}

const isKeyList = (route: RouteKey | readonly RouteKey[]): route is readonly RouteKey[] =>
  Array.isArray(route);
const keysOf = (route: RouteKey | readonly RouteKey[]): readonly RouteKey[] =>
  isKeyList(route) ? route : [route];

/** Builds the graph of a workflow's edge items (ADK `create_graph_from_edge_items`), validated. */
export function graphOf(items: readonly EdgeItem[]): Graph {
  const built = new Map<object, WorkflowNode>();
  const build = (value: NodeLike | "START"): WorkflowNode | undefined => {
    if (value === "START") return undefined;
    const cached = built.get(value);
    if (cached) return cached;
    const made = node(value);
    built.set(value, made);
    return made;
  };
  const edges: GraphEdge[] = [];
  const link = (from: NodeLike | "START", to: NodeLike | "START", route: GraphEdge["route"]) => {
    const target = build(to);
    if (target === undefined) throw new BatonError("invalid_config", "START must not have incoming edges.");
    edges.push({ from: build(from), to: target, route });
  };
  for (const item of items) {
    if (item instanceof Edge) link(item.from, item.to, item.route);
    else if (Array.isArray(item)) chain(item, link);
    else throw new BatonError("invalid_config", "An edge item must be an Edge or a chain (an array).");
  }
  return new Graph(edges);
}

type Link = (from: NodeLike | "START", to: NodeLike | "START", route: GraphEdge["route"]) => void;

/** A chain's links: each element to the next, a routing map expanded into one edge per route and target. */
function chain(elements: readonly ChainElement[], link: Link): void {
  for (let i = 0; i + 1 < elements.length; i++) {
    const from = elements[i];
    const to = elements[i + 1];
    if (from === undefined || to === undefined) continue;
    if (isRoutingMap(to)) {
      if (isRoutingMap(from))
        throw new BatonError("invalid_config", "Two routing maps in a row: split them into separate chains.");
      const entries = Object.entries(to);
      if (entries.length === 0) throw new BatonError("invalid_config", "A routing map must not be empty.");
      for (const [key, targets] of entries)
        for (const f of members(from)) for (const t of members(targets)) link(f, t, routeKey(key));
    } else for (const f of members(from)) for (const t of members(to)) link(f, t, null);
  }
}

/** A routing map key as the route it stands for: `"2"` is 2, `"true"` is true (JavaScript keys are strings). */
function routeKey(key: string): RouteKey {
  if (/^-?\d+$/.test(key)) return Number(key);
  if (key === "true" || key === "false") return key === "true";
  return key;
}

function members(element: ChainElement): (NodeLike | "START")[] {
  if (isRoutingMap(element)) return Object.values(element).flatMap((t) => members(t));
  if (Array.isArray(element)) return [...element];
  // SAFETY: not a routing map and not a list, so a single node-like value (or "START").
  return [element as NodeLike | "START"];
}

function isRoutingMap(value: unknown): value is RoutingMap {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  if (isWorkflowNode(value) || isFunctionTool(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
