import { BatonError } from "../core/errors.js";
import type { IdSource } from "../core/ids.js";
import { newInvocationId } from "../core/ids.js";
import { reservedUserKey } from "../core/reserved-users.js";
import type { TurnRequest } from "../core/webhook.js";
import type { Acceptance, TurnLedger } from "./ledger-port.js";
import type { TurnMessage, TurnOrigin } from "./turn-record.js";

/** What enqueuing needs: the turn objects, the queue, and ids for the invocation and user event. */
export interface EnqueueDeps {
  ledger: TurnLedger;
  queue: { send(message: TurnMessage): Promise<unknown> };
  ids: IdSource;
  /**
   * Keeps work alive after the caller has answered (a Worker's `ctx.waitUntil`). Given, the shard is told
   * of the send after the answer instead of before it; without it the caller waits for that word.
   */
  afterAnswer?: (work: Promise<unknown>) => void;
}

/** A turn to queue, named by what started it and a delivery id unique to that source. */
export interface TurnClaim {
  appName: string;
  origin: TurnOrigin;
  source: string;
  deliveryId: string;
  turn: TurnRequest;
  context?: Record<string, unknown>;
  /**
   * The body's SHA-256 (hex), for a scheme that signs no id or time: a captured body replayed under a new
   * delivery id then gets the turn it first came with.
   */
  bodySha256?: string;
  /** Fixed ids of an invocation to resume (decision 028); left out, new ones are made. */
  invocationId?: string;
  userEventId?: string;
}

export type EnqueueOutcome = { kind: "accepted" | "duplicate"; turnId: string; sessionId: string };

/**
 * The user a queued turn's session belongs to. A turn Baton starts itself (a webhook delivery, a cron
 * firing, an email) names its user from configuration or a payload: that user is one of Baton's own
 * (`baton:<origin>:<userId>`, decision 048), whatever the source said. A reminder or a resumed turn
 * continues a stored session, whose key it carries as it is.
 */
export function queuedTurnUser(origin: TurnOrigin, userId: string, where: string): string {
  switch (origin) {
    case "webhook":
    case "schedule":
    case "email":
      return reservedUserKey(origin, userId, where);
    case "reminder":
    case "resume":
      return userId;
  }
}

/**
 * Accepts the delivery in its session's turn shard and, for a new turn only, enqueues `{ turnId }`: every
 * copy of a delivery gets the one turn. If the send fails the acceptance is withdrawn, so a retry is
 * accepted afresh; once it succeeded the shard is told. A Worker cut off between the accept and that word
 * leaves the turn to its shard, whose alarm sends its message (decision 038, "Accepted, never sent").
 */
export async function enqueueTurn(claim: TurnClaim, deps: EnqueueDeps): Promise<EnqueueOutcome> {
  const { appName, origin, source, deliveryId } = claim;
  const where = `The ${origin} "${source}" of app "${appName}"`;
  const turn = { ...claim.turn, userId: queuedTurnUser(origin, claim.turn.userId, where) };
  const session = { appName, userId: turn.userId, sessionId: turn.sessionId };
  const acceptance: Acceptance = {
    fresh: {
      turnId: deps.ledger.turnIdOf(appName, origin, source, deliveryId, session),
      appName,
      origin,
      source,
      deliveryId,
      userId: turn.userId,
      sessionId: turn.sessionId,
      invocationId: claim.invocationId ?? newInvocationId(deps.ids),
      userEventId: claim.userEventId ?? deps.ids.uuid(),
      request: turn,
      ...(claim.context ? { context: claim.context } : {}),
    },
    ...(claim.bodySha256 === undefined ? {} : { bodySha256: claim.bodySha256 }),
  };
  const accepted = await deps.ledger.accept(acceptance);
  if (!accepted.created)
    return {
      kind: "duplicate",
      turnId: accepted.turnId,
      sessionId: accepted.record?.sessionId ?? turn.sessionId,
    };
  try {
    await deps.queue.send({ turnId: accepted.turnId });
  } catch (error) {
    // Not enqueued: withdraw it (record, place, guard) so a retry of this delivery is accepted afresh.
    await deps.ledger.withdraw(acceptance);
    throw new BatonError("internal", "The turn could not be enqueued; retry the delivery.", { cause: error });
  }
  // Unconfirmed, the shard's alarm sends the turn a copy of its message, which the consumer drops: no harm.
  // So the word need not hold up the provider's answer.
  const confirmed = deps.ledger.sent(acceptance).catch(() => undefined);
  if (deps.afterAnswer) deps.afterAnswer(confirmed);
  else await confirmed;
  return { kind: "accepted", turnId: accepted.turnId, sessionId: turn.sessionId };
}
