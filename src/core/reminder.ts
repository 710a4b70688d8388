import * as z from "zod";
import type { SessionKey } from "./session.js";

/** A pending reminder: a future turn of its session with `message` as the user's words. */
export const ReminderSchema = z.object({
  id: z.string(),
  /** The agent's name for it; setting a reminder with a key already pending replaces that one. */
  key: z.string().optional(),
  message: z.string(),
  /** When it fires, ms since the epoch. */
  dueAt: z.number(),
  createdAt: z.number(),
});
export type Reminder = z.infer<typeof ReminderSchema>;

export type NewReminder = Omit<Reminder, "id" | "createdAt">;

/** Bounds on what an agent may schedule, per session. */
export const REMINDER_LIMITS = {
  pendingPerSession: 100,
  messageChars: 4000,
  keyChars: 128,
  /** The furthest ahead a reminder may be set: a year. */
  maxDelayMs: 366 * 24 * 60 * 60 * 1000,
} as const;

/** The session-state key where the store shows a session's pending reminders (read-only to agents). */
export const PENDING_REMINDERS_KEY = "_reminders";

/**
 * Reminders kept with their session, fired by it when due (the Durable Object store's alarm). A store
 * without it (in memory) does not offer reminders, and the reminder tools say so.
 */
export interface ReminderStore {
  /** Schedules one; `replaced` is the pending reminder with the same key it replaced. */
  set(key: SessionKey, reminder: NewReminder): Promise<{ reminder: Reminder; replaced: Reminder | null }>;
  /** The session's pending reminders, soonest first. */
  list(key: SessionKey): Promise<Reminder[]>;
  /** Cancels the pending reminder with this key or id; `null` when there is none. */
  cancel(key: SessionKey, keyOrId: string): Promise<Reminder | null>;
}
