import { BatonError } from "../core/errors.js";
import { createEvent, type EventEnv } from "../core/event.js";
import { assertSafeState } from "../core/safe-shape.js";
import type { Session, SessionKey } from "../core/session.js";
import { EVENT_PAGE_LIMITS, type SessionPage, type SessionPageRequest } from "../core/session-pages.js";
import type { CreateSessionRequest, EventWindow, SessionStore } from "../core/session-store.js";
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

  /**
   * The session with the events `window` selects, at most `EVENT_PAGE_LIMITS.maxPerRead` of them (the
   * newest; `truncated` when older ones were left out, which `listEvents` pages through);
   * `session_not_found` when it does not exist.
   */
  async get(key: SessionKey, window: EventWindow = {}): Promise<{ session: Session; truncated: boolean }> {
    const max = EVENT_PAGE_LIMITS.maxPerRead;
    const asked = window.numRecentEvents;
    const bounded = asked !== undefined && asked <= max ? window : { ...window, numRecentEvents: max + 1 };
    const session = await this.store.getSession(key, bounded);
    if (!session) throw missing(key.sessionId);
    if (session.events.length <= max) return { session, truncated: false };
    return { session: { ...session, events: session.events.slice(-max) }, truncated: true };
  }

  /** A page of a user's sessions, without their events. */
  list(appName: string, userId: string, page?: SessionPageRequest): Promise<SessionPage> {
    return this.store.listSessions(appName, userId, page);
  }

  /**
   * Records `stateDelta` as ADK does: a user event with only the delta, in a fresh `p-` invocation. Returns
   * the session after it; `session_not_found` when it does not exist.
   */
  async patchState(key: SessionKey, stateDelta: StateMap): Promise<Session> {
    assertSafeState(stateDelta, "stateDelta");
    const event = createEvent(
      { invocationId: `p-${this.env.ids.uuid()}`, author: "user", actions: { stateDelta } },
      this.env,
    );
    await this.store.appendEvent(key, event);
    return (await this.get(key)).session;
  }

  /** Deletes the session; a missing one is a no-op (ADK Python answers 200). */
  delete(key: SessionKey): Promise<void> {
    return this.store.deleteSession(key);
  }
}
