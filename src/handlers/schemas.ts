import { z } from "zod";
import { ContentSchema, wireObject } from "../core/content.js";
import { EventSchema } from "../core/event.js";

const StateMapSchema = z.record(z.string(), z.unknown());

/** `POST /apps/:app/users/:user/sessions` (ADK-SEMANTICS §6.1); every field optional. */
export const CreateSessionBodySchema = wireObject({
  sessionId: z.string().optional(),
  state: StateMapSchema.optional(),
  events: z.array(EventSchema).optional(),
});

/** `PATCH …/sessions/:id`: ADK's own client sends `state_delta`, others `stateDelta`. */
export const PatchSessionBodySchema = wireObject({ stateDelta: StateMapSchema });

/** ADK `RunAgentRequest`, camelCase or snake_case. */
export const RunAgentRequestSchema = wireObject({
  appName: z.string().min(1),
  userId: z.string().min(1),
  sessionId: z.string().min(1),
  newMessage: ContentSchema,
  streaming: z.boolean().default(false),
  stateDelta: StateMapSchema.optional(),
  customMetadata: StateMapSchema.optional(),
  invocationId: z.string().optional(),
  functionCallEventId: z.string().optional(),
});
export type RunAgentRequest = z.infer<typeof RunAgentRequestSchema>;
