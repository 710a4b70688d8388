import * as z from "zod";
import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import type { Session } from "../core/session.js";
import type { BeginTurnOptions, EventWindow } from "../core/session-store.js";
import { type RpcResult, refuse } from "../storage/rpc-result.js";
import type { HeldRows, WindowRows } from "./held-rows.js";
import type { SessionCache, SessionMeta } from "./session-cache.js";
import type { SessionRow } from "./session-sql.js";

/** What the object returns: the session with its own state only (no `app:`/`user:` keys). */
export interface SessionRecord extends Session {}

/** `lease` is the presented lease, if any; a matching live lease is renewed for `leaseTtlMs`. */
export interface AppendInput {
  event: Event;
  lease?: string | undefined;
  leaseTtlMs: number;
}

export interface BeginTurnInput extends BeginTurnOptions {
  event: Event;
  window: EventWindow;
  leaseTtlMs: number;
  /**
   * What the caller already holds of the log (`null`: nothing yet). Given, a count window is answered with
   * `rows`, and with only the events after the held ones when those can be reused (decision 025).
   */
  held?: HeldRows | null;
  /**
   * The turn runs inside this session's object (decision 040), so it dies with the object's lifetime: an
   * object that restarts resumes it at once instead of waiting out its lease (decision 047).
   */
  here?: boolean;
  /** The turn host of the Worker that begins the turn, for the object to resume it in place (decision 047). */
  host?: string;
}

/**
 * A begun turn: the session as the turn starts, its lease, and whether its user event was stored before.
 * With `rows` (the caller passed `held`), `session.events` are the events `rows` describes.
 */
export interface TurnBegun {
  session: SessionRecord;
  lease: string;
  resumed: boolean;
  rows?: WindowRows;
  /** The invocation this message was merged into (`merge`): no turn began for it, `lease` is empty. */
  joined?: string;
}

/** A turn trace as the store sends it to `endTurn`: its invocation and its JSON, serialised in the Worker. */
export interface TraceRow {
  invocationId: string;
  json: string;
}

export const notFound = (): RpcResult<never> =>
  refuse(new BatonError("session_not_found", "Session not found"));

/**
 * `read`'s result, or a `storage_error` refusal naming the fields when a stored row fails its zod check.
 * Thrown out of an RPC method, that error would reach the caller too, but workerd also reports it as an
 * uncaught exception of the object; returned, it is the caller's alone.
 */
export function readable<T>(read: () => RpcResult<T>): RpcResult<T> {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof z.ZodError)) throw error;
    return refuse(new BatonError("storage_error", `A stored row is invalid: ${z.prettifyError(error)}`));
  }
}

/** The session row as the cache keeps it. */
export const metaOf = (row: SessionRow): SessionMeta => ({
  appName: row.app_name,
  userId: row.user_id,
  sessionId: row.session_id,
  lastUpdateTime: row.last_update_time,
  lease:
    row.lease_token === null || row.lease_expires_at === null
      ? null
      : { token: row.lease_token, expiresAt: row.lease_expires_at },
  epoch: row.epoch,
});

/** The session as a record without its events. */
export function recordOf(cache: SessionCache): Omit<SessionRecord, "events"> {
  const { meta } = cache;
  return {
    id: meta.sessionId,
    appName: meta.appName,
    userId: meta.userId,
    state: { ...cache.state },
    lastUpdateTime: meta.lastUpdateTime,
  };
}
