import { BatonError } from "../core/errors.js";
import { createEvent } from "../core/event.js";
import { ensureSession } from "./run-queued-turn.js";
import type { ConsumerDeps } from "./turn-consumer.js";
import { describeSource, TurnMessageSchema } from "./turn-record.js";

/** The `errorCode` of the event a dead-lettered turn leaves in its session. */
export const DEAD_LETTER_ERROR_CODE = "TURN_DEAD_LETTERED";

/** How long a dead letter waits when its session is busy, before recording the failure. */
const BUSY_DELAY_SECONDS = 10;

/**
 * The dead-letter queue's consumer: a turn that used up its retries is marked `failed`, and its session gets
 * an error event saying so (authored by the root agent, content-less so routing and history skip it). The
 * event's id derives from the user event's, so a redelivered dead letter does not store it twice.
 */
export async function consumeDeadLetters(batch: MessageBatch<unknown>, deps: ConsumerDeps): Promise<void> {
  for (const message of batch.messages) {
    const parsed = TurnMessageSchema.safeParse(message.body);
    const turn = parsed.success ? deps.ledger.turn(parsed.data.turnId) : null;
    const record = turn ? await turn.get() : null;
    if (!turn || !record) {
      deps.services.log(`Dead letter ${message.id} names no known turn: ${JSON.stringify(message.body)}`);
      message.ack();
      continue;
    }
    const app = deps.apps.get(record.appName);
    const key = { appName: record.appName, userId: record.userId, sessionId: record.sessionId };
    const errorMessage =
      `The turn from ${describeSource(record)} (delivery ${record.deliveryId}) failed ${record.attempts} ` +
      `time(s) and went to the dead-letter queue. Last error: ${record.error ?? "unknown"}`;
    try {
      await ensureSession(deps.sessionStore, key);
      const event = createEvent(
        {
          id: `${record.userEventId}-dead-letter`,
          invocationId: record.invocationId,
          author: app?.rootAgent.name ?? record.appName,
          errorCode: DEAD_LETTER_ERROR_CODE,
          errorMessage,
        },
        deps.services,
      );
      await deps.sessionStore.appendEvent(key, event);
    } catch (error) {
      if (error instanceof BatonError && error.code === "session_busy") {
        message.retry({ delaySeconds: BUSY_DELAY_SECONDS });
        continue;
      }
      // `invalid_request` here is the event already stored by an earlier delivery of this dead letter.
      if (!(error instanceof BatonError && error.code === "invalid_request")) throw error;
    }
    await turn.settle("failed", { error: errorMessage });
    deps.services.log(`Turn ${record.turnId}: ${errorMessage}`);
    message.ack();
  }
}
