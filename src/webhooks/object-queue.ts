import type { TurnMessage } from "./turn-record.js";

/** A Queue producer of turn messages, as objects send on it. */
export interface TurnSender {
  send(message: TurnMessage): Promise<unknown>;
}

/**
 * The producer Durable Objects queue turns on (a session's reminders and resumed turns, a turn shard's
 * unsent turns), from the object's env: the binding `REMINDER_QUEUE` names, default `TURNS`; `null`
 * when it is not bound.
 */
export function objectQueueOf(env: object): TurnSender | null {
  const named: unknown = Reflect.get(env, "REMINDER_QUEUE");
  const queue: unknown = Reflect.get(env, typeof named === "string" && named !== "" ? named : "TURNS");
  if (typeof queue !== "object" || queue === null || typeof Reflect.get(queue, "send") !== "function")
    return null;
  // SAFETY: the binding wrangler.toml declares under this name is a Queue producer of turn messages.
  return queue as TurnSender;
}
