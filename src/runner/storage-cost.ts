import type { Event } from "../core/event.js";
import { TEMP_PREFIX } from "../core/state.js";
import { storedBytes } from "../core/stored-size.js";
import { ATTR, type SpanAttributes } from "../core/trace.js";
import { utf8Length } from "./utf8-length.js";

const jsonBytes = (event: Event): number => utf8Length(JSON.stringify(event));

/**
 * What a turn wrote to session storage, counted as the runner stores it: one row per event plus one per
 * state key its delta writes (`temp:` keys are never stored), and the bytes of the stored event JSON (as
 * the store counted them when it wrote the row, if it said: `core/stored-size.ts`).
 * The trace row itself is counted when the trace is finished.
 */
export class StorageCost {
  #rows = 0;
  #bytes = 0;

  add(stored: Event): void {
    this.#rows += 1;
    for (const key in stored.actions.stateDelta) if (!key.startsWith(TEMP_PREFIX)) this.#rows += 1;
    this.#bytes += storedBytes(stored, jsonBytes);
  }

  attributes(): SpanAttributes {
    return { [ATTR.rowsWritten]: this.#rows, [ATTR.bytesWritten]: this.#bytes };
  }
}
