import * as z from "zod";
import {
  type Content,
  ContentSchema,
  functionCallsOf,
  functionResponsesOf,
  JsonObject,
  wireObject,
} from "./content.js";
import { type Clock, type IdSource, newEventId, toWireSeconds } from "./ids.js";

/** ADK `EventActions` (ADK-SEMANTICS §1.2). The dict-valued actions default to `{}` as in Python. */
export const EventActionsSchema = wireObject({
  stateDelta: JsonObject.default({}),
  artifactDelta: z.record(z.string(), z.number()).default({}),
  transferToAgent: z.string().optional(),
  escalate: z.boolean().optional(),
  skipSummarization: z.boolean().optional(),
  requestedAuthConfigs: JsonObject.default({}),
  requestedToolConfirmations: JsonObject.default({}),
  endOfAgent: z.boolean().optional(),
  agentState: JsonObject.optional(),
  rewindBeforeInvocationId: z.string().optional(),
  compaction: JsonObject.optional(),
});
export type EventActions = z.infer<typeof EventActionsSchema>;

/** ADK `Event` in Python's wire shape (ADK-SEMANTICS §1.1, §8.4): float-second timestamps, UUID ids. */
export const EventSchema = wireObject({
  id: z.string().min(1),
  invocationId: z.string(),
  author: z.string(),
  branch: z.string().optional(),
  timestamp: z.number(),
  content: ContentSchema.optional(),
  partial: z.boolean().optional(),
  turnComplete: z.boolean().optional(),
  interrupted: z.boolean().optional(),
  finishReason: z.string().optional(),
  errorCode: z.string().optional(),
  errorMessage: z.string().optional(),
  modelVersion: z.string().optional(),
  usageMetadata: JsonObject.optional(),
  avgLogprobs: z.number().optional(),
  groundingMetadata: JsonObject.optional(),
  citationMetadata: JsonObject.optional(),
  customMetadata: JsonObject.optional(),
  longRunningToolIds: z.array(z.string()).optional(),
  actions: EventActionsSchema.default(() => emptyActions()),
});
export type Event = z.infer<typeof EventSchema>;

export const emptyActions = (): EventActions => ({
  stateDelta: {},
  artifactDelta: {},
  requestedAuthConfigs: {},
  requestedToolConfirmations: {},
});

export interface EventEnv {
  ids: IdSource;
  clock: Clock;
}

export type NewEvent = Omit<Event, "id" | "timestamp" | "actions"> & {
  actions?: Partial<EventActions>;
  id?: string;
};

/** Stamps a new event with a fresh UUID and the current time in float seconds. */
export function createEvent(fields: NewEvent, env: EventEnv): Event {
  const { actions, id, ...rest } = fields;
  return {
    id: id ?? newEventId(env.ids),
    ...rest,
    timestamp: toWireSeconds(env.clock.now()),
    actions: { ...emptyActions(), ...actions },
  };
}

/** ADK `is_final_response()` exactly (ADK-SEMANTICS §1.3). */
export function isFinalResponse(event: Event): boolean {
  if (event.actions.skipSummarization || (event.longRunningToolIds?.length ?? 0) > 0) return true;
  const parts = event.content?.parts ?? [];
  const last = parts.at(-1);
  return (
    functionCallsOf(event.content).length === 0 &&
    functionResponsesOf(event.content).length === 0 &&
    !event.partial &&
    last?.codeExecutionResult === undefined
  );
}

export const hasContent = (content: Content | undefined): boolean => (content?.parts?.length ?? 0) > 0;

/** An error event that carries no content: routing and history skip it (ADK-SEMANTICS §2.4). */
export const isErrorWithoutContent = (event: Event): boolean =>
  (event.errorCode !== undefined || event.errorMessage !== undefined) && !hasContent(event.content);
