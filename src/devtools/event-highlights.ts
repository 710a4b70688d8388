import { functionCallsOf, functionResponsesOf } from "../core/content.js";
import type { Event } from "../core/event.js";
import type { Highlight } from "./agent-graph.js";

/**
 * What to light up in the graph for one event, as ADK's web server does: a call lights author → tool, a
 * response tool → author, anything else the author alone. A transfer also lights author → target.
 */
export function eventHighlights(event: Event): Highlight[] {
  const calls = functionCallsOf(event.content);
  const responses = functionResponsesOf(event.content);
  const pairs: Highlight[] = [
    ...calls.map((call): Highlight => [event.author, call.name]),
    ...responses.map((response): Highlight => [response.name, event.author]),
  ];
  const target = event.actions.transferToAgent;
  if (target) pairs.push([event.author, target]);
  return pairs.length > 0 ? pairs : [[event.author, ""]];
}
