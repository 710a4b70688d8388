import {
  type PushConfig,
  type PushDelivery,
  PushDeliverySchema,
  type TaskRecord,
} from "../../core/task-store.js";
import { type PushSendDeps, sendPush } from "./push-delivery.js";

/** Attempts per delivery: the first and five retries, waiting 2, 4, 8, 16 then 32 s (about a minute). */
export const PUSH_ATTEMPTS = 6;
const firstWaitSeconds = 2;

/** What the queue consumer reads for a delivery: the task as it stands and the config, `null` if either is gone. */
export type PushTargetReader = (
  delivery: PushDelivery,
) => Promise<{ record: TaskRecord; config: PushConfig } | null>;

export interface PushConsumerDeps extends PushSendDeps {
  target: PushTargetReader;
}

/**
 * The `A2A_PUSH` queue's consumer. Each message names a task write and a config; the task is read when
 * the message is consumed and POSTed as it then stands. A message whose task has been written again since
 * is acked unsent (the later write's own message carries the newer state), so a receiver never gets an
 * older state after a newer one from retries; a config deleted meanwhile gets nothing. Failures worth
 * retrying wait with doubling delays, up to `PUSH_ATTEMPTS`; then the delivery is dropped and logged.
 */
export async function consumePushDeliveries(batch: MessageBatch<unknown>, deps: PushConsumerDeps) {
  await Promise.all(batch.messages.map((message) => consumeOne(message, deps)));
}

async function consumeOne(message: Message<unknown>, deps: PushConsumerDeps): Promise<void> {
  const parsed = PushDeliverySchema.safeParse(message.body);
  if (!parsed.success) {
    deps.log(`Queue message ${message.id} is not a push delivery; dropped.`);
    return message.ack();
  }
  const delivery = parsed.data;
  const retry = () => {
    if (message.attempts >= PUSH_ATTEMPTS) {
      deps.log(
        `Push of task ${delivery.taskId} to config ${delivery.configId}: gave up after ${message.attempts} attempts.`,
      );
      return message.ack();
    }
    message.retry({ delaySeconds: firstWaitSeconds * 2 ** (message.attempts - 1) });
  };
  let target: Awaited<ReturnType<PushTargetReader>>;
  try {
    target = await deps.target(delivery);
  } catch (error) {
    deps.log(`Push of task ${delivery.taskId}: its session could not be read: ${String(error)}`);
    return retry();
  }
  if (!target || target.record.seq > delivery.seq) return message.ack();
  const outcome = await sendPush(target.config, target.record.snapshot, deps);
  if (outcome === "retry") return retry();
  message.ack();
}
