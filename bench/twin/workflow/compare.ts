/**
 * How the workflow twin compares ADK's stored events with Baton's. Each event is reduced to what both
 * frameworks decide: author, node path, output, text, function calls and responses by name, whether it
 * waits on the user, route, branch, and whether its text is its node's output. What differs by design is
 * mapped or left out (decision 049): ADK TS joins node paths with `.`, Baton with `/` as ADK Python and the
 * dev UI do; ADK TS writes `route` on the event, Baton in `actions`; ids and timestamps are each framework's
 * own; Baton's running marks (content-less `agentState: {status: "running"}` events of nodes that are not
 * idempotent) have no ADK counterpart; Baton's node-input user events carry their node's path.
 */

export interface Shape {
  author: string | undefined;
  path: string | undefined;
  output: string | undefined;
  text: string;
  calls: string[];
  responses: string[];
  waits: boolean;
  route: string | undefined;
  branch: string | undefined;
  messageAsOutput: boolean;
}

interface AnyEvent {
  author?: string | undefined;
  branch?: string | undefined;
  output?: unknown;
  route?: unknown;
  nodeInfo?: { path?: string | undefined; messageAsOutput?: boolean | undefined } | undefined;
  longRunningToolIds?: readonly string[] | undefined;
  content?: { parts?: readonly object[] | undefined } | undefined;
  actions?: { route?: unknown; agentState?: Record<string, unknown> | undefined } | undefined;
}

const json = (value: unknown): string | undefined =>
  value === undefined ? undefined : JSON.stringify(value);

function shape(event: AnyEvent, separator: "." | "/"): Shape {
  const parts: Record<string, unknown>[] = (event.content?.parts ?? []).map((p) => ({ ...p }));
  const named = (key: string) =>
    parts.flatMap((p) => {
      const value = p[key];
      return typeof value === "object" && value !== null && "name" in value ? [String(value.name)] : [];
    });
  const path = event.nodeInfo?.path;
  return {
    author: event.author,
    path: event.author === "user" ? undefined : separator === "." ? path?.replaceAll(".", "/") : path,
    output: json(event.output),
    text: parts.map((p) => (typeof p.text === "string" ? p.text : "")).join(""),
    calls: named("functionCall"),
    responses: named("functionResponse"),
    waits: (event.longRunningToolIds?.length ?? 0) > 0,
    route: json(event.route ?? event.actions?.route),
    branch: event.branch,
    messageAsOutput: event.nodeInfo?.messageAsOutput === true,
  };
}

const isRunningMark = (e: AnyEvent) =>
  e.actions?.agentState?.status === "running" && (e.content?.parts ?? []).length === 0;

export const adkShapes = (events: readonly AnyEvent[]): Shape[] => events.map((e) => shape(e, "."));
export const batonShapes = (events: readonly AnyEvent[]): Shape[] =>
  events.filter((e) => !isRunningMark(e)).map((e) => shape(e, "/"));

/** The events ADK orders: everything not on a fan-out branch, in session order. */
export const ordered = (shapes: readonly Shape[]): Shape[] => shapes.filter((s) => s.branch === undefined);

/** Each fan-out branch's events, in order: parallel branches interleave as their work finishes. */
export function byBranch(shapes: readonly Shape[]): Record<string, Shape[]> {
  const out: Record<string, Shape[]> = {};
  for (const s of shapes) {
    if (s.branch === undefined) continue;
    const list = out[s.branch] ?? [];
    list.push(s);
    out[s.branch] = list;
  }
  return out;
}
