import type { Content } from "../core/content.js";
import type { Event } from "../core/event.js";
import { type MemoryEntry, memoryText } from "../core/memory.js";
import type { Session } from "../core/session.js";

/** One memory as the stores keep it: its id, the session it came from (none when added directly), its entry and text. */
export interface MemoryRow {
  id: string;
  sessionId: string | null;
  entry: MemoryEntry & { id: string };
  text: string;
}

/** ADK's `format_timestamp`: float seconds as an ISO 8601 string. */
export const isoTime = (seconds: number): string => new Date(seconds * 1000).toISOString();

/**
 * The memories of a session: each stored event that says something, with its text parts only (calls,
 * thoughts and bytes are left out: what is searched is what was said). Ids are `<session>/<event>`, so
 * adding a session again adds only its new events.
 */
export function sessionMemories(session: Pick<Session, "id" | "events">): MemoryRow[] {
  return session.events.flatMap((event: Event) => {
    const parts = (event.content?.parts ?? []).filter(
      (p) => p.text !== undefined && p.text !== "" && !p.thought,
    );
    if (parts.length === 0 || event.partial) return [];
    const content: Content = {
      role: event.content?.role ?? "user",
      parts: parts.map((p) => ({ text: p.text ?? "" })),
    };
    const id = `${session.id}/${event.id}`;
    const entry = { id, content, author: event.author, timestamp: isoTime(event.timestamp) };
    return [{ id, sessionId: session.id, entry, text: memoryText(content) }];
  });
}

/** Entries added directly (ADK `add_memory`): each keeps its id or gets one from `newId`; those with no text are skipped. */
export function directMemories(entries: readonly MemoryEntry[], newId: () => string): MemoryRow[] {
  return entries.flatMap((given) => {
    const text = memoryText(given.content);
    if (text === "") return [];
    const id = given.id ?? newId();
    return [{ id, sessionId: null, entry: { ...given, id }, text }];
  });
}
