import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import { deepFreeze } from "../core/frozen.js";
import type { SessionKey } from "../core/session.js";
import type { EventWindow } from "../core/session-store.js";
import { type StateMap, splitStateDelta } from "../core/state.js";
import { ok, type RpcResult, refuse } from "../storage/rpc-result.js";
import { readState, writeState } from "../storage/state-table.js";
import { CacheLedger } from "./cache-ledger.js";
import { windowLimit } from "./event-window.js";
import type { Lease } from "./lease.js";
import { persistedEvent } from "./persisted-event.js";
import { type CachedRow, SessionCache } from "./session-cache.js";
import { metaOf, notFound, readable, recordOf, type SessionRecord } from "./session-records.js";
import {
  cachedRow,
  INSERT_EVENT,
  INSERT_SESSION,
  SELECT_AFTER_TIME_NEWEST_FIRST,
  SELECT_EVENTS_AFTER,
  SELECT_OLDER_NEWEST_FIRST,
  SELECT_SESSION,
  SET_LEASE,
  TOUCH_SESSION,
} from "./session-sql.js";

/** Counts the UTF-8 bytes of each row written, for the turn's trace (`core/stored-size.ts`). */
const encoder = new TextEncoder();

/**
 * Cache budgets in bytes of event JSON (the parsed objects take a few times that in the heap): one object
 * keeps at most 8 MiB of its newest events, and all session objects of an isolate 16 MiB together, well
 * inside the isolate's 128 MB. A window larger than that is read from SQL, checked again, each time.
 */
export const OBJECT_CACHE_BYTES = 8 * 2 ** 20;
export const ISOLATE_CACHE_BYTES = 16 * 2 ** 20;
/** Plain numbers and drop callbacks only: no I/O object of one Durable Object is kept here for another. */
const ledger = new CacheLedger(ISOLATE_CACHE_BYTES);

/** The largest row seq SQLite can hold: "before it" means every row. */
const END_OF_LOG = Number.MAX_SAFE_INTEGER;

/** What the user's session index keeps of a session, and whether a turn holds its lease (decision 046). */
export interface IndexedEntry {
  lastUpdateTime: number;
  stateJson: string;
  running: boolean;
}

/**
 * A session object's event log and session-scoped state, read and written through its `SessionCache`:
 * every row is checked with zod once, when it enters the cache, and reads after a write see the write
 * because writes go to the cache right after their transaction commits. Budgets above bound it.
 */
export class SessionLog {
  #cache: SessionCache | null = null;

  constructor(private readonly storage: DurableObjectStorage) {}

  get sql(): SqlStorage {
    return this.storage.sql;
  }

  /** The cached session, loading its row and state (not yet its events) on first use; `null` if none. */
  load(): SessionCache | null {
    if (this.#cache) return this.#cache;
    const row = SELECT_SESSION.first(this.sql);
    if (!row) return null;
    const state = readState(this.sql);
    // Values are frozen, the map itself is written in place by later deltas.
    for (const value of Object.values(state)) deepFreeze(value);
    this.#cache = new SessionCache(metaOf(row), state);
    return this.#cache;
  }

  /** The session's index entry at `now` (a lease not yet expired is a running turn); `null` if none. */
  indexEntry(now: number): IndexedEntry | null {
    const cache = this.load();
    if (!cache) return null;
    const { lastUpdateTime, lease } = cache.meta;
    return {
      lastUpdateTime,
      stateJson: JSON.stringify(cache.state),
      running: lease !== null && lease.expiresAt > now,
    };
  }

  /** Forgets the cached session; the next read loads and checks it from SQL again. */
  drop(): void {
    this.#cache = null;
    ledger.forget(this);
  }

  /**
   * Creates the session row, its state and its seed events in one transaction. The caller has checked that
   * none exists and that no seed id repeats; the cache is dropped so the session is read back as cold.
   */
  create(key: SessionKey, state: StateMap, seeds: readonly Event[]): void {
    this.storage.transactionSync(() => {
      const epoch = crypto.randomUUID();
      INSERT_SESSION.run(this.sql, key.appName, key.userId, key.sessionId, Date.now() / 1000, epoch);
      writeState(this.sql, state);
      for (const event of seeds) {
        INSERT_EVENT.first(this.sql, event.id, event.timestamp, JSON.stringify(event));
        writeState(this.sql, splitStateDelta(event.actions.stateDelta).session);
        TOUCH_SESSION.run(this.sql, event.timestamp);
      }
    });
    this.drop();
  }

  /** Writes state keys the object owns (not a turn's change), in storage and in the cache. */
  writeOwnState(cache: SessionCache, values: StateMap): void {
    const written = this.storage.transactionSync(() => writeState(this.sql, values));
    Object.assign(cache.state, deepFreeze(written));
  }

  setLease(cache: SessionCache, lease: Lease): void {
    SET_LEASE.run(this.sql, lease.token, lease.expiresAt);
    cache.meta.lease = lease;
  }

  /**
   * Stores the event, its session-scoped delta and `lastUpdateTime`, plus the `lease` if given, atomically;
   * then, the transaction committed, the same into the cache (the event checked once, as a read would).
   * Answers the row's size in UTF-8 bytes (what the turn's trace counts as written).
   */
  write(cache: SessionCache, event: Event, lease?: Lease): RpcResult<number> {
    const stored = persistedEvent(event);
    const json = JSON.stringify(stored);
    const written = this.storage.transactionSync(() => {
      const inserted = INSERT_EVENT.first(this.sql, stored.id, stored.timestamp, json);
      if (!inserted) return undefined;
      const state = writeState(this.sql, splitStateDelta(stored.actions.stateDelta).session);
      TOUCH_SESSION.run(this.sql, stored.timestamp);
      if (lease) SET_LEASE.run(this.sql, lease.token, lease.expiresAt);
      return { seq: inserted.seq, state };
    });
    if (!written) return refuse(new BatonError("invalid_request", `Event ${stored.id} is already stored`));
    Object.assign(cache.state, deepFreeze(written.state));
    cache.meta.lastUpdateTime = stored.timestamp;
    if (lease) cache.meta.lease = lease;
    cache.append(cachedRow(written.seq, json));
    this.#charge(cache);
    return ok(encoder.encode(json).byteLength);
  }

  /** The session with the events `window` selects; `session_not_found`, or `storage_error` for a bad row. */
  snapshot(window: EventWindow): RpcResult<SessionRecord> {
    return readable(() => {
      const cache = this.load();
      if (!cache) return notFound();
      return ok({ ...recordOf(cache), events: this.#events(cache, window) });
    });
  }

  /** A count window's rows from the cache, first growing it backwards from SQL when it holds too few. */
  rows(cache: SessionCache, window: EventWindow): CachedRow[] {
    const cached = cache.rows(window);
    if (cached) return cached;
    const limit = windowLimit(window);
    const missing = limit < 0 ? -1 : limit - cache.size;
    const before = Math.min(cache.oldestSeq, END_OF_LOG);
    const older = SELECT_OLDER_NEWEST_FIRST.all(this.sql, before, missing).reverse();
    cache.prepend(older, missing < 0 || older.length < missing);
    const rows = cache.rows(window) ?? [];
    this.#charge(cache);
    return rows;
  }

  /**
   * The log's events from the newest back, read from the cache and grown from SQL as far as the reader
   * goes (a turn's own events are the newest: a walk over them reads nothing more).
   */
  *newestFirst(cache: SessionCache): Generator<Event> {
    let seen = 0;
    for (let n = 16; ; n *= 4) {
      const rows = this.rows(cache, { numRecentEvents: n });
      for (let i = rows.length - 1 - seen; i >= 0; i--) {
        const row = rows[i];
        if (row) yield row.event;
      }
      if (rows.length < n) return;
      seen = rows.length;
    }
  }

  /** The window's events from the cache; a time window over a partly cached log is read from SQL directly. */
  #events(cache: SessionCache, window: EventWindow): Event[] {
    if (window.afterTimestamp === undefined) return this.rows(cache, window).map((row) => row.event);
    const cached = cache.window(window);
    if (cached) return cached;
    const newestFirst = SELECT_AFTER_TIME_NEWEST_FIRST.all(
      this.sql,
      window.afterTimestamp,
      windowLimit(window),
    );
    return newestFirst.reverse();
  }

  /**
   * A page of the log, oldest first: the events after seq `after`, at most `size`, ending early once they
   * pass `maxBytes` of JSON (the first is always taken); `last` is the seq of the last one, `more` whether
   * others follow. Read from SQL, not the cache: a walk through a long log must not evict the newest events.
   */
  page(
    after: number,
    size: number,
    maxBytes: number,
  ): RpcResult<{ events: Event[]; last: number; more: boolean }> {
    return readable(() => {
      if (!this.load()) return notFound();
      const rows = SELECT_EVENTS_AFTER.all(this.sql, after, size + 1);
      const events: Event[] = [];
      let bytes = 0;
      let last = after;
      for (const row of rows) {
        if (events.length === size || (events.length > 0 && bytes + row.json.length > maxBytes)) break;
        events.push(cachedRow(row.seq, row.json).event);
        bytes += row.json.length;
        last = row.seq;
      }
      return ok({ events, last, more: events.length < rows.length });
    });
  }

  /** Charges the cache to the budgets: trims it to this object's, then lets the isolate's drop old caches. */
  #charge(cache: SessionCache): void {
    cache.trim(OBJECT_CACHE_BYTES);
    ledger.charge(this, cache.bytes, () => {
      if (this.#cache === cache) this.#cache = null;
    });
  }
}
