import { BatonError } from "../core/errors.js";
import type { MemoryService } from "../core/memory.js";
import type { SessionKey } from "../core/session.js";
import type { SessionStore } from "../core/session-store.js";

/**
 * ADK's `add_session_to_memory` for a session of any length (decision 046): its events are read and added a
 * page at a time (`listEvents`), so memory holds one page, never the whole log; a memory entry's id is its
 * event's, so the pages add up to the whole session. A store without pages is read whole.
 */
export async function addSessionInPages(
  store: SessionStore,
  memory: MemoryService,
  key: SessionKey,
): Promise<void> {
  const missing = () => new BatonError("session_not_found", `Session not found: ${key.sessionId}`);
  if (!store.listEvents) {
    const session = await store.getSession(key);
    if (!session) throw missing();
    return memory.addSessionToMemory(session);
  }
  const session = await store.getSession(key, { numRecentEvents: 0 });
  if (!session) throw missing();
  let pageToken: string | undefined;
  do {
    const page = await store.listEvents(key, pageToken === undefined ? {} : { pageToken });
    await memory.addSessionToMemory({ ...session, events: page.events });
    pageToken = page.nextPageToken;
  } while (pageToken !== undefined);
}
