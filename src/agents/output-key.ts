import { textOf } from "../core/content.js";
import { type Event, isFinalResponse } from "../core/event.js";

/**
 * ADK `output_key`: the final, non-thought text of an agent's own event goes to `state[key]`, on that
 * event's state delta so it is stored with it (ADK-SEMANTICS §3.5). A whitespace-only text is ignored;
 * `parse` turns the text into the stored value (an output schema's parsed object).
 */
export function writeOutputKey(
  key: string | undefined,
  event: Event,
  parse: (text: string) => unknown = (text) => text,
): void {
  if (key === undefined || !isFinalResponse(event)) return;
  const text = textOf(event.content);
  if (text.trim() !== "") event.actions.stateDelta[key] = parse(text);
}
