import type { Event } from "../core/event.js";
import { withoutTemp } from "../core/state.js";

/** The event as stored and returned by an append: its `temp:` keys removed (ADK-SEMANTICS §4.3 step 2). */
export function persistedEvent(event: Event): Event {
  return { ...event, actions: { ...event.actions, stateDelta: withoutTemp(event.actions.stateDelta) } };
}
