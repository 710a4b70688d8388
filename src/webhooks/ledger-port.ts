/**
 * What the turn queue asks of the ledger of turns (`turnLedger` over the turn shards): the interfaces
 * alone, with no Durable Object types, so the declarations of what uses a ledger (webhook acceptance, the
 * Worker's deps) read in a project that has no Workers types, as a Node project's tsc checks them.
 */
import type { ThreadMessage } from "../core/email.js";
import type { SessionKey } from "../core/session.js";
import type { NewTurnRecord, TurnOrigin, TurnRecord, TurnStatus } from "./turn-record.js";

/** One turn's record, in its session's shard. */
export interface TurnHandle {
  get(): Promise<TurnRecord | null>;
  /** See `TurnObject.begin`: the turn runs only when the record's `heldBy` is `messageId`. */
  begin(messageId: string): Promise<TurnRecord | null>;
  wait(afterBegin: boolean): Promise<TurnRecord | null>;
  settle(
    status: TurnStatus,
    note?: { error?: string; result?: TurnRecord["result"]; place?: number },
  ): Promise<TurnRecord | null>;
  note(error: string): Promise<void>;
}

/** A session's line of queued turns: they run in the order they were accepted. */
export interface LineHandle {
  /** The turn at the head, `null` when the line is empty. */
  head(): Promise<string | null>;
  /** Leaves the line; the new head, `null` when it is empty. */
  leave(turnId: string): Promise<string | null>;
}

/** A delivery to accept: its record, and the SHA-256 of its body when the scheme signs no id or time. */
export interface Acceptance {
  fresh: NewTurnRecord;
  bodySha256?: string;
}

/** `created: false`: the delivery (or its body) was seen; `turnId` is the turn that stands. */
export interface Accepted {
  created: boolean;
  turnId: string;
  record: TurnRecord | null;
}

/** Turns and session lines in the shards that hold them. */
export interface TurnLedger {
  /** The turn id of a delivery: the same delivery of the same source to a session always gets the same one. */
  turnIdOf(
    appName: string,
    origin: TurnOrigin,
    source: string,
    deliveryId: string,
    session: SessionKey,
  ): string;
  /** Guard, record and place in the session's line, in one write; see `TurnObject.accept`. */
  accept(acceptance: Acceptance): Promise<Accepted>;
  /** Confirms that an accepted turn's message was sent, so its shard's alarm sends none. */
  sent(acceptance: Acceptance): Promise<void>;
  /** Undoes an `accept` whose message could not be enqueued. */
  withdraw(acceptance: Acceptance): Promise<void>;
  /** The turn, or `null` for an id that names no shard. */
  turn(turnId: string): TurnHandle | null;
  /** The line of a session's queued turns. */
  line(key: SessionKey): LineHandle;
  /**
   * Mail thread `root` of an app's user (decision 048): the branch a message joins, by who took part in
   * each (`email/mail-threads.ts`); `null` when the thread has no room for another.
   */
  joinThread(
    thread: { appName: string; userId: string; root: string },
    message: ThreadMessage,
  ): Promise<number | null>;
}
