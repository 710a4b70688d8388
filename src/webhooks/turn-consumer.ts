import type { RunServices } from "../core/ports.js";
import type { SessionStore } from "../core/session-store.js";
import type { TurnTrace } from "../core/trace.js";
import type { RetryDelays } from "../core/webhook.js";
import type { App } from "../runner/app.js";
import { runQueuedTurn } from "./run-queued-turn.js";
import type { TurnLedger } from "./turn-ledger.js";
import { describeSource, TurnMessageSchema, type TurnRecord } from "./turn-record.js";
import { type TurnSource, turnSource } from "./turn-sources.js";
import { DEFAULT_RETRY } from "./webhook.js";

/** What the queue consumers need: the apps, the session store, the turn objects and the run services. */
export interface ConsumerDeps {
  apps: ReadonlyMap<string, App>;
  sessionStore: SessionStore;
  ledger: TurnLedger;
  services: RunServices;
  fetch: typeof fetch;
  secret(name: string): string | undefined;
  /** Gets each turn's trace once it is stored (the Worker's OTLP export). */
  onTrace?: ((trace: TurnTrace) => void) | undefined;
  /** Finds a turn's source in its app; default `turnSource` (webhooks and schedules). */
  sourceOf?: ((app: App, record: TurnRecord) => TurnSource | undefined) | undefined;
}

/** The delay before retry `attempts` (1-based): doubling from the base, capped. */
export const backoffSeconds = (retry: RetryDelays, attempts: number): number =>
  Math.min(retry.maxDelaySeconds, retry.baseDelaySeconds * 2 ** Math.max(0, attempts - 1));

/**
 * The `TURNS` consumer: runs each message's turn. Done → ack (then `onResult`); session busy → retry after
 * `busyDelaySeconds`, doubling per attempt, never dropped; failed → retry with backoff. After the queue's last retry the
 * message goes to the dead-letter queue (wrangler `dead_letter_queue`), whose consumer records the failure.
 * Messages of one batch run concurrently; two for one session meet the lease and one waits.
 */
export async function consumeTurns(batch: MessageBatch<unknown>, deps: ConsumerDeps): Promise<void> {
  await Promise.all(batch.messages.map((message) => consumeOne(message, deps)));
}

async function consumeOne(message: Message<unknown>, deps: ConsumerDeps): Promise<void> {
  const log = deps.services.log;
  const parsed = TurnMessageSchema.safeParse(message.body);
  const turn = parsed.success ? deps.ledger.turn(parsed.data.turnId) : null;
  if (!parsed.success || !turn) {
    log(
      `Queue message ${message.id} is not a turn message; it goes to the dead-letter queue after its retries.`,
    );
    return message.retry();
  }
  const record = await turn.begin();
  if (!record || record.status === "done" || record.status === "failed") {
    // Expired after seven days, or a redelivery of a turn that already ended: nothing to run.
    return message.ack();
  }
  const app = deps.apps.get(record.appName);
  const source = app ? (deps.sourceOf ?? turnSource)(app, record) : undefined;
  if (!app || !source) {
    const error = `This Worker serves no ${describeSource(record)} in app "${record.appName}".`;
    await turn.settle("queued", { error });
    log(`Turn ${record.turnId}: ${error}`);
    return message.retry({ delaySeconds: backoffSeconds(DEFAULT_RETRY, message.attempts) });
  }
  const outcome = await runQueuedTurn(app, record, deps, source.createsSession ?? true);
  if (outcome.kind === "gone") {
    await turn.settle("failed", {
      error: `Session ${record.sessionId} no longer exists; the turn was dropped.`,
    });
    return message.ack();
  }
  if (outcome.kind === "busy") {
    await turn.settle("queued");
    // Busy retries count toward max_retries too: growing waits let a long turn finish first.
    const busy = { ...source.retry, baseDelaySeconds: source.retry.busyDelaySeconds };
    return message.retry({ delaySeconds: backoffSeconds(busy, message.attempts) });
  }
  if (outcome.kind === "failed") {
    await turn.settle("queued", { error: outcome.error });
    log(`Turn ${record.turnId} attempt ${message.attempts} failed: ${outcome.error}`);
    return message.retry({ delaySeconds: backoffSeconds(source.retry, message.attempts) });
  }
  await turn.settle("done");
  message.ack();
  if (!source.onResult) return;
  const result = await source.onResult(record, outcome.final, {
    fetch: deps.fetch,
    sleep: deps.services.sleep,
    clock: deps.services.clock,
    secret: deps.secret,
    log,
  });
  await turn.settle("done", { result });
}
