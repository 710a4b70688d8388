import type { ThreadMessage } from "../core/email.js";
import { BatonError } from "../core/errors.js";
import type { SessionKey } from "../core/session.js";
import type { TurnObject } from "../objects/turn-object.js";
import { type Remote, remote } from "../storage/rpc-result.js";
import type { NewTurnRecord, TurnOrigin, TurnRecord, TurnStatus } from "./turn-record.js";

/** The binding that holds the turn shards (wrangler `durable_objects.bindings`). */
export type TurnNamespace = DurableObjectNamespace<TurnObject>;

/**
 * How many shards hold queued turns. A turn id names its shard, so changing this strands the turns already
 * stored: it is fixed (decision 038). 32 objects, each far from a Durable Object's request rate.
 */
export const TURN_SHARDS = 32;

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

/** Webhooks keep the names they had before other origins existed, so their turn ids stay the same. */
const sourceKey = (origin: TurnOrigin, source: string) =>
  origin === "webhook" ? source : `${origin}:${source}`;

/** FNV-1a over the UTF-16 units: a stable, well-spread shard index for any name. */
function shardIndex(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) hash = Math.imul(hash ^ name.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % TURN_SHARDS;
}

const lineName = (key: SessionKey) => JSON.stringify(["line", key.appName, key.userId, key.sessionId]);
const guardName = (record: NewTurnRecord, bodySha256: string) =>
  JSON.stringify(["replay", record.appName, record.source, bodySha256]);

/** A turn id: its shard (two hex digits), then 62 of a keyed hash of the delivery. */
const TURN_ID = /^([0-9a-f]{2})[0-9a-f]{62}$/;

/** The shard a turn id names, `undefined` for a string that is not a turn id. */
function shardOfTurn(turnId: string): number | undefined {
  const digits = TURN_ID.exec(turnId)?.[1];
  const index = digits === undefined ? Number.NaN : Number.parseInt(digits, 16);
  return index < TURN_SHARDS ? index : undefined;
}

export function turnLedger(namespace: TurnNamespace): TurnLedger {
  // A stub per use, never kept: a ledger may outlive the request whose I/O context made a stub.
  const shard = (index: number): Remote<TurnObject> => remote(namespace.getByName(`turn-shard-${index}`));
  /** A new turn's shard: the one its id names (`turnIdOf` puts its session's shard there). */
  const turnShard = ({ fresh }: Acceptance) => {
    const index = shardOfTurn(fresh.turnId);
    if (index === undefined) throw new BatonError("internal", `Not a turn id: ${fresh.turnId}.`);
    return shard(index);
  };
  const guardOf = ({ fresh, bodySha256 }: Acceptance) =>
    bodySha256 === undefined ? undefined : guardName(fresh, bodySha256);
  return {
    turnIdOf(appName, origin, source, deliveryId, session) {
      // `idFromName` is a keyed hash computed in place (no object is made); the session's shard leads it.
      const hash = namespace.idFromName(JSON.stringify([appName, sourceKey(origin, source), deliveryId]));
      return shardIndex(lineName(session)).toString(16).padStart(2, "0") + hash.toString().slice(2);
    },
    accept: (acceptance) =>
      turnShard(acceptance).accept(acceptance.fresh, lineName(acceptance.fresh), guardOf(acceptance)),
    sent: (acceptance) => turnShard(acceptance).sent(acceptance.fresh.turnId),
    withdraw: (acceptance) =>
      turnShard(acceptance).withdraw(
        acceptance.fresh.turnId,
        lineName(acceptance.fresh),
        guardOf(acceptance),
      ),
    turn(turnId) {
      const index = shardOfTurn(turnId);
      if (index === undefined) return null;
      const held = shard(index);
      return {
        get: () => held.get(turnId),
        begin: (messageId) => held.begin(turnId, messageId),
        wait: (afterBegin) => held.wait(turnId, afterBegin),
        settle: (status, note) => held.settle(turnId, status, note),
        note: (error) => held.note(turnId, error),
      };
    },
    line(key) {
      const name = lineName(key);
      const held = shard(shardIndex(name));
      return { head: () => held.head(name), leave: (turnId) => held.leave(name, turnId) };
    },
    joinThread(thread, message) {
      const name = JSON.stringify(["mail-thread", thread.appName, thread.userId, thread.root]);
      return shard(shardIndex(name)).joinThread(name, message);
    },
  };
}
