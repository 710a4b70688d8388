import { BatonError } from "../core/errors.js";
import type { GraphEdge } from "./graph.js";
import type { WorkflowNode } from "./node.js";

const DEFAULT_ROUTE = "__DEFAULT__";

const refuse = (message: string): never => {
  throw new BatonError("invalid_config", `Graph validation failed. ${message}`);
};

const routeList = (route: GraphEdge["route"]): (string | null)[] => {
  if (route === null) return [null];
  const list: readonly unknown[] = Array.isArray(route) ? route : [route];
  return list.map(String);
};

/**
 * ADK 2.x's checks of a graph, when the workflow is built: unique node names, an entry, no routed or incoming
 * edge at START, every node reachable, no duplicate edge, one `DEFAULT_ROUTE` per node and never in a list,
 * no cycle without a routed edge. Returns the terminal nodes' names (no outgoing edge).
 */
export function validateGraph(nodes: readonly WorkflowNode[], edges: readonly GraphEdge[]): Set<string> {
  const names = new Set<string>();
  const duplicates = new Set<string>();
  for (const n of nodes) (names.has(n.name) ? duplicates : names).add(n.name);
  if (duplicates.size > 0)
    refuse(
      `Duplicate node names found: ${JSON.stringify([...duplicates].sort())}. Pass the same object to reuse a node, or give distinct nodes distinct names.`,
    );
  const entries = edges.filter((e) => e.from === undefined);
  if (entries.length === 0) refuse("No edge starts at START.");
  for (const e of entries)
    if (e.route !== null) refuse(`Edges from START must not have routes (edge to ${e.to.name}).`);
  const adjacent = new Map<string, string[]>([...names].map((n) => [n, []]));
  for (const e of edges) if (e.from) adjacent.get(e.from.name)?.push(e.to.name);
  const reachable = new Set<string>();
  const stack = entries.map((e) => e.to.name);
  for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
    if (reachable.has(n)) continue;
    reachable.add(n);
    stack.push(...(adjacent.get(n) ?? []));
  }
  const unreachable = [...names].filter((n) => !reachable.has(n)).sort();
  if (unreachable.length > 0)
    refuse(`The following nodes are unreachable from START: ${JSON.stringify(unreachable)}`);
  const seen = new Set<string>();
  const defaults = new Map<string, string>();
  for (const e of edges) {
    const from = e.from?.name ?? "START";
    for (const route of routeList(e.route)) {
      const key = JSON.stringify([from, e.to.name, route]);
      if (seen.has(key))
        refuse(
          `Duplicate edge found: from=${from}, to=${e.to.name}${route === null ? "" : `, route=${JSON.stringify(route)}`}.`,
        );
      seen.add(key);
    }
    if (Array.isArray(e.route) && routeList(e.route).includes(DEFAULT_ROUTE))
      refuse(
        `DEFAULT_ROUTE cannot be combined with other routes in a list (edge from=${from}, to=${e.to.name}).`,
      );
    if (e.route === DEFAULT_ROUTE) {
      const other = defaults.get(from);
      if (other !== undefined)
        refuse(`Multiple DEFAULT_ROUTE edges found from node ${from} to ${other} and ${e.to.name}`);
      defaults.set(from, e.to.name);
    }
  }
  refuseUnconditionalCycles(edges, names);
  const sources = new Set(edges.flatMap((e) => (e.from ? [e.from.name] : [])));
  return new Set([...names].filter((n) => !sources.has(n)));
}

/** A cycle of unconditional edges has no exit: one of its edges must be routed. */
function refuseUnconditionalCycles(edges: readonly GraphEdge[], names: ReadonlySet<string>): void {
  const next = new Map<string, string[]>([...names].map((n) => [n, []]));
  for (const e of edges) if (e.from && e.route === null) next.get(e.from.name)?.push(e.to.name);
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (n: string): void => {
    path.push(n);
    for (const m of next.get(n) ?? []) {
      const at = path.indexOf(m);
      if (at >= 0)
        refuse(
          `Unconditional cycle detected: ${[...path.slice(at), m].join(" -> ")}. Break it with at least one routed edge so a node can leave the cycle.`,
        );
      if (!done.has(m)) visit(m);
    }
    path.pop();
    done.add(n);
  };
  for (const n of names) if (!done.has(n)) visit(n);
}
