import type { Event } from "../core/event.js";
import { TEMP_PREFIX } from "../core/state.js";
import { ATTR, type SpanAttributes } from "../core/trace.js";

const encoder = new TextEncoder();

/**
 * What a turn wrote to session storage, counted as the runner stores it: one row per event plus one per
 * state key its delta writes (`temp:` keys are never stored), and the bytes of the stored event JSON.
 * The trace row itself is counted when the trace is finished.
 */
export class StorageCost {
  #rows = 0;
  #bytes = 0;

  add(stored: Event): void {
    const keys = Object.keys(stored.actions.stateDelta).filter((k) => !k.startsWith(TEMP_PREFIX));
    this.#rows += 1 + keys.length;
    this.#bytes += encoder.encode(JSON.stringify(stored)).byteLength;
  }

  attributes(): SpanAttributes {
    return { [ATTR.rowsWritten]: this.#rows, [ATTR.bytesWritten]: this.#bytes };
  }
}
