import { BatonError } from "../core/errors.js";
import { type Event, isFinalResponse } from "../core/event.js";
import type { RunServices } from "../core/ports.js";
import type { SessionKey } from "../core/session.js";
import type { SessionStore } from "../core/session-store.js";
import type { TurnTrace } from "../core/trace.js";
import type { App } from "../runner/app.js";
import { Runner } from "../runner/runner.js";
import type { TurnRecord } from "./turn-record.js";

/** How one attempt ended: `done` (with the final response, if any), `busy` (another turn holds the session), `failed`. */
export type AttemptOutcome =
  | { kind: "done"; final: Event | undefined }
  | { kind: "busy" }
  /** The session is gone and the source does not recreate it (a reminder of a deleted session). */
  | { kind: "gone" }
  | { kind: "failed"; error: string };

export interface RunDeps {
  sessionStore: SessionStore;
  services: Partial<RunServices>;
  /** Gets each turn's trace once it is stored (the Worker's OTLP export). */
  onTrace?: ((trace: TurnTrace) => void) | undefined;
}

/**
 * Runs (or resumes) a queued turn through the same `Runner` as HTTP turns, with the invocation id and user
 * event id fixed at accept time: a retry finds its user event stored and continues from what is stored.
 * An error event in this attempt, or a store refusal, makes the attempt `failed` (retried by the queue).
 */
export async function runQueuedTurn(
  app: App,
  record: TurnRecord,
  deps: RunDeps,
  createsSession = true,
): Promise<AttemptOutcome> {
  const key: SessionKey = { appName: app.name, userId: record.userId, sessionId: record.sessionId };
  try {
    if (createsSession) await ensureSession(deps.sessionStore, key);
    else if (!(await deps.sessionStore.getSession(key, { numRecentEvents: 0 }))) return { kind: "gone" };
    const { sessionStore, services, onTrace } = deps;
    const runner = new Runner({ app, sessionStore, services, ...(onTrace ? { onTrace } : {}) });
    const events = await runner.start({
      userId: record.userId,
      sessionId: record.sessionId,
      newMessage: record.request.newMessage,
      ...(record.request.stateDelta ? { stateDelta: record.request.stateDelta } : {}),
      invocationId: record.invocationId,
      userEventId: record.userEventId,
    });
    let final: Event | undefined;
    let error: string | undefined;
    for await (const event of events) {
      if (event.errorCode !== undefined || event.errorMessage !== undefined)
        error = `${event.errorCode ?? "ERROR"}: ${event.errorMessage ?? ""}`;
      else if (event.author !== "user" && isFinalResponse(event)) final = event;
    }
    if (error !== undefined) return { kind: "failed", error };
    return { kind: "done", final: final ?? (await storedFinal(deps.sessionStore, key, record.invocationId)) };
  } catch (error) {
    if (error instanceof BatonError && error.code === "session_busy") return { kind: "busy" };
    return {
      kind: "failed",
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
  }
}

/** Creates the session a hook names when it does not exist yet (a concurrent create is fine). */
export async function ensureSession(store: SessionStore, key: SessionKey): Promise<void> {
  if (await store.getSession(key, { numRecentEvents: 0 })) return;
  try {
    await store.createSession({ ...key });
  } catch (error) {
    if (!(error instanceof BatonError && error.code === "session_exists")) throw error;
  }
}

/** The final response an earlier attempt stored (a resumed turn that had already finished runs nothing). */
async function storedFinal(
  store: SessionStore,
  key: SessionKey,
  invocationId: string,
): Promise<Event | undefined> {
  const session = await store.getSession(key, { numRecentEvents: 100 });
  return session?.events.findLast(
    (e) => e.invocationId === invocationId && e.author !== "user" && isFinalResponse(e),
  );
}
