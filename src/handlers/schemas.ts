import * as z from "zod";
import { ContentSchema, wireObject } from "../core/content.js";
import { EventSchema } from "../core/event.js";
import { AppNameSchema, SessionIdSchema, UserIdSchema } from "../core/limits.js";
import { snakeToCamel } from "../core/wire-case.js";

const StateMapSchema = z.record(z.string(), z.unknown());

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The fields of `raw` outside `shape` or in `refused`, each with why, named as the client sent them. */
function unsupportedFields(
  raw: unknown,
  shape: z.ZodRawShape,
  refused: Readonly<Record<string, string>>,
): [field: string, reason: string][] {
  if (!isPlainObject(raw)) return [];
  return Object.entries(raw).flatMap(([field, value]): [string, string][] => {
    if (value === null) return [];
    const camel = snakeToCamel(field);
    if (Object.hasOwn(refused, camel)) return [[field, refused[camel] ?? ""]];
    return Object.hasOwn(shape, camel) ? [] : [[field, "Baton does not support this field"]];
  });
}

/**
 * An ADK request body: `shape`'s fields in camelCase or snake_case, and nothing else. A field outside the
 * shape, or one of `refused` (ADK defines it, Baton cannot honour it), is a 400 naming the field as sent,
 * reported together with the shape's own problems. `null` counts as absent: Python clients send it for
 * unset fields.
 */
function requestBody<T extends z.ZodRawShape>(shape: T, refused: Readonly<Record<string, string>> = {}) {
  const known = wireObject(shape);
  return z.unknown().transform((raw, ctx): z.output<typeof known> => {
    for (const [field, reason] of unsupportedFields(raw, shape, refused)) {
      ctx.addIssue({ code: "custom", path: [field], message: reason });
    }
    const parsed = known.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
      return z.NEVER;
    }
    return parsed.data;
  });
}

/** `POST /apps/:app/users/:user/sessions` (ADK `CreateSessionRequest`); every field optional. */
export const CreateSessionBodySchema = requestBody({
  sessionId: SessionIdSchema.optional(),
  state: StateMapSchema.optional(),
  events: z.array(EventSchema).optional(),
});

/** `PATCH /apps/:app/users/:user/memory` (ADK `UpdateMemoryRequest`): the session to add to the user's memory. */
export const UpdateMemoryBodySchema = requestBody({ sessionId: SessionIdSchema });

/** `PATCH …/sessions/:id` (ADK `UpdateSessionRequest`): ADK's own client sends `state_delta`, others `stateDelta`. */
export const PatchSessionBodySchema = requestBody({ stateDelta: StateMapSchema });

/**
 * ADK `RunAgentRequest`, camelCase or snake_case. `functionCallEventId` only decides how ADK splits an event
 * carrying an `artifactDelta` on SSE (`sseFrames`): given, it is sent whole.
 * `invocationId` resumes that invocation from its stored events (ADK's resumability, decision 028): its own
 * stored user event is the turn's message, so `newMessage` is not stored again.
 */
export const RunAgentRequestSchema = requestBody({
  appName: AppNameSchema,
  userId: UserIdSchema,
  sessionId: SessionIdSchema,
  newMessage: ContentSchema,
  streaming: z.boolean().default(false),
  stateDelta: StateMapSchema.optional(),
  customMetadata: StateMapSchema.optional(),
  functionCallEventId: z.string().optional(),
  invocationId: z.string().min(1).max(128).optional(),
});
export type RunAgentRequest = z.infer<typeof RunAgentRequestSchema>;
