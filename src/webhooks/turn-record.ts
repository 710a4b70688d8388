import * as z from "zod";
import { TurnRequestSchema } from "../core/webhook.js";

export const TURN_STATUSES = ["queued", "running", "done", "failed"] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

/** Everything the turn object keeps about one delivery: where it goes, what to run, how it went. */
export const TurnRecordSchema = z.object({
  turnId: z.string(),
  status: z.enum(TURN_STATUSES),
  appName: z.string(),
  hook: z.string(),
  deliveryId: z.string(),
  userId: z.string(),
  sessionId: z.string(),
  /** Fixed at accept time, so every attempt resumes the same invocation with the same user event. */
  invocationId: z.string(),
  userEventId: z.string(),
  /** The turn's input lives here, not in the queue message (messages are capped at 128 KB, bodies at 1 MiB). */
  request: TurnRequestSchema,
  /** Attempts that ran (a wait for the session is not one). */
  attempts: z.number().int(),
  /** How often it waited for its session (an earlier turn in its line, or a turn holding the lease). */
  waits: z.number().int().default(0),
  /** Its place in its session's line, from 1: the order its delivery was accepted in. */
  place: z.number().int().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
  error: z.string().optional(),
  /** How the `onResult` delivery went, when the hook has one. */
  result: z.enum(["delivered", "failed"]).optional(),
});
export type TurnRecord = z.infer<typeof TurnRecordSchema>;

/** What the accept step fills in; the object adds status, attempts and times. */
export type NewTurnRecord = Omit<
  TurnRecord,
  "status" | "attempts" | "waits" | "place" | "createdAt" | "updatedAt" | "error" | "result"
>;

/** The queue message: only the turn's id (its input is in the turn object). */
export const TurnMessageSchema = z.object({ turnId: z.string().regex(/^[0-9a-f]{64}$/) });
export type TurnMessage = z.infer<typeof TurnMessageSchema>;

/** The public view of a turn (`GET /turns/:turnId`). */
export const publicTurn = (record: TurnRecord) => ({
  turnId: record.turnId,
  status: record.status,
  appName: record.appName,
  userId: record.userId,
  sessionId: record.sessionId,
});
