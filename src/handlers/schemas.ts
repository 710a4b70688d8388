import { z } from "zod";
import { ContentSchema, wireObject } from "../core/content.js";
import { EventSchema } from "../core/event.js";
import { snakeToCamel } from "../core/wire-case.js";

const StateMapSchema = z.record(z.string(), z.unknown());

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * An ADK request body: `shape`'s fields in camelCase or snake_case, and nothing else. A field outside the
 * shape, or one of `refused` (ADK defines it, Baton cannot honour it), is a 400 naming the field as sent.
 * A `null` value counts as absent, as Python clients send `null` for unset fields.
 */
function requestBody<T extends z.ZodRawShape>(shape: T, refused: Readonly<Record<string, string>> = {}) {
  return z
    .unknown()
    .superRefine((raw, ctx) => {
      if (!isPlainObject(raw)) return;
      for (const [field, value] of Object.entries(raw)) {
        if (value === null) continue;
        const camel = snakeToCamel(field);
        const reason = Object.hasOwn(refused, camel)
          ? refused[camel]
          : Object.hasOwn(shape, camel)
            ? undefined
            : "Baton does not support this field";
        if (reason !== undefined) ctx.addIssue({ code: "custom", path: [field], message: reason });
      }
    })
    .pipe(wireObject(shape));
}

/** `POST /apps/:app/users/:user/sessions` (ADK `CreateSessionRequest`); every field optional. */
export const CreateSessionBodySchema = requestBody({
  sessionId: z.string().optional(),
  state: StateMapSchema.optional(),
  events: z.array(EventSchema).optional(),
});

/** `PATCH …/sessions/:id` (ADK `UpdateSessionRequest`): ADK's own client sends `state_delta`, others `stateDelta`. */
export const PatchSessionBodySchema = requestBody({ stateDelta: StateMapSchema });

/**
 * ADK `RunAgentRequest`, camelCase or snake_case. `functionCallEventId` only decides how ADK splits an event
 * carrying an `artifactDelta` on SSE; Baton emits none, so it is accepted and has nothing to change.
 * `invocationId` asks to resume a paused invocation, which ADK refuses for a non-resumable app; so does Baton.
 */
export const RunAgentRequestSchema = requestBody(
  {
    appName: z.string().min(1),
    userId: z.string().min(1),
    sessionId: z.string().min(1),
    newMessage: ContentSchema,
    streaming: z.boolean().default(false),
    stateDelta: StateMapSchema.optional(),
    customMetadata: StateMapSchema.optional(),
    functionCallEventId: z.string().optional(),
  },
  { invocationId: "resuming an invocation is not supported: Baton apps are not resumable" },
);
export type RunAgentRequest = z.infer<typeof RunAgentRequestSchema>;
