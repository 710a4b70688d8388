import type { Event } from "../core/event.js";
import { hasKeys, withoutTemp } from "../core/state.js";

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

/** One frozen empty map for every stored event that writes nothing there (most write no state at all). */
const EMPTY: Record<string, never> = Object.freeze({});

/**
 * `stored` (a fresh `persistedEvent`, not yet frozen) with its empty action maps replaced by one shared
 * frozen map: four fewer objects kept per event by a store that keeps events in memory. The JSON is the same.
 */
export function sharingEmptyMaps(stored: Event): Event {
  const { actions } = stored;
  if (!hasKeys(actions.stateDelta)) actions.stateDelta = EMPTY;
  if (!hasKeys(actions.artifactDelta)) actions.artifactDelta = EMPTY;
  if (!hasKeys(actions.requestedAuthConfigs)) actions.requestedAuthConfigs = EMPTY;
  if (!hasKeys(actions.requestedToolConfirmations)) actions.requestedToolConfirmations = EMPTY;
  return stored;
}
