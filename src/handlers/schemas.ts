import { z } from "zod";
import { ContentSchema, wireObject } from "../core/content.js";
import { EventSchema } from "../core/event.js";

const StateMapSchema = z.record(z.string(), z.unknown());

/** `POST /apps/:app/users/:user/sessions` (ADK-SEMANTICS §6.1); every field optional. */
export const CreateSessionBodySchema = wireObject({
  sessionId: z.string().nullish(),
  state: StateMapSchema.nullish(),
  events: z.array(EventSchema).nullish(),
});

/** `PATCH …/sessions/:id`: ADK's own client sends `state_delta`, others `stateDelta`. */
export const PatchSessionBodySchema = wireObject({ stateDelta: StateMapSchema });

/** ADK `RunAgentRequest`, camelCase or snake_case; `null` means absent, as in pydantic (ADK's dev UI sends `stateDelta: null`). */
export const RunAgentRequestSchema = wireObject({
  appName: z.string().min(1),
  userId: z.string().min(1),
  sessionId: z.string().min(1),
  newMessage: ContentSchema,
  streaming: z.boolean().default(false),
  stateDelta: StateMapSchema.nullish(),
  customMetadata: StateMapSchema.nullish(),
  invocationId: z.string().nullish(),
  functionCallEventId: z.string().nullish(),
});
export type RunAgentRequest = z.infer<typeof RunAgentRequestSchema>;
