import type { Event } from "../core/event.js";
import type { EventWindow } from "../core/session-store.js";

/** The events a window selects from a log in append order: at or after `afterTimestamp`, then the last n. */
export function selectWindow(events: readonly Event[], window: EventWindow = {}): Event[] {
  const { numRecentEvents, afterTimestamp } = window;
  const recent = afterTimestamp === undefined ? events : events.filter((e) => e.timestamp >= afterTimestamp);
  if (numRecentEvents === undefined) return [...recent];
  return numRecentEvents > 0 ? recent.slice(-numRecentEvents) : [];
}

/** The same window's SQL `LIMIT` on a newest-first scan: -1 is SQLite's "no limit". */
export const windowLimit = (window: EventWindow): number =>
  window.numRecentEvents === undefined ? -1 : Math.max(0, Math.floor(window.numRecentEvents));
