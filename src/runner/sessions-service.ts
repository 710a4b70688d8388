import { BatonError } from "../core/errors.js";
import { createEvent, type EventEnv } from "../core/event.js";
import type { Session, SessionKey } from "../core/session.js";
import type { CreateSessionRequest, SessionStore } from "../core/session-store.js";
import type { StateMap } from "../core/state.js";

const missing = (sessionId: string) => new BatonError("session_not_found", `Session not found: ${sessionId}`);

/**
 * ADK's session operations (ADK-SEMANTICS §6.1) over the `SessionStore` port, so every way in (HTTP,
 * A2A, webhooks) behaves alike: create with seed events in one step, read, list, patch state, delete.
 * `env` stamps the events it writes (a state patch).
 */
export class SessionsService {
  constructor(
    readonly store: SessionStore,
    readonly env: EventEnv,
  ) {}

  /** Creates the session with its state and seed events together (`session_exists` if the id is taken). */
  create(request: CreateSessionRequest): Promise<Session> {
    return this.store.createSession(request);
  }

  /** The session with all its events; `session_not_found` when it does not exist. */
  async get(key: SessionKey): Promise<Session> {
    const session = await this.store.getSession(key);
    if (!session) throw missing(key.sessionId);
    return session;
  }

  /** A user's sessions, without their events. */
  list(appName: string, userId: string): Promise<Session[]> {
    return this.store.listSessions(appName, userId);
  }

  /**
   * Records `stateDelta` as ADK does: a user event with only the delta, in a fresh `p-` invocation. Returns
   * the session after it; `session_not_found` when it does not exist.
   */
  async patchState(key: SessionKey, stateDelta: StateMap): Promise<Session> {
    const event = createEvent(
      { invocationId: `p-${this.env.ids.uuid()}`, author: "user", actions: { stateDelta } },
      this.env,
    );
    await this.store.appendEvent(key, event);
    return this.get(key);
  }

  /** Deletes the session; a missing one is a no-op (ADK Python answers 200). */
  delete(key: SessionKey): Promise<void> {
    return this.store.deleteSession(key);
  }
}
