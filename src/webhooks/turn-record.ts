import * as z from "zod";
import { TurnRequestSchema } from "../core/webhook.js";

export const TURN_STATUSES = ["queued", "running", "done", "failed"] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

/**
 * What started a queued turn: a webhook delivery, a cron firing, an inbound email, a reminder, or a session
 * object resuming a turn that died (decision 028).
 */
export const TURN_ORIGINS = ["webhook", "schedule", "email", "reminder", "resume"] as const;
export type TurnOrigin = (typeof TURN_ORIGINS)[number];

/** Records written before turns had origins named their webhook `hook`. */
const withOrigin = (raw: unknown): unknown => {
  if (typeof raw !== "object" || raw === null || "origin" in raw) return raw;
  const hook: unknown = Reflect.get(raw, "hook");
  return { ...raw, origin: "webhook", source: hook };
};

/** Everything the turn object keeps about one delivery: where it goes, what to run, how it went. */
export const TurnRecordSchema = z.preprocess(
  withOrigin,
  z.object({
    turnId: z.string(),
    status: z.enum(TURN_STATUSES),
    appName: z.string(),
    origin: z.enum(TURN_ORIGINS),
    /** The name of what started it in its app: the hook, the schedule, the email route, the reminder's session. */
    source: z.string(),
    /** Unique per source: the provider's delivery id, the scheduled time, the Message-ID, the reminder id. */
    deliveryId: z.string(),
    userId: z.string(),
    sessionId: z.string(),
    /** Fixed at accept time, so every attempt resumes the same invocation with the same user event. */
    invocationId: z.string(),
    userEventId: z.string(),
    /** The turn's input lives here, not in the queue message (messages are capped at 128 KB, bodies at 1 MiB). */
    request: TurnRequestSchema,
    /** What the source's `onResult` needs beyond the turn (an email's sender and Message-ID). */
    context: z.record(z.string(), z.unknown()).optional(),
    /** Attempts that ran (a wait for the session is not one). */
    attempts: z.number().int(),
    /** How often it waited for its session (an earlier turn in its line, or a turn holding it). */
    waits: z.number().int().default(0),
    /** The queue message whose attempt holds the turn while it is `running`: other copies leave it alone. */
    heldBy: z.string().optional(),
    /** Its place in its session's line, from 1: the order it was accepted in. */
    place: z.number().int().optional(),
    createdAt: z.number(),
    updatedAt: z.number(),
    error: z.string().optional(),
    /** How the `onResult` delivery went, when the source has one. */
    result: z.enum(["delivered", "failed"]).optional(),
  }),
);
export type TurnRecord = z.infer<typeof TurnRecordSchema>;

/** What the accept step fills in; the object adds status, attempts and times. */
export type NewTurnRecord = Omit<
  TurnRecord,
  "status" | "attempts" | "waits" | "heldBy" | "place" | "createdAt" | "updatedAt" | "error" | "result"
>;

/** The queue message: only the turn's id (its input is in the turn object). */
export const TurnMessageSchema = z.object({ turnId: z.string().regex(/^[0-9a-f]{64}$/) });
export type TurnMessage = z.infer<typeof TurnMessageSchema>;

/** How a turn's origin and source read in messages: `webhook "github"`, `schedule "daily"`. */
export const describeSource = (record: Pick<TurnRecord, "origin" | "source">): string =>
  `${record.origin} "${record.source}"`;

/** The public view of a turn (`GET /turns/:turnId`). */
export const publicTurn = (record: TurnRecord) => ({
  turnId: record.turnId,
  status: record.status,
  appName: record.appName,
  origin: record.origin,
  userId: record.userId,
  sessionId: record.sessionId,
});
