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

/** The actions of an event that does nothing but speak (most events), shared by every such stored event. */
const NO_ACTIONS: Event["actions"] = Object.freeze({
  stateDelta: EMPTY,
  artifactDelta: EMPTY,
  requestedAuthConfigs: EMPTY,
  requestedToolConfirmations: EMPTY,
});

/** How many own enumerable keys `value` has, counted without making a list. */
function keyCount(value: object): number {
  let count = 0;
  for (const _ in value) count++;
  return count;
}

/**
 * `stored` (a fresh `persistedEvent`, not yet frozen) with its empty action maps replaced by one shared
 * frozen map, and its actions by one shared object when they are only those four empty maps: up to five
 * fewer objects kept per event by a store that keeps events in memory. The JSON is the same.
 */
export function sharingEmptyMaps(stored: Event): Event {
  const { actions } = stored;
  actions.stateDelta = orEmpty(actions.stateDelta);
  actions.artifactDelta = orEmpty(actions.artifactDelta);
  actions.requestedAuthConfigs = orEmpty(actions.requestedAuthConfigs);
  actions.requestedToolConfirmations = orEmpty(actions.requestedToolConfirmations);
  const onlyEmptyMaps =
    keyCount(actions) === 4 &&
    actions.stateDelta === EMPTY &&
    actions.artifactDelta === EMPTY &&
    actions.requestedAuthConfigs === EMPTY &&
    actions.requestedToolConfirmations === EMPTY;
  if (onlyEmptyMaps) stored.actions = NO_ACTIONS;
  return stored;
}

const orEmpty = <T extends Record<string, unknown>>(map: T): T => (hasKeys(map) ? map : (EMPTY as T)); // SAFETY: an empty map of any value type.

/** A new session's seed events as stored (partial ones dropped), or the id of one given twice. */
export function seedEvents(
  events: readonly Event[],
): { ok: true; seeds: Event[] } | { ok: false; repeated: string } {
  const seeds = events.filter((event) => !event.partial).map(persistedEvent);
  const repeated = seeds.find((event, i) => seeds.findIndex((e) => e.id === event.id) !== i);
  return repeated ? { ok: false, repeated: repeated.id } : { ok: true, seeds };
}
