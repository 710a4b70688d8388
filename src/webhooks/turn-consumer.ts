import type { RunServices } from "../core/ports.js";
import type { SessionStore } from "../core/session-store.js";
import type { TurnTrace } from "../core/trace.js";
import type { RetryDelays } from "../core/webhook.js";
import type { App } from "../runner/app.js";
import type { TurnLedger } from "./ledger-port.js";
import { runQueuedTurn } from "./run-queued-turn.js";
import { describeSource, type TurnMessage, TurnMessageSchema, type TurnRecord } from "./turn-record.js";
import { type TurnSource, turnSource } from "./turn-sources.js";
import { DEFAULT_RETRY } from "./webhook.js";

/** The `TURNS` producer, as the consumers use it: a waiting turn goes back as a new, delayed message. */
export interface TurnQueue {
  send(message: TurnMessage, options?: QueueSendOptions): Promise<unknown>;
}

/** What the queue consumers need: the apps, the session store, the turn objects and the run services. */
export interface ConsumerDeps {
  apps: ReadonlyMap<string, App>;
  sessionStore: SessionStore;
  ledger: TurnLedger;
  queue: TurnQueue;
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
 * The delay before a waiting turn looks at its session again (`waits` from 1): doubling from
 * `busyDelaySeconds`, capped at `maxDelaySeconds`, then jittered into its upper half so turns that waited
 * together do not all wake together. Whole seconds, at least one (what Queues accepts).
 */
export function waitSeconds(retry: RetryDelays, waits: number, random: () => number): number {
  const ceiling = Math.min(retry.maxDelaySeconds, retry.busyDelaySeconds * 2 ** Math.max(0, waits - 1));
  return Math.max(1, Math.round(ceiling / 2 + (random() * ceiling) / 2));
}

const ended = (record: TurnRecord) => record.status === "done" || record.status === "failed";

const describe = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

/** How many ended or expired turns one look at a line clears from its head before the turn waits anyway. */
const MAX_CLEARED = 16;

/**
 * The `TURNS` consumer: runs each message's turn. A turn runs only at the head of its session's line (the
 * order deliveries were accepted in) and when no other turn holds the session; otherwise it waits: acked
 * and sent again with a jittered, growing delay, so waiting never counts toward `max_retries` and never
 * ends in the dead-letter queue. Done → ack, the next turn in the line is sent at once, then `onResult`.
 * Failed → retry with backoff; after the queue's last retry the dead-letter consumer records the failure.
 */
export async function consumeTurns(batch: MessageBatch<unknown>, deps: ConsumerDeps): Promise<void> {
  await Promise.all(batch.messages.map((message) => consumeOne(message, deps)));
}

async function consumeOne(message: Message<unknown>, deps: ConsumerDeps): Promise<void> {
  const parsed = TurnMessageSchema.safeParse(message.body);
  const turn = parsed.success ? deps.ledger.turn(parsed.data.turnId) : null;
  if (!parsed.success || !turn) {
    deps.services.log(
      `Queue message ${message.id} is not a turn message; it goes to the dead-letter queue after its retries.`,
    );
    return message.retry();
  }
  try {
    await consumeTurn(message, turn, deps);
  } catch (error) {
    // Whatever broke outside the turn itself (an RPC, the queue) is retried, and its cause kept on the turn.
    const reason = `The queue consumer failed: ${describe(error)}`;
    deps.services.log(`Turn ${parsed.data.turnId}: ${reason}`);
    await turn.note(reason).catch(() => undefined);
    message.retry({ delaySeconds: backoffSeconds(DEFAULT_RETRY, message.attempts) });
  }
}

type TurnStub = NonNullable<ReturnType<TurnLedger["turn"]>>;

async function consumeTurn(message: Message<unknown>, turn: TurnStub, deps: ConsumerDeps): Promise<void> {
  const log = deps.services.log;
  const record = await turn.get();
  // Expired after seven days, or a copy of a turn that already ended: nothing to run.
  if (!record || ended(record)) return message.ack();
  const app = deps.apps.get(record.appName);
  const source = app ? (deps.sourceOf ?? turnSource)(app, record) : undefined;
  if (!app || !source) {
    const error = `This Worker serves no ${describeSource(record)} in app "${record.appName}".`;
    await turn.settle("queued", { error });
    log(`Turn ${record.turnId}: ${error}`);
    return message.retry({ delaySeconds: backoffSeconds(DEFAULT_RETRY, message.attempts) });
  }
  const line = deps.ledger.line(record);
  if (!(await atHead(line, record.turnId, deps.ledger)))
    return waitForSession(message, turn, false, source.retry, deps);
  const begun = await turn.begin(message.id);
  if (!begun || ended(begun)) return message.ack();
  if (begun.heldBy !== message.id) {
    log(
      `Turn ${record.turnId} is running under another copy of its message; this copy (${message.id}) is dropped.`,
    );
    return message.ack();
  }
  const outcome = await runQueuedTurn(app, begun, deps, source.createsSession ?? true);
  if (outcome.kind === "gone") {
    await turn.settle("failed", {
      error: `Session ${record.sessionId} no longer exists; the turn was dropped.`,
    });
    await callNext(line, record.turnId, deps);
    return message.ack();
  }
  if (outcome.kind === "busy") return waitForSession(message, turn, true, source.retry, deps);
  if (outcome.kind === "failed") {
    await turn.settle("queued", { error: outcome.error });
    log(`Turn ${record.turnId} attempt ${begun.attempts} failed: ${outcome.error}`);
    return message.retry({ delaySeconds: backoffSeconds(source.retry, message.attempts) });
  }
  await turn.settle("done");
  await callNext(line, record.turnId, deps);
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

type LineStub = ReturnType<TurnLedger["line"]>;

/**
 * Whether `turnId` may run now: it heads its session's line, or the line is empty (a turn accepted before
 * lines existed). Turns ahead of it that ended or expired, whose consumer could not take them out, are
 * taken out here.
 */
async function atHead(line: LineStub, turnId: string, ledger: TurnLedger): Promise<boolean> {
  for (let cleared = 0; cleared < MAX_CLEARED; cleared++) {
    const first = await line.head();
    if (first === null || first === turnId) return true;
    const ahead = await ledger.turn(first)?.get();
    if (ahead && !ended(ahead)) return false;
    await line.leave(first);
  }
  return false;
}

/** Waiting for the session is not an attempt: the message is acked and the turn sent again, delayed. */
async function waitForSession(
  message: Message<unknown>,
  turn: TurnStub,
  afterBegin: boolean,
  retry: RetryDelays,
  deps: ConsumerDeps,
): Promise<void> {
  const waiting = await turn.wait(afterBegin);
  if (!waiting || ended(waiting)) return message.ack();
  const delaySeconds = waitSeconds(retry, waiting.waits, deps.services.random);
  // Sent before the ack: if the send fails the message is retried, so the turn is never dropped.
  await deps.queue.send({ turnId: waiting.turnId }, { delaySeconds });
  message.ack();
}

/**
 * An ended turn leaves its session's line, and the new head is sent at once: it need not sleep out its
 * wait. A failure here only delays it (it looks again when its wait ends).
 */
export async function callNext(line: LineStub, turnId: string, deps: ConsumerDeps): Promise<void> {
  try {
    const next = await line.leave(turnId);
    if (next !== null) await deps.queue.send({ turnId: next });
  } catch (error) {
    deps.services.log(`Turn ${turnId}: could not call the next turn of its session: ${describe(error)}`);
  }
}
