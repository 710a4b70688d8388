import { BatonError } from "../core/errors.js";
import type { SessionKey } from "../core/session.js";
import type { TurnObject } from "../objects/turn-object.js";
import { type Remote, remote } from "../storage/rpc-result.js";
import type { Acceptance, TurnLedger } from "./ledger-port.js";
import type { NewTurnRecord, TurnOrigin } from "./turn-record.js";

/** The binding that holds the turn shards (wrangler `durable_objects.bindings`). */
export type TurnNamespace = DurableObjectNamespace<TurnObject>;

/**
 * How many shards hold queued turns. A turn id names its shard, so changing this strands the turns already
 * stored: it is fixed (decision 038). 32 objects, each far from a Durable Object's request rate.
 */
export const TURN_SHARDS = 32;

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
