import { BatonError } from "../core/errors.js";
import type { IdSource } from "../core/ids.js";
import { newInvocationId } from "../core/ids.js";
import type { TurnRequest } from "../core/webhook.js";
import type { TurnLedger } from "./turn-ledger.js";
import type { TurnMessage, TurnOrigin } from "./turn-record.js";

/** What enqueuing needs: the turn objects, the queue, and ids for the invocation and user event. */
export interface EnqueueDeps {
  ledger: TurnLedger;
  queue: { send(message: TurnMessage): Promise<unknown> };
  ids: IdSource;
}

/** A turn to queue, named by what started it and a delivery id unique to that source. */
export interface TurnClaim {
  appName: string;
  origin: TurnOrigin;
  source: string;
  deliveryId: string;
  turn: TurnRequest;
  context?: Record<string, unknown>;
}

export type EnqueueOutcome = { kind: "accepted" | "duplicate"; turnId: string; sessionId: string };

/**
 * Claims the delivery in its turn object and, for a new claim only, enqueues `{ turnId }`: every copy of a
 * delivery gets the one turn. If the send fails the claim is forgotten, so a retry is accepted afresh.
 */
export async function enqueueTurn(claim: TurnClaim, deps: EnqueueDeps): Promise<EnqueueOutcome> {
  const { appName, origin, source, deliveryId, turn } = claim;
  const turnId = deps.ledger.turnIdOf(appName, origin, source, deliveryId);
  const object = deps.ledger.turn(turnId);
  if (!object) throw new BatonError("internal", `Turn id ${turnId} was not issued by the turn namespace.`);
  const { created, record } = await object.claim({
    turnId,
    appName,
    origin,
    source,
    deliveryId,
    userId: turn.userId,
    sessionId: turn.sessionId,
    invocationId: newInvocationId(deps.ids),
    userEventId: deps.ids.uuid(),
    request: turn,
    ...(claim.context ? { context: claim.context } : {}),
  });
  if (!created) return { kind: "duplicate", turnId, sessionId: record.sessionId };
  try {
    await deps.queue.send({ turnId });
  } catch (error) {
    // Not enqueued: forget the claim so a retry of this delivery is accepted afresh.
    await object.forget();
    throw new BatonError("internal", "The turn could not be enqueued; retry the delivery.", { cause: error });
  }
  return { kind: "accepted", turnId, sessionId: turn.sessionId };
}
