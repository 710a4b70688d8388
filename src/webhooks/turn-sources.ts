import type { Event } from "../core/event.js";
import type { RetryDelays } from "../core/webhook.js";
import type { App } from "../runner/app.js";
import { deliverResult, type ResultDeps } from "./deliver-result.js";
import type { TurnRecord } from "./turn-record.js";
import { DEFAULT_RETRY } from "./webhook.js";

/** What the consumer needs from the thing that started a turn: how to retry it, and what to do when done. */
export interface TurnSource {
  retry: RetryDelays;
  /** Whether a missing session is created (webhooks, schedules, email) or the turn dropped (reminders). */
  createsSession?: boolean;
  onResult?: (
    record: TurnRecord,
    final: Event | undefined,
    deps: ResultDeps,
  ) => Promise<"delivered" | "failed">;
}

/**
 * The source of a queued turn in its app: the webhook, the schedule, the email route or the session's
 * reminders. `undefined` when the Worker no longer serves it (the turn is retried, then dead-lettered).
 */
export function turnSource(app: App, record: TurnRecord): TurnSource | undefined {
  switch (record.origin) {
    case "webhook": {
      const hook = app.hooks.get(record.source);
      if (!hook) return undefined;
      const { onResult } = hook;
      return {
        retry: hook.retry,
        ...(onResult ? { onResult: (r, final, deps) => deliverResult(onResult, r, final, deps) } : {}),
      };
    }
    case "schedule":
      return app.schedulesByName.has(record.source) ? { retry: DEFAULT_RETRY } : undefined;
    case "reminder":
    case "resume":
      return { retry: DEFAULT_RETRY, createsSession: false };
    case "email":
      return undefined;
  }
}
