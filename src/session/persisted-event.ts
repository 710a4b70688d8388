import type { Event } from "../core/event.js";
import { withoutTemp } from "../core/state.js";

/**
 * The event as stored and returned by an append: its `temp:` keys removed (ADK-SEMANTICS §4.3 step 2).
 * Copied with `Object.assign`, not a spread: V8 gives a spread's copy a hidden class outside its
 * transition tree once the spread has seen a few shapes, and freezing such an object then makes a hidden
 * class for it alone, so every stored event had its own (memory, and slow reads everywhere). An event's
 * keys are its schema's (zod strips any other), so assigning them reaches no prototype.
 */
export function persistedEvent(event: Event): Event {
  const actions = Object.assign({}, event.actions);
  actions.stateDelta = withoutTemp(event.actions.stateDelta);
  const stored = Object.assign({}, event);
  stored.actions = actions;
  return stored;
}
