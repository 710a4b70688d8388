import * as z from "zod";
import { wireObject } from "./content.js";
import { EventSchema } from "./event.js";

/** ADK `Session` on the wire (ADK-SEMANTICS §4.1): state is merged (`app:`/`user:` keys re-added). */
export const SessionSchema = wireObject({
  id: z.string(),
  appName: z.string(),
  userId: z.string(),
  state: z.record(z.string(), z.unknown()),
  events: z.array(EventSchema),
  /** Float seconds, like event timestamps. */
  lastUpdateTime: z.number(),
});
export type Session = z.infer<typeof SessionSchema>;

export interface SessionKey {
  appName: string;
  userId: string;
  sessionId: string;
}
