import type { PushNotice } from "../../core/task-store.js";
import { checkedFetch } from "./checked-fetch.js";
import { type PushSendDeps, sendPush } from "./push-delivery.js";

// Apart from the queue consumer (push-consumer.ts), whose signature names Workers' queue types: this module
// is in the runtime-neutral entry, whose declarations must compile in a Node project without them.

/** Options of `directPush`: how to send, and how many attempts each delivery gets. */
export interface DirectPushOptions extends Omit<PushSendDeps, "fetch"> {
  /**
   * How a delivery is sent. Default: Node's HTTP client with each connection's resolved addresses checked
   * against the policy before it is made (`checked-fetch.ts`, decision 048). A `fetch` given here is trusted
   * to reach only where it should: the policy then checks URLs, not where names lead.
   */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  sleep?: (ms: number) => Promise<void>;
  /** Attempts per delivery (default 4, waiting 1, 2 then 4 s). */
  attempts?: number;
}

/**
 * Push notifications where there is no queue (Node, with an `InMemorySessionStore`'s `onPush`): each
 * (task, config) pair has one loop that POSTs the newest stored state with bounded retries; writes that
 * come while it sends are folded into the next delivery, so deliveries of a pair never overtake each other.
 */
export function directPush(options: DirectPushOptions): (notice: PushNotice) => void {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const attempts = options.attempts ?? 4;
  const send: PushSendDeps = { ...options, fetch: options.fetch ?? checkedFetch(options.policy) };
  const pending = new Map<string, PushNotice>();
  const running = new Set<string>();
  const deliver = async (notice: PushNotice) => {
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const outcome = await sendPush(notice.config, notice.record.snapshot, send);
      if (outcome !== "retry") return;
      if (attempt < attempts) await sleep(1000 * 2 ** (attempt - 1));
    }
    options.log(
      `Push of task ${notice.key.taskId} to config ${notice.config.id}: gave up after ${attempts} attempts.`,
    );
  };
  const run = async (pair: string) => {
    running.add(pair);
    try {
      for (let next = pending.get(pair); next; next = pending.get(pair)) {
        pending.delete(pair);
        await deliver(next);
      }
    } finally {
      running.delete(pair);
    }
  };
  return (notice) => {
    const pair = JSON.stringify([notice.key, notice.config.id]);
    pending.set(pair, notice);
    if (!running.has(pair)) void run(pair);
  };
}
