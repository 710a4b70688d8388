import type { BaseAgent } from "../agents/base-agent.js";
import type { Event } from "../core/event.js";
import { agentGraphDot } from "./agent-graph.js";
import { agentInfo } from "./agent-info.js";
import { eventHighlights } from "./event-highlights.js";
import { agentAt } from "./graph-levels.js";
import { asWorkflow } from "./workflow-shape.js";

const nameOf = (segment: string): string => segment.split("@")[0] ?? segment;

/**
 * `…/events/:event/graph`: the graph with the event lit up. A workflow node's event lights its node in its
 * workflow's graph, with the edge from the node that spoke before it in the invocation (as adk-devtools'
 * `getWorkflowHighlights` does); any other event lights the agent tree as ADK's web server does.
 */
export function eventGraph(root: BaseAgent, events: readonly Event[], event: Event): string {
  const path = event.nodeInfo?.path;
  if (!path) return agentGraphDot(root, { highlights: eventHighlights(event) });
  const segments = path.split("/").map(nameOf);
  const leaf = segments.at(-1) ?? "";
  const level = asWorkflow(safeAgentAt(root, segments.slice(0, -1).join("/")));
  if (!level) return agentGraphDot(root, { highlights: eventHighlights(event) });
  const before = events
    .slice(0, events.indexOf(event))
    .findLast((e) => e.invocationId === event.invocationId && e.nodeInfo?.path && e.nodeInfo.path !== path);
  const previous = before?.nodeInfo?.path?.split("/").map(nameOf);
  const from = previous && previous.length === segments.length ? (previous.at(-1) ?? "") : "";
  return level.graphDot(agentInfo, { lit: [from, leaf] });
}

function safeAgentAt(root: BaseAgent, path: string): BaseAgent | undefined {
  try {
    return agentAt(root, path);
  } catch {
    return undefined; // A path of a tree that changed since: drawn as the agent tree instead.
  }
}
